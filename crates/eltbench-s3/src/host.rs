//! Host-header parsing for virtual-host-style addressing: `<bucket>.<base domain>[:port]`
//! names a bucket, anything else (the base domain itself, `127.0.0.1:PORT`, another
//! host name) is path-style.
//!
//! This module only splits the host name; it must never reject a request for its host,
//! so path-style keeps working under any name the endpoint is reached by.

use s3s::S3Result;
use s3s::host::{S3Host, VirtualHost};

use crate::error::S3Error;

/// The base domain used when none is configured: `bucket.localhost:PORT`.
pub const DEFAULT_BASE_DOMAIN: &str = "localhost";

/// Base domains under which a sub-domain is a bucket name.
#[derive(Debug, Clone)]
pub(crate) struct BaseDomains(Vec<String>);

impl BaseDomains {
    pub(crate) fn new(domains: &[String]) -> Result<Self, S3Error> {
        let mut checked = Vec::with_capacity(domains.len());
        for domain in domains {
            if let Some(reason) = domain_problem(domain) {
                return Err(S3Error::InvalidDomain {
                    domain: domain.clone(),
                    reason,
                });
            }
            checked.push(domain.to_ascii_lowercase());
        }
        Ok(Self(checked))
    }

    /// The bucket a host name (without port) addresses, if any.
    fn bucket_of<'h>(&self, host: &'h str) -> Option<&'h str> {
        self.0.iter().find_map(|base| {
            let sub = host.strip_suffix(base.as_str())?.strip_suffix('.')?;
            (!sub.is_empty()).then_some(sub)
        })
    }
}

fn domain_problem(domain: &str) -> Option<&'static str> {
    if domain.is_empty() {
        return Some("empty");
    }
    let label_ok =
        |l: &str| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if !domain.split('.').all(label_ok) {
        return Some(
            "expected a host name such as `localhost` or `s3.local`, without scheme or port",
        );
    }
    None
}

/// `host` without a trailing `:port`.
fn strip_port(host: &str) -> &str {
    match host.rsplit_once(':') {
        Some((name, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

impl S3Host for BaseDomains {
    fn parse_host_header<'a>(&'a self, host: &'a str) -> S3Result<VirtualHost<'a>> {
        let name = strip_port(host).to_ascii_lowercase();
        let vh = VirtualHost::new(host);
        Ok(match self.bucket_of(&name) {
            Some(bucket) => vh.with_bucket(bucket.to_owned()),
            None => vh,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bases() -> BaseDomains {
        BaseDomains::new(&["localhost".to_owned(), "s3.local".to_owned()]).unwrap()
    }

    #[test]
    fn subdomain_of_a_base_is_a_bucket() {
        let b = bases();
        let vh = b
            .parse_host_header("address-bucket.localhost:4566")
            .unwrap();
        assert_eq!(vh.bucket(), Some("address-bucket"));
        let vh = b.parse_host_header("my.bucket.s3.local").unwrap();
        assert_eq!(vh.bucket(), Some("my.bucket"));
    }

    #[test]
    fn other_hosts_are_path_style() {
        let b = bases();
        for host in [
            "localhost:4566",
            "elt-localstack:4566",
            "notlocalhost",
            "s3.local",
        ] {
            assert_eq!(b.parse_host_header(host).unwrap().bucket(), None, "{host}");
        }
    }

    #[test]
    fn base_domains_are_validated() {
        assert!(BaseDomains::new(&["http://x".to_owned()]).is_err());
        assert!(BaseDomains::new(&["localhost:80".to_owned()]).is_err());
    }
}
