//! The two seams between the API and the extract-load engine.
//!
//! [`SyncExecutor`] does the work of a sync or reset job; [`SourceCatalog`] answers
//! which streams a source offers (for `GET /streams` and for validating a
//! connection's stream configuration). The API server owns job bookkeeping (status,
//! attempts, log, conflicts, cancellation); implementations of these traits own the
//! data and must never touch job state except through the [`LogSink`] they are given.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::enums::{JobType, SyncMode};
use crate::model::{Actor, ConfiguredStream, Connection};
use crate::store::Store;

/// Everything a job needs, as stored when the job was created.
#[derive(Debug, Clone)]
pub struct JobContext {
    pub job_id: i64,
    pub job_type: JobType,
    pub attempt: u32,
    pub source: Actor,
    pub destination: Actor,
    pub connection: Connection,
    /// The connection's streams with defaults (sync mode, cursor, primary key) resolved.
    pub streams: Vec<ConfiguredStream>,
    /// Cancelled when the job is cancelled through the API or the server stops.
    pub cancel: CancellationToken,
}

/// Counts one stream contributed to a job.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamStats {
    pub rows: u64,
    pub bytes: u64,
}

/// What a successful job reports (`rowsSynced`, `bytesSynced`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncStats {
    pub rows_synced: u64,
    pub bytes_synced: u64,
    pub streams: BTreeMap<String, StreamStats>,
}

impl SyncStats {
    /// Totals computed from per-stream counts.
    pub fn from_streams(streams: BTreeMap<String, StreamStats>) -> Self {
        let rows_synced = streams.values().map(|s| s.rows).sum();
        let bytes_synced = streams.values().map(|s| s.bytes).sum();
        Self {
            rows_synced,
            bytes_synced,
            streams,
        }
    }
}

/// Which side of a sync failed (Airbyte's `failureOrigin`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureOrigin {
    Source,
    Destination,
    Replication,
    Platform,
}

impl fmt::Display for FailureOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Source => "source",
            Self::Destination => "destination",
            Self::Replication => "replication",
            Self::Platform => "platform",
        })
    }
}

/// Why a job failed; the message goes into the job log verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncFailure {
    pub origin: FailureOrigin,
    pub message: String,
}

impl SyncFailure {
    pub fn source(message: impl Into<String>) -> Self {
        Self {
            origin: FailureOrigin::Source,
            message: message.into(),
        }
    }

    pub fn destination(message: impl Into<String>) -> Self {
        Self {
            origin: FailureOrigin::Destination,
            message: message.into(),
        }
    }

    pub fn platform(message: impl Into<String>) -> Self {
        Self {
            origin: FailureOrigin::Platform,
            message: message.into(),
        }
    }
}

impl fmt::Display for SyncFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} failure: {}", self.origin, self.message)
    }
}

impl std::error::Error for SyncFailure {}

/// Appends lines to one job's log, Airbyte-style: `<time> <component> > <message>`.
#[derive(Clone)]
pub struct LogSink {
    store: Store,
    job_id: i64,
}

impl LogSink {
    pub(crate) fn new(store: Store, job_id: i64) -> Self {
        Self { store, job_id }
    }

    /// Appends one line from `component` (`source`, `destination`, `replication-orchestrator`...).
    pub fn line(&self, component: &str, message: &str) {
        let stamp = crate::timefmt::log_stamp(crate::timefmt::now());
        let line = format!("{stamp} {component} > {message}");
        self.store.append_log(self.job_id, line);
    }

    pub fn platform(&self, message: &str) {
        self.line("platform", message);
    }

    pub fn source(&self, message: &str) {
        self.line("source", message);
    }

    pub fn destination(&self, message: &str) {
        self.line("destination", message);
    }

    pub fn orchestrator(&self, message: &str) {
        self.line("replication-orchestrator", message);
    }
}

impl fmt::Debug for LogSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LogSink")
            .field("job_id", &self.job_id)
            .finish()
    }
}

/// Does the work of sync and reset jobs (the sync engine implements this).
#[async_trait]
pub trait SyncExecutor: Send + Sync {
    /// Runs one job attempt. Cancellation: stop promptly once `job.cancel` fires; the
    /// server also stops polling the future then.
    async fn run(&self, job: JobContext, log: LogSink) -> Result<SyncStats, SyncFailure>;
}

/// One stream a source offers (`StreamProperties` on the wire).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamInfo {
    pub name: String,
    #[serde(default)]
    pub namespace: Option<String>,
    pub sync_modes: Vec<SyncMode>,
    #[serde(default)]
    pub default_cursor_field: Vec<String>,
    #[serde(default)]
    pub source_defined_cursor_field: bool,
    #[serde(default)]
    pub source_defined_primary_key: Vec<Vec<String>>,
    /// Top-level property paths (`[["id"], ["name"]]`).
    #[serde(default)]
    pub property_fields: Vec<Vec<String>>,
}

/// Why a source's streams could not be discovered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CatalogError {
    pub message: String,
}

impl CatalogError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

/// Discovers the streams of a source (Airbyte's `discover`).
#[async_trait]
pub trait SourceCatalog: Send + Sync {
    async fn streams(&self, source: &Actor) -> Result<Vec<StreamInfo>, CatalogError>;
}

/// Shared handles as the server keeps them.
pub type SharedExecutor = Arc<dyn SyncExecutor>;
pub type SharedCatalog = Arc<dyn SourceCatalog>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_total_the_streams() {
        let mut streams = BTreeMap::new();
        streams.insert("a".to_owned(), StreamStats { rows: 3, bytes: 30 });
        streams.insert("b".to_owned(), StreamStats { rows: 4, bytes: 12 });
        let stats = SyncStats::from_streams(streams);
        assert_eq!((stats.rows_synced, stats.bytes_synced), (7, 42));
    }

    #[test]
    fn failure_display_names_the_origin() {
        let failure = SyncFailure::source("connection refused");
        assert_eq!(failure.to_string(), "source failure: connection refused");
    }
}
