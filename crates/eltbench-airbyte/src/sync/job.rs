//! The steps of one job: discover, read each configured stream into staging, commit
//! all streams in one destination transaction, then save cursors; or clear the
//! connection's tables for reset / clear jobs.
//!
//! Every step checks the job's cancellation token; nothing reaches the destination
//! file before every stream has been read.

use std::collections::BTreeMap;

use tokio::sync::mpsc;

use super::connector::{BatchSink, DiscoveredStream, NativeLoad, ReadRequest, SourceConnector};
use super::destination::{CommitError, Staging};
use super::engine::SyncEngine;
use super::error::ConnectorError;
use super::modes::StreamPlan;
use super::naming::{normalize_name, target_schema, target_table};
use super::state::{ConnectionState, stream_key};
use crate::enums::{JobType, SyncMode};
use crate::executor::{JobContext, LogSink, StreamStats, SyncStats};
use crate::model::ConfiguredStream;

fn cancelled(job: &JobContext) -> Result<(), ConnectorError> {
    if job.cancel.is_cancelled() {
        Err(ConnectorError::Cancelled)
    } else {
        Ok(())
    }
}

/// A sync (or refresh) job.
pub async fn sync(
    engine: &SyncEngine,
    job: &JobContext,
    log: &LogSink,
) -> Result<SyncStats, ConnectorError> {
    let destination = engine.destination(&job.destination)?;
    let connector = engine.registry.resolve(&job.source)?;
    log.source(&format!(
        "Discovering the streams of {} source `{}`",
        connector.source_type(),
        job.source.name
    ));
    let discovered = connector.discover(&job.source.configuration).await?;
    let mut state = engine.state.connection(&job.connection.id);
    let mut staging = Staging::new()?;
    let mut plans = Vec::new();
    let mut streams = Vec::new();
    // Downloaded copies the commit's native reads need (each is deleted on drop).
    let mut downloads = Vec::new();
    let mut bytes = BTreeMap::new();
    for configured in &job.streams {
        cancelled(job)?;
        let stream = find_stream(&discovered, configured)?;
        let mut plan = plan(job, &destination.schema, stream, configured, &state)?;
        plan.stage = staging.create(&plan.schema)?;
        let (staged, read) = read_stream(connector.as_ref(), job, stream, &plan, staging).await?;
        staging = staged;
        let read_bytes = match read {
            Read::Staged { bytes, native } => {
                let how = if native { " (loaded by DuckDB)" } else { "" };
                log.source(&format!(
                    "Read {bytes} bytes from stream `{}` into staging{how}",
                    configured.name
                ));
                bytes
            }
            Read::Deferred(load) => {
                log.source(&format!(
                    "Stream `{}`: DuckDB will read its {} bytes in the commit",
                    configured.name, load.bytes
                ));
                plan.native = Some(load.select);
                downloads.push(load.download);
                load.bytes
            }
        };
        bytes.insert(configured.name.clone(), read_bytes);
        plans.push(plan);
        streams.push(stream);
    }
    cancelled(job)?;
    let cursors = new_cursors(&staging, &plans)?;
    log.destination(&format!(
        "Committing {} stream(s) to {} (schema `{}`)",
        plans.len(),
        destination.path.display(),
        destination.schema
    ));
    let (staging, rows) = loop {
        let outcome = commit(engine, job, destination.clone(), staging, plans.clone()).await?;
        staging = match outcome {
            (staged, Ok(rows)) => break (staged, rows),
            (staged, Err(failed)) => match failed.native {
                Some(i) if !job.cancel.is_cancelled() => {
                    log.destination(&format!(
                        "DuckDB could not read stream `{}` natively ({}); its connector reads it instead",
                        plans[i].stream, failed.error
                    ));
                    plans[i].native = None;
                    let staged =
                        read_with_connector(connector.as_ref(), job, streams[i], &plans[i], staged)
                            .await?;
                    staged.0
                }
                _ => return Err(failed.error),
            },
        };
    };
    drop(staging);
    drop(downloads);
    save_state(engine, job, log, &mut state, &plans, cursors);
    let mut streams = BTreeMap::new();
    for (plan, rows) in plans.iter().zip(rows) {
        let how = if plan.native.is_some() {
            " (loaded by DuckDB)"
        } else {
            ""
        };
        log.destination(&format!(
            "Stream `{}`: {rows} records written to {}.{} ({}){how}",
            plan.stream, plan.target_schema, plan.target_table, plan.mode
        ));
        let bytes = bytes.get(&plan.stream).copied().unwrap_or(0);
        streams.insert(plan.stream.clone(), StreamStats { rows, bytes });
    }
    Ok(SyncStats::from_streams(streams))
}

