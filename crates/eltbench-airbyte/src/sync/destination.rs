//! The DuckDB destination: stages a sync's records in an in-memory DuckDB (Arrow
//! appender, never row-by-row INSERT), then opens the destination file only for the
//! commit, lands every stream in one transaction and closes it again, so dbt and the
//! scorer can open the file between syncs. A failed or cancelled sync rolls back:
//! no partial table is ever visible, and an overwritten table keeps its old rows.
//!
//! Configuration is destination-duckdb's: `destination_path` (a `.duckdb` file;
//! `/local/...` is resolved under the engine's local root as Airbyte resolves it
//! under `LOCAL_ROOT`) and `schema` (default `main`). This module must never read a
//! source.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use duckdb::Connection;
use duckdb::arrow::record_batch::RecordBatch;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::error::ConnectorError;
use super::modes::{StreamPlan, create_stage_sql};
use super::naming::{normalize_name, quote_ident, quote_literal};
use super::typing::StreamSchema;
use crate::enums::SyncMode;

/// Part of the failure message when another process holds the destination file.
pub const LOCK_MESSAGE: &str = "is locked by another process";

const ALIAS: &str = "airbyte_destination";

/// A DuckDB destination's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuckDbDestination {
    pub path: PathBuf,
    /// The default schema (normalised), `main` unless configured.
    pub schema: String,
}

impl DuckDbDestination {
    /// Reads `destination_path` and `schema` from a destination's configuration.
    pub fn from_config(config: &Value, local_root: Option<&Path>) -> Result<Self, ConnectorError> {
        let raw = config
            .get("destination_path")
            .and_then(Value::as_str)
            .filter(|p| !p.trim().is_empty())
            .ok_or_else(|| {
                ConnectorError::Destination(
                    "The configuration is missing the required field `destination_path`".to_owned(),
                )
            })?;
        if raw.starts_with("md:") {
            return Err(ConnectorError::Destination(format!(
                "MotherDuck databases ({raw}) are not available here: use a local .duckdb file"
            )));
        }
        let path = match (raw.strip_prefix("/local/"), local_root) {
            (Some(rest), Some(root)) => root.join(rest),
            _ => PathBuf::from(raw),
        };
        let schema = config
            .get("schema")
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .unwrap_or("main");
        Ok(Self {
            path,
            schema: normalize_name(schema),
        })
    }

    /// `"<alias>"."<schema>"."<table>"` as the commit connection names it.
    pub fn qualified(schema: &str, table: &str) -> String {
        format!(
            "{}.{}.{}",
            quote_ident(ALIAS),
            quote_ident(schema),
            quote_ident(table)
        )
    }

