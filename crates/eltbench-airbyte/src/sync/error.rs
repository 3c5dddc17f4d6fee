//! Why a check, discover, read or write failed, worded as Airbyte words it.
//!
//! Messages name the host, URL, bucket, file or table that failed; the engine prefixes
//! them with `Failure in source:` / `Failure in destination:` for the job log. This
//! module only classifies; it must never retry or log.

use crate::executor::{CatalogError, SyncFailure};

/// A connector or destination failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnectorError {
    /// The configuration is missing a field or has a bad value.
    #[error("{0}")]
    Config(String),
    /// The server could not be reached (refused, unknown host, timeout).
    #[error("{0}")]
    Connection(String),
    /// The server refused the credentials.
    #[error("{0}")]
    Credentials(String),
    /// A bucket, object, table, collection or URL does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The data could not be parsed.
    #[error("{0}")]
    Data(String),
    /// Writing to the warehouse failed.
    #[error("{0}")]
    Destination(String),
    /// The job was cancelled while this ran.
    #[error("The sync was cancelled")]
    Cancelled,
}

impl ConnectorError {
    /// A missing required configuration field.
    pub fn missing(field: &str) -> Self {
        Self::Config(format!(
            "The configuration is missing the required field `{field}`"
        ))
    }

    /// `Connection refused`-style failures, with Airbyte's hint.
    pub fn refused(target: &str, detail: impl std::fmt::Display) -> Self {
        Self::Connection(format!(
            "Connection to {target} refused ({detail}). Check that the hostname and port are correct and that the server is accepting connections."
        ))
    }

    /// Rejected credentials, with Airbyte's hint.
    pub fn credentials(target: &str, detail: impl std::fmt::Display) -> Self {
        Self::Credentials(format!(
            "Authentication to {target} failed ({detail}). Check that your credentials (username and password, or access keys) are correct."
        ))
    }

    /// Whether this came from the warehouse side.
    pub fn is_destination(&self) -> bool {
        matches!(self, Self::Destination(_))
    }

    /// The job failure, prefixed as Airbyte prefixes it.
    pub fn into_failure(self) -> SyncFailure {
        if self.is_destination() {
            SyncFailure::destination(format!("Failure in destination: {self}"))
        } else {
            SyncFailure::source(format!("Failure in source: {self}"))
        }
    }
}

impl From<ConnectorError> for CatalogError {
    fn from(error: ConnectorError) -> Self {
        CatalogError::new(error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::FailureOrigin;

    #[test]
    fn failures_are_prefixed_by_side() {
        let source = ConnectorError::refused("127.0.0.1:1", "os error 111").into_failure();
        assert_eq!(source.origin, FailureOrigin::Source);
        assert!(
            source
                .message
                .starts_with("Failure in source: Connection to 127.0.0.1:1 refused")
        );
        let dest = ConnectorError::Destination("locked".into()).into_failure();
        assert_eq!(dest.origin, FailureOrigin::Destination);
        assert_eq!(dest.message, "Failure in destination: locked");
    }

    #[test]
    fn credential_failures_say_what_to_check() {
        let error =
            ConnectorError::credentials("postgres at h:1", "password authentication failed");
        assert!(error.to_string().contains("Check that your credentials"));
    }
}