fn find_stream<'a>(
    discovered: &'a [DiscoveredStream],
    configured: &ConfiguredStream,
) -> Result<&'a DiscoveredStream, ConnectorError> {
    discovered
        .iter()
        .find(|s| {
            s.name == configured.name
                && (configured.namespace.is_none() || s.namespace == configured.namespace)
        })
        .or_else(|| discovered.iter().find(|s| s.name == configured.name))
        .ok_or_else(|| {
            ConnectorError::NotFound(format!(
                "Stream `{}` is no longer offered by the source (discovered: {})",
                configured.name,
                discovered
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

fn plan(
    job: &JobContext,
    dest_schema: &str,
    stream: &DiscoveredStream,
    configured: &ConfiguredStream,
    state: &ConnectionState,
) -> Result<StreamPlan, ConnectorError> {
    let full = stream.schema();
    let mode = if job.job_type == JobType::Refresh {
        SyncMode::FullRefreshOverwrite
    } else {
        configured.sync_mode
    };
    let schema = full.select(configured.selected_fields.as_deref());
    let previous = state
        .streams
        .get(&stream_key(stream.namespace.as_deref(), &stream.name))
        .cloned()
        .unwrap_or_default();
    let cursor = match configured.cursor_field.first() {
        Some(field) if mode.is_incremental() => {
            let position = schema.position(field).ok_or_else(|| {
                ConnectorError::Config(format!(
                    "Cursor field `{field}` is not a column of stream `{}`",
                    stream.name
                ))
            })?;
            let column = &schema.columns[position];
            Some((column.name.clone(), column.airbyte_type))
        }
        _ => None,
    };
    let target_schema = target_schema(&job.connection, dest_schema, stream.namespace.as_deref());
    let target_table = target_table(&job.connection, &stream.name);
    Ok(StreamPlan {
        stream: stream.name.clone(),
        stage: String::new(),
        native: None,
        target: super::destination::DuckDbDestination::qualified(&target_schema, &target_table),
        target_schema,
        target_table,
        cursor_state: if job.job_type == JobType::Refresh {
            None
        } else {
            previous.cursor.clone()
        },
        cursor,
        primary_key: configured
            .primary_key
            .iter()
            .filter_map(|path| path.first())
            .map(|k| normalize_name(k))
            .collect(),
        sync_id: job.job_id,
        generation: previous.generation + i64::from(mode == SyncMode::FullRefreshOverwrite),
        extracted_at: chrono::Utc::now().to_rfc3339(),
        schema,
        mode,
    })
}

/// How a stream was read.
enum Read {
    /// Into its staging table: the bytes read, and whether DuckDB loaded them.
    Staged { bytes: u64, native: bool },
    /// Not yet: the commit reads it with DuckDB (full refresh only).
    Deferred(NativeLoad),
}

fn request<'a>(
    job: &'a JobContext,
    stream: &'a DiscoveredStream,
    plan: &'a StreamPlan,
    cursor_value: &'a Option<serde_json::Value>,
) -> ReadRequest<'a> {
    let cursor_field = job
        .streams
        .iter()
        .find(|s| s.name == plan.stream)
        .and_then(|s| s.cursor_field.first());
    let cursor = match (cursor_field, cursor_value, plan.mode.is_incremental()) {
        (Some(field), Some(value), true) => Some((field.as_str(), value)),
        _ => None,
    };
    ReadRequest {
        config: &job.source.configuration,
        stream,
        schema: &plan.schema,
        cursor,
        cancel: job.cancel.clone(),
    }
}

/// Reads one stream: deferred to the commit when DuckDB can load it natively and no
/// cursor is needed, else into its staging table.
async fn read_stream(
    connector: &dyn SourceConnector,
    job: &JobContext,
    stream: &DiscoveredStream,
    plan: &StreamPlan,
    staging: Staging,
) -> Result<(Staging, Read), ConnectorError> {
    let cursor_value = plan.cursor_state.clone().map(serde_json::Value::String);
    let staging = match connector
        .native_load(&request(job, stream, plan, &cursor_value))
        .await?
    {
        Some(native) if !plan.mode.is_incremental() => {
            return Ok((staging, Read::Deferred(native)));
        }
        Some(native) => match load_natively(staging, &plan.stage, native).await? {
            (staging, Some(bytes)) => {
                return Ok((
                    staging,
                    Read::Staged {
                        bytes,
                        native: true,
                    },
                ));
            }
            (staging, None) => staging,
        },
        None => staging,
    };
    let (staging, bytes) = read_with_connector(connector, job, stream, plan, staging).await?;
    Ok((
        staging,
        Read::Staged {
            bytes,
            native: false,
        },
    ))
}

/// Reads one stream with its connector's own reader into its staging table.
async fn read_with_connector(
    connector: &dyn SourceConnector,
    job: &JobContext,
    stream: &DiscoveredStream,
    plan: &StreamPlan,
    staging: Staging,
) -> Result<(Staging, u64), ConnectorError> {
    let cursor_value = plan.cursor_state.clone().map(serde_json::Value::String);
    let (sender, receiver) = mpsc::channel(8);
    let sink = BatchSink::new(sender, job.cancel.clone());
    let stage = plan.stage.clone();
    let consumer = tokio::task::spawn_blocking(move || {
        let outcome = staging.consume(&stage, receiver);
        (staging, outcome)
    });
    let read = connector
        .read(request(job, stream, plan, &cursor_value), &sink)
        .await;
    let (_, read_bytes) = sink.counts();
    drop(sink);
    let (staging, consumed) = consumer
        .await
        .map_err(|e| ConnectorError::Destination(format!("The staging writer stopped: {e}")))?;
    consumed?;
    read?;
    Ok((staging, read_bytes))
}

/// Runs a native load into `stage`; the bytes read, or `None` when DuckDB refused
/// the data (nothing was staged: the connector's own reader runs instead).
async fn load_natively(
    staging: Staging,
    stage: &str,
    native: NativeLoad,
) -> Result<(Staging, Option<u64>), ConnectorError> {
    let stage = stage.to_owned();
    tokio::task::spawn_blocking(move || {
        let loaded = staging.insert_select(&stage, &native.select).is_ok();
        (staging, loaded.then_some(native.bytes))
    })
    .await
    .map_err(|e| ConnectorError::Destination(format!("The staging writer stopped: {e}")))
}

fn new_cursors(
    staging: &Staging,
    plans: &[StreamPlan],
) -> Result<Vec<Option<String>>, ConnectorError> {
    plans
        .iter()
        .map(|plan| match plan.max_cursor_sql() {
            Some(sql) if plan.mode.is_incremental() => staging.query_text(&sql),
            _ => Ok(None),
        })
        .collect()
}

/// One commit attempt: the staging area back, with the rows per plan or the failure.
async fn commit(
    engine: &SyncEngine,
    job: &JobContext,
    destination: super::destination::DuckDbDestination,
    staging: Staging,
    plans: Vec<StreamPlan>,
) -> Result<(Staging, Result<Vec<u64>, CommitError>), ConnectorError> {
    let lock = engine.locks.of(&destination.path);
    let lock_wait = engine.options.lock_wait;
    let cancel = job.cancel.clone();
    tokio::task::spawn_blocking(move || {
        let _guard = lock.lock();
        let rows = destination.commit(&staging, &plans, lock_wait, &cancel);
        (staging, rows)
    })
    .await
    .map_err(|e| ConnectorError::Destination(format!("The commit stopped: {e}")))
}

fn save_state(
    engine: &SyncEngine,
    job: &JobContext,
    log: &LogSink,
    state: &mut ConnectionState,
    plans: &[StreamPlan],
    cursors: Vec<Option<String>>,
) {
    for ((plan, cursor), configured) in plans.iter().zip(cursors).zip(&job.streams) {
        let key = stream_key(configured.namespace.as_deref(), &plan.stream);
        let entry = state.streams.entry(key).or_default();
        entry.generation = plan.generation;
        if job.job_type == JobType::Refresh {
            entry.cursor = None;
        }
        if let Some(cursor) = cursor {
            entry.cursor = Some(cursor);
        }
    }
    if let Some(problem) = engine.state.save(&job.connection.id, state.clone()) {
        log.platform(&problem);
    }
}

/// A reset or clear job: empties the connection's tables and forgets its cursors.
pub async fn clear(
    engine: &SyncEngine,
    job: &JobContext,
    log: &LogSink,
) -> Result<SyncStats, ConnectorError> {
    let destination = engine.destination(&job.destination)?;
    let tables: Vec<(String, String)> = job
        .streams
        .iter()
        .map(|s| {
            (
                target_schema(&job.connection, &destination.schema, s.namespace.as_deref()),
                target_table(&job.connection, &s.name),
            )
        })
        .collect();
    let lock = engine.locks.of(&destination.path);
    let lock_wait = engine.options.lock_wait;
    let cleared = tokio::task::spawn_blocking(move || {
        let _guard = lock.lock();
        destination.clear(&tables, lock_wait)
    })
    .await
    .map_err(|e| ConnectorError::Destination(format!("The clear stopped: {e}")))??;
    log.destination(&format!(
        "Cleared {} table(s): {}",
        cleared.len(),
        cleared.join(", ")
    ));
    let mut state = engine.state.connection(&job.connection.id);
    for stream in &job.streams {
        let entry = state
            .streams
            .entry(stream_key(stream.namespace.as_deref(), &stream.name))
            .or_default();
        entry.cursor = None;
        entry.generation += 1;
    }
    if let Some(problem) = engine.state.save(&job.connection.id, state) {
        log.platform(&problem);
    }
    Ok(SyncStats::default())
}