    /// Opens the file (retrying while another process holds its lock) as `ALIAS`.
    fn attach(&self, conn: &Connection, lock_wait: Duration) -> Result<(), ConnectorError> {
        if let Some(parent) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| {
                ConnectorError::Destination(format!("Could not create {}: {e}", parent.display()))
            })?;
        }
        let sql = format!(
            "ATTACH {} AS {}",
            quote_literal(&self.path.to_string_lossy()),
            quote_ident(ALIAS)
        );
        let deadline = Instant::now() + lock_wait;
        loop {
            match conn.execute_batch(&sql) {
                Ok(()) => return Ok(()),
                Err(e) if is_lock_error(&e) && Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(100));
                }
                Err(e) if is_lock_error(&e) => {
                    return Err(ConnectorError::Destination(format!(
                        "The DuckDB file {} {LOCK_MESSAGE} ({e}). Close the other connection (dbt, the DuckDB CLI, a notebook) and run the sync again.",
                        self.path.display()
                    )));
                }
                Err(e) => {
                    return Err(ConnectorError::Destination(format!(
                        "Could not open the DuckDB file {}: {e}",
                        self.path.display()
                    )));
                }
            }
        }
    }

    /// Runs `work` in one transaction on the attached file, then detaches.
    fn transaction<T>(
        &self,
        conn: &Connection,
        lock_wait: Duration,
        cancel: &CancellationToken,
        work: impl FnOnce(&Connection) -> Result<T, ConnectorError>,
    ) -> Result<T, ConnectorError> {
        self.attach(conn, lock_wait)?;
        let outcome = conn
            .execute_batch("BEGIN TRANSACTION")
            .map_err(|e| dest_err("BEGIN", &e))
            .and_then(|()| work(conn))
            .and_then(|value| {
                if cancel.is_cancelled() {
                    return Err(ConnectorError::Cancelled);
                }
                conn.execute_batch("COMMIT")
                    .map_err(|e| dest_err("COMMIT", &e))?;
                Ok(value)
            });
        if outcome.is_err() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        let detach = conn.execute_batch(&format!("DETACH {}", quote_ident(ALIAS)));
        let value = outcome?;
        detach.map_err(|e| dest_err("DETACH", &e))?;
        Ok(value)
    }

    /// Lands every stream (staged, or read by its native `SELECT`) in one
    /// transaction; returns rows written per plan.
    pub fn commit(
        &self,
        staging: &Staging,
        plans: &[StreamPlan],
        lock_wait: Duration,
        cancel: &CancellationToken,
    ) -> Result<Vec<u64>, CommitError> {
        let mut native = None;
        self.transaction(&staging.conn, lock_wait, cancel, |conn| {
            let mut rows = Vec::with_capacity(plans.len());
            for (i, plan) in plans.iter().enumerate() {
                match land(conn, plan) {
                    Ok(n) => rows.push(n),
                    Err(error) => {
                        native = plan.native.is_some().then_some(i);
                        return Err(error);
                    }
                }
            }
            Ok(rows)
        })
        .map_err(|error| CommitError { error, native })
    }

    /// Deletes every row of the given `(schema, table)`s that exist (reset / clear).
    pub fn clear(
        &self,
        tables: &[(String, String)],
        lock_wait: Duration,
    ) -> Result<Vec<String>, ConnectorError> {
        let conn = Connection::open_in_memory().map_err(|e| dest_err("open", &e))?;
        self.transaction(&conn, lock_wait, &CancellationToken::new(), |conn| {
            let mut cleared = Vec::new();
            for (schema, table) in tables {
                if table_exists(conn, schema, table)? {
                    let sql = format!("DELETE FROM {}", Self::qualified(schema, table));
                    conn.execute_batch(&sql).map_err(|e| dest_err(table, &e))?;
                    cleared.push(format!("{schema}.{table}"));
                }
            }
            Ok(cleared)
        })
    }
}

/// Why a commit failed; nothing of it reached the file.
#[derive(Debug)]
pub struct CommitError {
    pub error: ConnectorError,
    /// The plan whose native `SELECT` failed: its connector can read it instead.
    pub native: Option<usize>,
}

fn is_lock_error(error: &duckdb::Error) -> bool {
    error.to_string().contains("lock")
}

fn dest_err(what: &str, error: &duckdb::Error) -> ConnectorError {
    ConnectorError::Destination(format!("DuckDB failed on {what}: {error}"))
}

fn table_exists(conn: &Connection, schema: &str, table: &str) -> Result<bool, ConnectorError> {
    let count: i64 = conn
        .query_row(
            "SELECT count(*) FROM information_schema.tables WHERE table_catalog = ? AND table_schema = ? AND table_name = ?",
            [ALIAS, schema, table],
            |row| row.get(0),
        )
        .map_err(|e| dest_err(table, &e))?;
    Ok(count > 0)
}

fn existing_columns(conn: &Connection, plan: &StreamPlan) -> Result<Vec<String>, ConnectorError> {
    let err = |e: duckdb::Error| dest_err(&plan.target, &e);
    let mut stmt = conn
        .prepare("SELECT column_name FROM information_schema.columns WHERE table_catalog = ? AND table_schema = ? AND table_name = ?")
        .map_err(err)?;
    let rows = stmt
        .query_map([ALIAS, &plan.target_schema, &plan.target_table], |r| {
            r.get::<_, String>(0)
        })
        .map_err(err)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(err)
}

