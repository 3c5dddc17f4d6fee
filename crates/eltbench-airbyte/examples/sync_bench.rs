//! Throughput of the sync engine against DuckDB's own readers, in the same run.
//!
//! Generates an N-row (default 2,000,000), 16-column CSV and Parquet file, loads each
//! into a DuckDB file through the Airbyte API + sync engine (file source, local path,
//! full_refresh_overwrite), then with DuckDB's `read_csv` / `read_parquet`, and prints
//! rows/s for both and their ratio.
//!
//! `cargo run --release -p eltbench-airbyte --example sync_bench -- [rows]`

#![allow(clippy::print_stdout)]

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use eltbench_airbyte::{AirbyteServer, SyncEngine, SyncEngineOptions};
use reqwest::blocking::Client;
use serde_json::{Value, json};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn generate(dir: &Path, rows: u64) -> Result<()> {
    let conn = duckdb::Connection::open_in_memory()?;
    let mut cols = Vec::new();
    for c in 0..16 {
        cols.push(match c % 4 {
            0 => format!("i * {c} AS c{c}"),
            1 => format!("i * 0.25 + {c} AS c{c}"),
            2 => format!("'name_' || (i % 1000) || '_{c}' AS c{c}"),
            _ => format!("DATE '2020-01-01' + CAST(i % 3000 AS INTEGER) AS c{c}"),
        });
    }
    let select = format!("SELECT {} FROM range({rows}) r(i)", cols.join(", "));
    conn.execute_batch(&format!(
        "COPY ({select}) TO '{}' (HEADER); COPY ({select}) TO '{}' (FORMAT parquet);",
        dir.join("bench.csv").display(),
        dir.join("bench.parquet").display()
    ))?;
    Ok(())
}

struct Api {
    client: Client,
    base: String,
}

impl Api {
    fn post(&self, path: &str, body: &Value) -> Result<Value> {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .basic_auth("airbyte", Some("password"))
            .json(body)
            .send()?;
        Ok(response.json()?)
    }

    fn get(&self, path: &str) -> Result<Value> {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .basic_auth("airbyte", Some("password"))
            .send()?;
        Ok(response.json()?)
    }

    fn id(value: &Value, field: &str) -> Result<String> {
        value[field]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("no {field} in {value}").into())
    }

    /// Creates a connection loading `file` (format `format`) into `db`; returns its id.
    fn connection(&self, file: &Path, format: &str, db: &Path) -> Result<String> {
        let workspace = self.get("/workspaces")?["data"][0]["workspaceId"].clone();
        let source = self.post(
            "/sources",
            &json!({"name": format, "workspaceId": workspace, "configuration": {
            "sourceType": "file", "dataset_name": "bench", "format": format,
            "url": file, "provider": {"storage": "local"}}}),
        )?;
        let dest = self.post(
            "/destinations",
            &json!({"name": "duck", "workspaceId": workspace, "configuration": {
            "destinationType": "duckdb", "destination_path": db, "schema": "airbyte_schema"}}),
        )?;
        let conn = self.post("/connections", &json!({
            "sourceId": Self::id(&source, "sourceId")?, "destinationId": Self::id(&dest, "destinationId")?,
            "configurations": {"streams": [{"name": "bench", "syncMode": "full_refresh_overwrite"}]}}))?;
        Self::id(&conn, "connectionId")
    }

    /// Runs one sync; returns its rowsSynced and wall time.
    fn sync(&self, connection: &str) -> Result<(u64, Duration)> {
        let start = Instant::now();
        let job = self.post(
            "/jobs",
            &json!({"jobType": "sync", "connectionId": connection}),
        )?;
        let id = job["jobId"].as_i64().ok_or("no jobId")?;
        loop {
            let job = self.get(&format!("/jobs/{id}"))?;
            match job["status"].as_str() {
                Some("succeeded") => {
                    return Ok((job["rowsSynced"].as_u64().unwrap_or(0), start.elapsed()));
                }
                Some("failed" | "cancelled") => {
                    return Err(format!("job {id} ended {}", job["status"]).into());
                }
                _ => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }
}

fn duckdb_load(file: &Path, reader: &str, db: &Path) -> Result<Duration> {
    let start = Instant::now();
    let conn = duckdb::Connection::open(db)?;
    conn.execute_batch(&format!(
        "CREATE SCHEMA IF NOT EXISTS airbyte_schema; CREATE OR REPLACE TABLE airbyte_schema.bench AS SELECT * FROM {reader}('{}')",
        file.display()
    ))?;
    drop(conn);
    Ok(start.elapsed())
}

fn rate(rows: u64, time: Duration) -> f64 {
    rows as f64 / time.as_secs_f64()
}

fn main() -> Result<()> {
    let rows: u64 = std::env::args()
        .nth(1)
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(2_000_000);
    let dir = tempfile::tempdir()?;
    println!("generating {rows} rows x 16 columns ...");
    generate(dir.path(), rows)?;
    let engine = Arc::new(SyncEngine::new(SyncEngineOptions::default())?);
    let bind: SocketAddr = "127.0.0.1:0".parse()?;
    let server = AirbyteServer::start(bind, engine.airbyte_config())?;
    let api = Api {
        client: Client::builder()
            .timeout(Duration::from_secs(600))
            .build()?,
        base: server.base_url(),
    };
    println!(
        "{:<8} {:>14} {:>14} {:>14} {:>8}",
        "format", "engine rows/s", "duckdb rows/s", "engine secs", "ratio"
    );
    for (format, reader) in [("csv", "read_csv"), ("parquet", "read_parquet")] {
        let file = dir.path().join(format!("bench.{format}"));
        let connection = api.connection(
            &file,
            format,
            &dir.path().join(format!("engine_{format}.duckdb")),
        )?;
        let (synced, engine_time) = api.sync(&connection)?;
        if synced != rows {
            return Err(format!("{format}: synced {synced} rows, expected {rows}").into());
        }
        let duck_time = duckdb_load(
            &file,
            reader,
            &dir.path().join(format!("duck_{format}.duckdb")),
        )?;
        let (engine_rate, duck_rate) = (rate(rows, engine_time), rate(rows, duck_time));
        println!(
            "{format:<8} {engine_rate:>14.0} {duck_rate:>14.0} {:>14.2} {:>7.2}x",
            engine_time.as_secs_f64(),
            duck_rate / engine_rate
        );
    }
    Ok(())
}
