//! The S3 calls of the S3 source (ListObjectsV2, GetObject) through aws-sdk-s3, with
//! S3's error codes turned into Airbyte-like messages naming the bucket and key.

use std::time::Duration;

use aws_sdk_s3::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_s3::error::{ProvideErrorMetadata, SdkError};
use bytes::Bytes;
use serde_json::Value;

use super::super::{optional_str, required_str};
use crate::sync::error::ConnectorError;

/// One listed object.
#[derive(Debug, Clone)]
pub struct Object {
    pub key: String,
    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`, as the CDK writes `_ab_source_file_last_modified`.
    pub last_modified: String,
}

/// A bucket on an endpoint.
pub struct Bucket {
    client: aws_sdk_s3::Client,
    name: String,
    endpoint: String,
}

impl Bucket {
    pub fn connect(config: &Value) -> Result<Self, ConnectorError> {
        let name = required_str(config, "bucket")?.to_owned();
        let endpoint = optional_str(config, "endpoint")
            .unwrap_or("")
            .trim_end_matches('/')
            .to_owned();
        let region = optional_str(config, "region_name")
            .unwrap_or("us-east-1")
            .to_owned();
        let credentials = Credentials::new(
            optional_str(config, "aws_access_key_id").unwrap_or_default(),
            optional_str(config, "aws_secret_access_key").unwrap_or_default(),
            None,
            None,
            "airbyte-source-s3",
        );
        let timeouts = aws_sdk_s3::config::timeout::TimeoutConfig::builder()
            .connect_timeout(Duration::from_secs(5))
            .build();
        let mut builder = aws_sdk_s3::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new(region))
            .credentials_provider(credentials)
            .http_client(aws_smithy_http_client::Builder::new().build_http())
            .timeout_config(timeouts)
            .retry_config(aws_sdk_s3::config::retry::RetryConfig::standard().with_max_attempts(2))
            .force_path_style(true);
        if !endpoint.is_empty() {
            builder = builder.endpoint_url(&endpoint);
        }
        Ok(Self {
            client: aws_sdk_s3::Client::from_conf(builder.build()),
            name,
            endpoint,
        })
    }

    /// `s3://bucket/key`, for messages.
    pub fn url(&self, key: &str) -> String {
        format!("s3://{}/{key}", self.name)
    }

    /// Every object of the bucket.
    pub async fn list(&self) -> Result<Vec<Object>, ConnectorError> {
        let mut objects = Vec::new();
        let mut token = None;
        loop {
            let page = self
                .client
                .list_objects_v2()
                .bucket(&self.name)
                .set_continuation_token(token)
                .send()
                .await
                .map_err(|e| self.error(&format!("s3://{}", self.name), &e))?;
            for object in page.contents() {
                let Some(key) = object.key() else { continue };
                let last_modified = object
                    .last_modified()
                    .and_then(|t| t.fmt(aws_sdk_s3::primitives::DateTimeFormat::DateTime).ok())
                    .map(|t| cdk_timestamp(&t))
                    .unwrap_or_default();
                objects.push(Object {
                    key: key.to_owned(),
                    last_modified,
                });
            }
            token = page.next_continuation_token().map(str::to_owned);
            if token.is_none() {
                return Ok(objects);
            }
        }
    }

    /// The body of one object.
    pub async fn get(&self, key: &str) -> Result<Bytes, ConnectorError> {
        let url = self.url(key);
        let output = self
            .client
            .get_object()
            .bucket(&self.name)
            .key(key)
            .send()
            .await
            .map_err(|e| self.error(&url, &e))?;
        let body = output
            .body
            .collect()
            .await
            .map_err(|e| ConnectorError::Data(format!("Could not read {url}: {e}")))?;
        Ok(body.into_bytes())
    }

    fn error<E: ProvideErrorMetadata + std::error::Error + 'static, R: std::fmt::Debug>(
        &self,
        what: &str,
        error: &SdkError<E, R>,
    ) -> ConnectorError {
        let endpoint = if self.endpoint.is_empty() {
            "AWS S3"
        } else {
            &self.endpoint
        };
        match error {
            SdkError::DispatchFailure(_) | SdkError::TimeoutError(_) => {
                let detail = std::error::Error::source(error)
                    .map_or_else(|| error.to_string(), |s| format!("{s:?}"));
                ConnectorError::refused(endpoint, detail)
            }
            SdkError::ServiceError(service) => {
                let inner = service.err();
                let code = inner.code().unwrap_or("Unknown");
                let message = inner.message().unwrap_or_default();
                match code {
                    "NoSuchBucket" => ConnectorError::NotFound(format!(
                        "The bucket `{}` does not exist on {endpoint}",
                        self.name
                    )),
                    "NoSuchKey" => {
                        ConnectorError::NotFound(format!("The object {what} does not exist"))
                    }
                    "InvalidAccessKeyId" | "SignatureDoesNotMatch" | "AccessDenied" => {
                        ConnectorError::credentials(
                            &format!("S3 bucket `{}` on {endpoint}", self.name),
                            format!("{code}: {message}"),
                        )
                    }
                    _ => ConnectorError::Connection(format!(
                        "S3 request for {what} failed: {code}: {message}"
                    )),
                }
            }
            other => ConnectorError::Connection(format!("S3 request for {what} failed: {other}")),
        }
    }
}

/// `2024-01-02T03:04:05Z` → `2024-01-02T03:04:05.000000Z`.
fn cdk_timestamp(rfc3339: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(rfc3339)
        .map(|t| {
            t.with_timezone(&chrono::Utc)
                .format("%Y-%m-%dT%H:%M:%S%.6fZ")
                .to_string()
        })
        .unwrap_or_else(|_| rfc3339.to_owned())
}
