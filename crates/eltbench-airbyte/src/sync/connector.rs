//! The seam every source kind implements: [`SourceConnector`] (`check`, `discover`,
//! `read`), the [`DiscoveredStream`] it reports, and the [`BatchSink`] it reads into.
//!
//! A connector reads one stream into typed Arrow batches whose schema is exactly
//! `request.schema.arrow_schema()`; it must never write to the warehouse nor keep
//! state between calls (cursor state comes in through the request).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use duckdb::arrow::record_batch::RecordBatch;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::error::ConnectorError;
use super::typing::StreamSchema;
use crate::enums::SyncMode;
use crate::executor::StreamInfo;

/// Every sync mode (for sources that support them all).
pub const ALL_MODES: &[SyncMode] = &[
    SyncMode::FullRefreshOverwrite,
    SyncMode::FullRefreshAppend,
    SyncMode::IncrementalAppend,
    SyncMode::IncrementalDedupedHistory,
];

/// One stream as a source's `discover` reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscoveredStream {
    pub name: String,
    pub namespace: Option<String>,
    /// The stream's JSON schema (`properties` in column order).
    pub json_schema: Value,
    pub sync_modes: Vec<SyncMode>,
    pub default_cursor: Vec<String>,
    pub source_defined_cursor: bool,
    pub primary_key: Vec<Vec<String>>,
}

impl DiscoveredStream {
    /// A stream with every sync mode, no cursor and no key.
    pub fn new(name: &str, namespace: Option<&str>, schema: &StreamSchema) -> Self {
        Self {
            name: name.to_owned(),
            namespace: namespace.map(str::to_owned),
            json_schema: schema.to_json_schema(),
            sync_modes: ALL_MODES.to_vec(),
            default_cursor: Vec::new(),
            source_defined_cursor: false,
            primary_key: Vec::new(),
        }
    }

    /// The stream's columns.
    pub fn schema(&self) -> StreamSchema {
        StreamSchema::from_json_schema(&self.json_schema)
    }

    /// `StreamProperties` as the API reports them.
    pub fn info(&self) -> StreamInfo {
        StreamInfo {
            name: self.name.clone(),
            namespace: self.namespace.clone(),
            sync_modes: self.sync_modes.clone(),
            default_cursor_field: self.default_cursor.clone(),
            source_defined_cursor_field: self.source_defined_cursor,
            source_defined_primary_key: self.primary_key.clone(),
            property_fields: self
                .schema()
                .columns
                .into_iter()
                .map(|c| vec![c.source_name])
                .collect(),
        }
    }
}

/// What one `read` call is asked for.
pub struct ReadRequest<'a> {
    pub config: &'a Value,
    pub stream: &'a DiscoveredStream,
    /// The columns to emit, in this order (the stream's, or the selected ones).
    pub schema: &'a StreamSchema,
    /// For incremental syncs: the cursor field and the last value synced. Connectors
    /// may use it to read less; the engine filters by it in any case.
    pub cursor: Option<(&'a str, &'a Value)>,
    pub cancel: CancellationToken,
}

/// Where a reader sends its batches; counts rows and bytes as they pass.
#[derive(Clone)]
pub struct BatchSink {
    sender: mpsc::Sender<RecordBatch>,
    cancel: CancellationToken,
    rows: Arc<AtomicU64>,
    bytes: Arc<AtomicU64>,
}

impl BatchSink {
    pub fn new(sender: mpsc::Sender<RecordBatch>, cancel: CancellationToken) -> Self {
        Self {
            sender,
            cancel,
            rows: Arc::default(),
            bytes: Arc::default(),
        }
    }

    /// Sends one batch; `bytes` is the size of the records as read from the source.
    pub async fn send(&self, batch: RecordBatch, bytes: u64) -> Result<(), ConnectorError> {
        self.check()?;
        let rows = batch.num_rows() as u64;
        if rows == 0 {
            return Ok(());
        }
        self.sender.send(batch).await.map_err(|_| {
            ConnectorError::Destination("The destination stopped accepting records".to_owned())
        })?;
        self.rows.fetch_add(rows, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        Ok(())
    }

    /// [`Self::send`] from a blocking thread (parsers run on one).
    pub fn send_blocking(&self, batch: RecordBatch, bytes: u64) -> Result<(), ConnectorError> {
        self.check()?;
        let rows = batch.num_rows() as u64;
        if rows == 0 {
            return Ok(());
        }
        self.sender.blocking_send(batch).map_err(|_| {
            ConnectorError::Destination("The destination stopped accepting records".to_owned())
        })?;
        self.rows.fetch_add(rows, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        Ok(())
    }

    /// Fails with [`ConnectorError::Cancelled`] once the job is cancelled.
    pub fn check(&self) -> Result<(), ConnectorError> {
        if self.cancel.is_cancelled() {
            Err(ConnectorError::Cancelled)
        } else {
            Ok(())
        }
    }

    /// `(rows, bytes)` sent so far.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.rows.load(Ordering::Relaxed),
            self.bytes.load(Ordering::Relaxed),
        )
    }
}

/// A `SELECT` yielding a stream's staging rows (its columns, then `_ab_changes`)
/// that DuckDB runs itself, and the bytes it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeLoad {
    pub select: String,
    pub bytes: u64,
    /// A downloaded copy the `SELECT` reads, deleted once the load is dropped.
    pub download: Option<Arc<TempFile>>,
}

/// A file this process wrote under the temp directory; removed on drop.
#[derive(Debug, PartialEq, Eq)]
pub struct TempFile {
    pub path: std::path::PathBuf,
}

impl TempFile {
    /// Writes `bytes` to a new file named `eltbench-<uuid><suffix>` under the temp dir.
    pub fn write(bytes: &[u8], suffix: &str) -> std::io::Result<Self> {
        let name = format!("eltbench-{}{suffix}", uuid::Uuid::new_v4());
        let path = std::env::temp_dir().join(name);
        std::fs::write(&path, bytes)?;
        Ok(Self { path })
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// One source type (postgres, mongodb-v2, s3, file, the custom REST API...).
#[async_trait]
pub trait SourceConnector: Send + Sync {
    /// The `sourceType` this connector serves (`postgres`, `mongodb-v2`...).
    fn source_type(&self) -> &'static str;

    /// The Airbyte definition id of this connector.
    fn definition_id(&self) -> &'static str;

    /// Checks that the configuration reaches the source. By default: discovers.
    async fn check(&self, config: &Value) -> Result<(), ConnectorError> {
        self.discover(config).await.map(|_| ())
    }

    /// The streams the source offers, sorted by name.
    async fn discover(&self, config: &Value) -> Result<Vec<DiscoveredStream>, ConnectorError>;

    /// A load DuckDB can run itself in place of [`Self::read`] (a local CSV file
    /// whose columns are all strings); `None`: use `read`. When the load fails,
    /// `read` runs instead.
    async fn native_load(
        &self,
        _request: &ReadRequest<'_>,
    ) -> Result<Option<NativeLoad>, ConnectorError> {
        Ok(None)
    }

    /// Reads one stream into `sink`.
    async fn read(&self, request: ReadRequest<'_>, sink: &BatchSink) -> Result<(), ConnectorError>;
}