fn land(conn: &Connection, plan: &StreamPlan) -> Result<u64, ConnectorError> {
    let err = |e: duckdb::Error| dest_err(&plan.target, &e);
    let schema_sql = format!(
        "CREATE SCHEMA IF NOT EXISTS {}.{}",
        quote_ident(ALIAS),
        quote_ident(&plan.target_schema)
    );
    conn.execute_batch(&schema_sql).map_err(err)?;
    if plan.mode == SyncMode::FullRefreshOverwrite {
        conn.execute_batch(&plan.overwrite_sql()).map_err(err)?;
        let count: i64 = conn
            .query_row(&format!("SELECT count(*) FROM {}", plan.target), [], |r| {
                r.get(0)
            })
            .map_err(err)?;
        return Ok(u64::try_from(count).unwrap_or(0));
    }
    conn.execute_batch(&plan.create_if_missing_sql())
        .map_err(err)?;
    let existing = existing_columns(conn, plan)?;
    for column in &plan.schema.columns {
        if !existing.iter().any(|e| e == &column.name) {
            conn.execute_batch(&plan.add_column_sql(&column.name, column.airbyte_type))
                .map_err(err)?;
        }
    }
    let inserted = conn.execute(&plan.insert_sql(), []).map_err(err)?;
    if let Some(dedup) = plan.dedup_sql() {
        conn.execute_batch(&dedup).map_err(err)?;
    }
    Ok(inserted as u64)
}

/// A sync's staging area: an in-memory DuckDB with one table per stream.
pub struct Staging {
    conn: Connection,
    tables: usize,
}

impl Staging {
    pub fn new() -> Result<Self, ConnectorError> {
        let conn = Connection::open_in_memory().map_err(|e| dest_err("open staging", &e))?;
        Ok(Self { conn, tables: 0 })
    }

    /// Creates the next staging table for `schema`; returns its name.
    pub fn create(&mut self, schema: &StreamSchema) -> Result<String, ConnectorError> {
        let name = format!("stage_{}", self.tables);
        self.tables += 1;
        self.conn
            .execute_batch(&create_stage_sql(&name, schema))
            .map_err(|e| dest_err(&name, &e))?;
        Ok(name)
    }

    /// Appends every batch received into `stage` until the channel closes. On error
    /// the receiver is dropped, so the reader stops too.
    pub fn consume(
        &self,
        stage: &str,
        mut batches: mpsc::Receiver<RecordBatch>,
    ) -> Result<(), ConnectorError> {
        let mut appender = self.conn.appender(stage).map_err(|e| dest_err(stage, &e))?;
        while let Some(batch) = batches.blocking_recv() {
            appender
                .append_record_batch(batch)
                .map_err(|e| dest_err(stage, &e))?;
        }
        appender.flush().map_err(|e| dest_err(stage, &e))
    }

    /// Fills `stage` from a native load's `SELECT` (one statement: all rows or none).
    pub fn insert_select(&self, stage: &str, select: &str) -> Result<(), ConnectorError> {
        let sql = format!("INSERT INTO memory.main.{} {select}", quote_ident(stage));
        self.conn
            .execute_batch(&sql)
            .map_err(|e| dest_err(stage, &e))
    }

    /// Runs a one-value query on the staging database (text result).
    pub fn query_text(&self, sql: &str) -> Result<Option<String>, ConnectorError> {
        self.conn
            .query_row(sql, [], |r| r.get::<_, Option<String>>(0))
            .map_err(|e| dest_err("staging", &e))
    }
}

/// In-process write locks, one per destination file: two jobs of this process never
/// attach the same file at once (file locks only guard against other processes).
#[derive(Debug, Clone, Default)]
pub struct WriteLocks {
    locks: Arc<Mutex<BTreeMap<PathBuf, Arc<Mutex<()>>>>>,
}

impl WriteLocks {
    /// The lock of one file.
    pub fn of(&self, path: &Path) -> Arc<Mutex<()>> {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        match self.locks.lock() {
            Ok(mut all) => all.entry(key).or_default().clone(),
            Err(_) => Arc::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn configuration_follows_destination_duckdb() {
        let root = Path::new("/srv/airbyte_local");
        let dest = DuckDbDestination::from_config(
            &json!({"destination_path": "/local/address.duckdb", "schema": "AIRBYTE_SCHEMA"}),
            Some(root),
        )
        .unwrap();
        assert_eq!(dest.path, root.join("address.duckdb"));
        assert_eq!(dest.schema, "airbyte_schema");
        let default =
            DuckDbDestination::from_config(&json!({"destination_path": "/tmp/x.duckdb"}), None)
                .unwrap();
        assert_eq!(
            (default.path.to_str(), default.schema.as_str()),
            (Some("/tmp/x.duckdb"), "main")
        );
        assert!(DuckDbDestination::from_config(&json!({}), None).is_err());
        assert!(
            DuckDbDestination::from_config(&json!({"destination_path": "md:db"}), None).is_err()
        );
    }
}
