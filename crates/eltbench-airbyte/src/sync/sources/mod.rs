//! The built-in source connectors, one file per source type, plus the helpers they
//! share (configuration fields, HTTP fetches, running a parser on a blocking thread).
//!
//! Each connector is a client of its protocol and must work against any real server;
//! none may reach into eltbench's own server crates.

mod file;
mod http;
mod mongodb;
mod postgres;
mod rest;
mod s3;

use std::sync::Arc;

use serde_json::Value;

pub use file::FileConnector;
pub use mongodb::MongoDbConnector;
pub use postgres::PostgresConnector;
pub use rest::{RestApiConnector, RestDefaults, RestStream};
pub use s3::S3Connector;

use super::connector::SourceConnector;
use super::error::ConnectorError;

/// One instance of every built-in connector.
pub fn builtin() -> Vec<Arc<dyn SourceConnector>> {
    vec![
        Arc::new(PostgresConnector),
        Arc::new(MongoDbConnector),
        Arc::new(S3Connector),
        Arc::new(FileConnector),
        Arc::new(RestApiConnector::default()),
    ]
}

/// A required, non-empty string field.
pub(crate) fn required_str<'a>(config: &'a Value, field: &str) -> Result<&'a str, ConnectorError> {
    config
        .get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| ConnectorError::missing(field))
}

/// An optional, non-empty string field.
pub(crate) fn optional_str<'a>(config: &'a Value, field: &str) -> Option<&'a str> {
    config
        .get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// Runs a synchronous parser on a blocking thread.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ConnectorError> + Send + 'static,
) -> Result<T, ConnectorError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ConnectorError::Data(format!("The parser stopped: {e}")))?
}
