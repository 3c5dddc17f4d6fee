//! Peer benchmark of the extract-load path (run by `scripts/bench-el`): the same
//! generated data loaded into DuckDB by eltbench's sync engine (through the Airbyte
//! API, job start to `succeeded`), dlt, sling and DuckDB's own readers, from a
//! PostgreSQL table and CSV, JSONL and Parquet files. Prints seconds, rows/s and the
//! ratio to eltbench, checks that every target holds the same row count, and writes
//! `results.json`. Each load runs `--repeat` times (default 3); the median counts.
//! Peers run through `scripts/bench_el_peers.py` in the Python given by `--python`;
//! a peer that cannot run is reported, not hidden.

// A report binary: its table goes to stdout.
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use eltbench_airbyte::{AirbyteServer, SyncEngine, SyncEngineOptions};
use eltbench_sources::{PgCluster, PgClusterOptions};
use reqwest::blocking::Client;
use serde_json::{Value, json};

const INPUTS: &[&str] = &["postgres", "csv", "jsonl", "parquet"];
const PEERS: &[&str] = &["dlt", "sling", "duckdb", "duckdb-v2"];
const PG_PASSWORD: &str = "bench";

type Result<T> = std::result::Result<T, String>;
/// `(input, tool) → (seconds, rows)` or why the load failed.
type Results = BTreeMap<(String, String), Result<(f64, u64)>>;

struct Options {
    rows: u64,
    dir: PathBuf,
    python: Option<PathBuf>,
    script: PathBuf,
    tools: Vec<String>,
    inputs: Vec<String>,
    /// Loads per input and tool; the table shows the median.
    repeat: usize,
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    Options {
        rows: get("--rows")
            .and_then(|r| r.parse().ok())
            .unwrap_or(2_000_000),
        dir: get("--dir").map_or_else(|| root.join("target/bench-el"), PathBuf::from),
        python: get("--python").map(PathBuf::from),
        script: root.join("scripts/bench_el_peers.py"),
        tools: get("--tools").map_or_else(
            || {
                std::iter::once("eltbench")
                    .chain(PEERS.iter().copied())
                    .map(str::to_owned)
                    .collect()
            },
            |t| t.split(',').map(str::to_owned).collect(),
        ),
        repeat: get("--repeat")
            .and_then(|r| r.parse().ok())
            .filter(|r| *r > 0)
            .unwrap_or(3),
        inputs: get("--inputs").map_or_else(
            || INPUTS.iter().map(|i| (*i).to_owned()).collect(),
            |t| t.split(',').map(str::to_owned).collect(),
        ),
    }
}

/// The generated table, the same for every input: ints, floats, strings, timestamps.
fn select_sql(rows: u64) -> String {
    format!(
        "SELECT i AS id, 'user_' || (i % 50000) AS user_name, \
           round((i * 7919 % 100000) / 100.0, 2) AS amount, \
           ['click','view','buy','refund'][1 + i % 4] AS kind, \
           TIMESTAMP '2024-01-01' + to_seconds(i * 13) AS created_at, \
           (i % 3 = 0) AS flagged, \
           'note ' || i || CASE WHEN i % 10 = 0 THEN ', with a comma' ELSE '' END AS note \
         FROM range({rows}) t(i)"
    )
}

fn generate(dir: &Path, rows: u64) -> Result<BTreeMap<&'static str, PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let conn = duckdb::Connection::open_in_memory().map_err(|e| e.to_string())?;
    let select = select_sql(rows);
    let mut files = BTreeMap::new();
    for (input, ext, options) in [
        ("csv", "csv", "FORMAT csv, HEADER"),
        ("jsonl", "jsonl", "FORMAT json"),
        ("parquet", "parquet", "FORMAT parquet"),
    ] {
        let path = dir.join(format!("events.{ext}"));
        if !path.exists() {
            let sql = format!("COPY ({select}) TO '{}' ({options})", path.display());
            conn.execute_batch(&sql)
                .map_err(|e| format!("{sql}: {e}"))?;
        }
        files.insert(input, path);
    }
    Ok(files)
}

/// A private cluster with `bench.public.events` loaded from the CSV file.
fn postgres(dir: &Path, csv: &Path) -> Result<(PgCluster, String)> {
    let pg_dir = dir.join("pg");
    let _ = std::fs::remove_dir_all(&pg_dir);
    let cluster = PgCluster::start(&pg_dir, PgClusterOptions::default())
        .map_err(|e| format!("PostgreSQL: {e}"))?;
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let bytes = std::fs::read(csv).map_err(|e| e.to_string())?;
    runtime.block_on(async {
        cluster
            .create_database("bench")
            .await
            .map_err(|e| e.to_string())?;
        cluster
            .create_role("bench", PG_PASSWORD, true)
            .await
            .map_err(|e| e.to_string())?;
        let client = cluster.connect("bench").await.map_err(|e| e.to_string())?;
        client
            .batch_execute(
                "CREATE TABLE events (id bigint PRIMARY KEY, user_name text, amount numeric(12,2), \
                 kind text, created_at timestamp, flagged boolean, note text)",
            )
            .await
            .map_err(|e| e.to_string())?;
        let sink = client
            .copy_in("COPY events FROM STDIN (FORMAT csv, HEADER)")
            .await
            .map_err(|e| e.to_string())?;
        futures_util::pin_mut!(sink);
        use futures_util::SinkExt;
        sink.send(bytes::Bytes::from(bytes))
            .await
            .map_err(|e| e.to_string())?;
        sink.finish().await.map_err(|e| e.to_string())?;
        client
            .batch_execute("VACUUM ANALYZE events")
            .await
            .map_err(|e| e.to_string())
    })?;
    let url = format!(
        "postgresql://bench:{PG_PASSWORD}@127.0.0.1:{}/bench",
        cluster.port()
    );
    Ok((cluster, url))
}

