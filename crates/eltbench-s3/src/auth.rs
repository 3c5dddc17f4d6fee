//! Static credentials: the one access key / secret key pair a task's S3 source is given
//! (ELT-Bench used LocalStack's `test`/`test`).
//!
//! Signature checking itself (SigV4, `SignatureDoesNotMatch`) is done by s3s with the
//! secret returned here; this module must never accept an access key it was not given.

use s3s::S3Result;
use s3s::auth::{S3Auth, SecretKey};

/// An access key / secret key pair.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub access_key: String,
    pub secret_key: String,
}

impl Credentials {
    pub fn new(access_key: impl Into<String>, secret_key: impl Into<String>) -> Self {
        Self {
            access_key: access_key.into(),
            secret_key: secret_key.into(),
        }
    }
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("access_key", &self.access_key)
            .field("secret_key", &"<redacted>")
            .finish()
    }
}

/// Answers s3s's secret-key look-ups from one [`Credentials`] pair.
#[derive(Debug)]
pub(crate) struct StaticAuth(pub Credentials);

#[async_trait::async_trait]
impl S3Auth for StaticAuth {
    async fn get_secret_key(&self, access_key: &str) -> S3Result<SecretKey> {
        if access_key == self.0.access_key {
            return Ok(SecretKey::from(self.0.secret_key.as_str()));
        }
        Err(s3s::s3_error!(
            InvalidAccessKeyId,
            "The AWS Access Key Id you provided does not exist in our records."
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn only_the_configured_key_is_known() {
        let auth = StaticAuth(Credentials::new("test", "s3cret"));
        assert_eq!(
            auth.get_secret_key("test").await.unwrap().expose(),
            "s3cret"
        );
        let err = auth.get_secret_key("other").await.unwrap_err();
        assert_eq!(err.code().as_str(), "InvalidAccessKeyId");
    }

    #[test]
    fn debug_hides_the_secret() {
        let shown = format!("{:?}", Credentials::new("test", "s3cret"));
        assert!(!shown.contains("s3cret"), "{shown}");
    }
}
