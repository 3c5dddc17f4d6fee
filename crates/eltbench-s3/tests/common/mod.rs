//! Shared by the integration tests and the throughput bench: starting the endpoint on a
//! free loopback port and building aws-sdk-s3 clients for it, path or virtual-host style.
#![allow(dead_code, reason = "each test binary uses a different subset")]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use aws_sdk_s3::config::interceptors::BeforeTransmitInterceptorContextMut;
use aws_sdk_s3::config::{BehaviorVersion, ConfigBag, Intercept, Region, RuntimeComponents};
use eltbench_s3::{Credentials, S3Server};

pub const REGION: &str = "us-west-2";
pub const ACCESS_KEY: &str = "test";
pub const SECRET_KEY: &str = "test";

pub async fn start(root: &Path) -> S3Server {
    let creds = Credentials::new(ACCESS_KEY, SECRET_KEY);
    S3Server::start("127.0.0.1:0".parse().unwrap(), root, creds, REGION)
        .await
        .unwrap()
}

/// How a client addresses buckets.
#[derive(Debug, Clone, Copy)]
pub enum Style {
    /// `http://127.0.0.1:PORT/bucket/key`
    Path,
    /// `http://bucket.localhost:PORT/key`
    VirtualHost,
}

/// A client signing with `access_key`/`secret_key`; for virtual-host style the returned
/// log records every Host header sent.
pub fn client(
    server: &S3Server,
    style: Style,
    access_key: &str,
    secret_key: &str,
) -> (aws_sdk_s3::Client, HostLog) {
    let creds =
        aws_sdk_s3::config::Credentials::new(access_key, secret_key, None, None, "eltbench-test");
    let hosts = HostLog::default();
    let builder = aws_sdk_s3::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new(REGION))
        .credentials_provider(creds)
        .http_client(aws_smithy_http_client::Builder::new().build_http())
        .retry_config(aws_sdk_s3::config::retry::RetryConfig::disabled());
    let builder = match style {
        Style::Path => builder
            .endpoint_url(server.endpoint_url())
            .force_path_style(true),
        Style::VirtualHost => builder
            .endpoint_url(format!("http://localhost:{}", server.addr().port()))
            .force_path_style(false)
            .interceptor(ToLoopback {
                hosts: hosts.clone(),
            }),
    };
    (aws_sdk_s3::Client::from_conf(builder.build()), hosts)
}

/// Host headers sent by a virtual-host-style client.
#[derive(Debug, Clone, Default)]
pub struct HostLog(Arc<Mutex<Vec<String>>>);

impl HostLog {
    pub fn hosts(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

/// `*.localhost` does not resolve on every machine: after signing, send the request to
/// 127.0.0.1 with the signed `Host: bucket.localhost:PORT` header kept.
#[derive(Debug)]
struct ToLoopback {
    hosts: HostLog,
}

impl Intercept for ToLoopback {
    fn name(&self) -> &'static str {
        "ToLoopback"
    }

    fn modify_before_transmit(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let request = context.request_mut();
        let uri = request.uri().to_owned();
        let rest = uri
            .strip_prefix("http://")
            .ok_or("expected an http:// endpoint")?;
        let end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, path) = rest.split_at(end);
        let port = authority
            .rsplit_once(':')
            .map(|(_, p)| p)
            .ok_or("expected a port")?;
        self.hosts.0.lock().unwrap().push(authority.to_owned());
        request.headers_mut().insert("host", authority.to_owned());
        request.set_uri(format!("http://127.0.0.1:{port}{path}"))?;
        Ok(())
    }
}

/// The repository root (through any symlink to this crate).
pub fn repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"))
        .canonicalize()
        .unwrap();
    manifest.join("../..").canonicalize().unwrap()
}

/// Hex MD5 of `bytes`, the ETag S3 gives a single-part upload.
pub fn md5_hex(bytes: &[u8]) -> String {
    use s3s::crypto::{Checksum, Md5};
    Md5::checksum(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