/// eltbench's engine behind its API server.
struct Eltbench {
    server: AirbyteServer,
    client: Client,
}

impl Eltbench {
    fn start() -> Result<Self> {
        let engine = Arc::new(SyncEngine::new(SyncEngineOptions::default())?);
        let bind: SocketAddr = "127.0.0.1:0".parse().map_err(|e| format!("{e}"))?;
        let server =
            AirbyteServer::start(bind, engine.airbyte_config()).map_err(|e| e.to_string())?;
        Ok(Self {
            server,
            client: Client::new(),
        })
    }

    fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Result<Value> {
        let url = format!("{}{path}", self.server.base_url());
        let mut request = self
            .client
            .request(method, &url)
            .basic_auth("airbyte", Some("password"));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().map_err(|e| e.to_string())?;
        let status = response.status();
        let body: Value = response.json().unwrap_or(Value::Null);
        if !status.is_success() {
            return Err(format!("{url}: {status} {body}"));
        }
        Ok(body)
    }

    fn source_config(input: &str, file: Option<&Path>, pg: &str, port: u16) -> Value {
        match (input, file) {
            ("postgres", _) | (_, None) => json!({
                "sourceType": "postgres", "host": "127.0.0.1", "port": port,
                "database": "bench", "username": "bench", "password": PG_PASSWORD,
                "schemas": ["public"], "ssl_mode": {"mode": "disable"}, "_url": pg}),
            (format, Some(path)) => json!({
                "sourceType": "file", "dataset_name": "events", "format": format,
                "url": path, "provider": {"storage": "local"}}),
        }
    }

    /// Seconds from `POST /jobs` to `succeeded`.
    fn load(&self, source: Value, target: &Path) -> Result<f64> {
        let post = |path: &str, body: Value| self.call(reqwest::Method::POST, path, Some(body));
        let workspace =
            self.call(reqwest::Method::GET, "/workspaces", None)?["data"][0]["workspaceId"].clone();
        let source_id = post(
            "/sources",
            json!({"name": "bench", "workspaceId": workspace, "configuration": source}),
        )?["sourceId"]
            .clone();
        let destination_id = post(
            "/destinations",
            json!({"name": "duck", "workspaceId": workspace, "configuration":
                {"destinationType": "duckdb", "destination_path": target, "schema": "bench"}}),
        )?["destinationId"]
            .clone();
        let connection = post(
            "/connections",
            json!({"sourceId": source_id, "destinationId": destination_id,
                   "configurations": {"streams": [{"name": "events", "syncMode": "full_refresh_overwrite"}]}}),
        )?["connectionId"]
            .clone();
        let started = Instant::now();
        let job = post(
            "/jobs",
            json!({"jobType": "sync", "connectionId": connection}),
        )?["jobId"]
            .as_i64()
            .ok_or("no jobId")?;
        loop {
            let status = self.call(reqwest::Method::GET, &format!("/jobs/{job}"), None)?;
            match status["status"].as_str().unwrap_or_default() {
                "succeeded" => {
                    let seconds = started.elapsed().as_secs_f64();
                    if std::env::args().any(|a| a == "--log") {
                        let log = self.server.job(job).map(|j| j.log).unwrap_or_default();
                        eprintln!("  {}", log.join("\n  "));
                    }
                    return Ok(seconds);
                }
                "failed" | "cancelled" => {
                    let log = self.server.job(job).map(|j| j.log.join("\n"));
                    return Err(format!("eltbench job {job}: {status} {log:?}"));
                }
                _ => std::thread::sleep(Duration::from_millis(10)),
            }
        }
    }
}

fn count(target: &Path) -> Result<u64> {
    let conn = duckdb::Connection::open(target).map_err(|e| e.to_string())?;
    conn.query_row("SELECT count(*) FROM bench.events", [], |r| {
        r.get::<_, i64>(0)
    })
    .map(|n| u64::try_from(n).unwrap_or(0))
    .map_err(|e| format!("{}: {e}", target.display()))
}

fn peer(
    opts: &Options,
    tool: &str,
    input: &str,
    target: &Path,
    file: Option<&Path>,
    pg: &str,
) -> Result<(f64, u64)> {
    let python = opts.python.as_ref().ok_or("no --python: peers skipped")?;
    let mut cmd = Command::new(python);
    cmd.arg(&opts.script)
        .args([tool, input])
        .arg(target)
        .args(["--pg", pg]);
    if let Some(file) = file {
        cmd.arg("--file").arg(file);
    }
    let output = cmd
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if !output.status.success() {
        let err = String::from_utf8_lossy(&output.stderr);
        let tail: String = err
            .lines()
            .rev()
            .take(6)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join(" | ");
        return Err(format!("{tool} failed: {tail}"));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    let reply: Value = serde_json::from_str(line).map_err(|e| format!("{tool}: {e}: {stdout}"))?;
    Ok((
        reply["seconds"].as_f64().unwrap_or(f64::NAN),
        reply["rows"].as_u64().unwrap_or(0),
    ))
}

fn main() {
    if let Err(e) = run() {
        eprintln!("el_peers: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let opts = options();
    if opts.python.is_none() {
        eprintln!(
            "el_peers: no --python: only eltbench runs (scripts/bench-el installs the peers)"
        );
    }
    eprintln!("generating {} rows in {}", opts.rows, opts.dir.display());
    let files = generate(&opts.dir, opts.rows)?;
    let (cluster, pg_url) = postgres(&opts.dir, &files["csv"])?;
    let eltbench = Eltbench::start()?;
    let mut results = Results::new();
    for input in INPUTS
        .iter()
        .filter(|i| opts.inputs.iter().any(|x| x == *i))
    {
        let file = files.get(input).map(PathBuf::as_path);
        for tool in &opts.tools {
            let target = opts.dir.join(format!("{tool}_{input}.duckdb"));
            let mut runs = Vec::new();
            let mut outcome = Err("not run".to_owned());
            for run in 1..=opts.repeat {
                let _ = std::fs::remove_file(&target);
                let _ = std::fs::remove_file(opts.dir.join(format!("{tool}_{input}.duckdb.wal")));
                eprintln!("{input} with {tool} (run {run} of {})...", opts.repeat);
                outcome = if tool == "eltbench" {
                    let source = Eltbench::source_config(input, file, &pg_url, cluster.port());
                    eltbench
                        .load(source, &target)
                        .and_then(|s| count(&target).map(|n| (s, n)))
                } else {
                    peer(&opts, tool, input, &target, file, &pg_url)
                };
                match &outcome {
                    Ok((seconds, _)) => runs.push(*seconds),
                    Err(e) => {
                        eprintln!("  {e}");
                        break;
                    }
                }
            }
            if let Ok((seconds, _)) = &mut outcome {
                runs.sort_by(f64::total_cmp);
                *seconds = runs[runs.len() / 2];
                eprintln!("  seconds: {runs:.2?}, median {seconds:.2}");
            }
            results.insert((input.to_string(), tool.clone()), outcome);
        }
    }
    print_table(&opts, &results);
    let json: Vec<Value> = results
        .iter()
        .map(|((input, tool), r)| match r {
            Ok((s, n)) => json!({"input": input, "tool": tool, "seconds": s, "rows": n}),
            Err(e) => json!({"input": input, "tool": tool, "error": e}),
        })
        .collect();
    let path = opts.dir.join("results.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&json).unwrap_or_default(),
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    let bad: Vec<String> = results
        .iter()
        .filter_map(|((input, tool), r)| match r {
            Ok((_, n)) if *n != opts.rows => Some(format!("{input}/{tool}: {n} rows")),
            _ => None,
        })
        .collect();
    drop(cluster);
    if bad.is_empty() {
        println!("row counts: every target holds {} rows", opts.rows);
        Ok(())
    } else {
        Err(format!(
            "row counts differ from {}: {}",
            opts.rows,
            bad.join(", ")
        ))
    }
}

fn print_table(opts: &Options, results: &Results) {
    println!(
        "\n{} rows per input; seconds are the median of {} load(s); ratio = tool seconds / eltbench seconds (above 1: eltbench is faster)\n",
        opts.rows, opts.repeat
    );
    println!(
        "| input | tool | seconds | rows/s | ratio vs eltbench | rows |\n|---|---|---:|---:|---:|---:|"
    );
    for input in INPUTS {
        let base = results
            .get(&(input.to_string(), "eltbench".to_owned()))
            .and_then(|r| r.as_ref().ok())
            .map(|(s, _)| *s);
        for tool in &opts.tools {
            match results.get(&(input.to_string(), tool.clone())) {
                Some(Ok((s, n))) => {
                    let ratio = base.map_or_else(|| "-".to_owned(), |b| format!("{:.2}", s / b));
                    println!(
                        "| {input} | {tool} | {s:.2} | {:.0} | {ratio} | {n} |",
                        *n as f64 / s
                    );
                }
                Some(Err(e)) => println!("| {input} | {tool} | failed | - | - | {e} |"),
                None => {}
            }
        }
    }
}
