//! The file source end to end through the HTTP API: CSV, JSON Lines and Parquet over
//! HTTP and from local paths into DuckDB final tables, append vs overwrite, failures
//! (404, refused, locked destination), cancellation and reset.

mod sync_common;

use std::time::Duration;

use eltbench_airbyte::SyncEngineOptions;
use serde_json::{Value, json};
use sync_common::{Env, HttpFixture, Reply, columns, count, query, table_exists};

fn file_source(env: &Env, dataset: &str, format: &str, url: &str, storage: &str) -> String {
    env.source(
        json!({"sourceType": "file", "dataset_name": dataset, "format": format, "url": url,
               "provider": {"storage": storage}}),
        None,
    )
}

fn stream(name: &str, mode: &str) -> Value {
    json!([{"name": name, "syncMode": mode}])
}

const USERS_CSV: &[u8] = b"id,name,amount\n1,a,1.5\n2,,2\n3,c,NA\n";

#[test]
fn csv_over_http_lands_as_a_final_table_and_append_doubles_it() {
    let http = HttpFixture::start();
    http.set("/data/users.csv", Reply::Body(USERS_CSV.to_vec()));
    let env = Env::start();
    let db = env.db_path("shop");
    let source = file_source(&env, "users", "csv", &http.url("/data/users.csv"), "HTTPS");
    let dest = env.destination(&db, "airbyte_schema");
    let conn = env.connection(
        &source,
        &dest,
        stream("users", "full_refresh_append"),
        json!({}),
    );

    assert_eq!(env.sync_ok(&conn), 3);
    assert_eq!(
        columns(&db, "airbyte_schema", "users"),
        [
            "_airbyte_raw_id UUID",
            "_airbyte_extracted_at TIMESTAMP WITH TIME ZONE",
            "_airbyte_meta JSON",
            "_airbyte_generation_id BIGINT",
            "id VARCHAR",
            "name VARCHAR",
            "amount VARCHAR",
        ]
    );
    let rows = query(
        &db,
        "SELECT id, name, amount, _airbyte_meta->>'changes' FROM shop.airbyte_schema.users ORDER BY id",
    );
    assert_eq!(rows[0], ["1", "a", "1.5", "[]"]);
    assert_eq!(
        rows[1][1], "NULL",
        "an empty CSV field is null, as pandas reads it"
    );
    assert_eq!(rows[2][2], "NULL", "NA is null, as pandas reads it");

    assert_eq!(env.sync_ok(&conn), 3);
    assert_eq!(
        count(&db, "shop.airbyte_schema.users"),
        6,
        "full_refresh_append twice doubles the rows"
    );
    let raw_ids = query(
        &db,
        "SELECT CAST(count(DISTINCT _airbyte_raw_id) AS VARCHAR) FROM airbyte_schema.users",
    );
    assert_eq!(raw_ids[0][0], "6");
}

#[test]
fn jsonl_columns_are_typed_from_their_values() {
    let http = HttpFixture::start();
    let body = b"{\"id\": 1, \"score\": 1.5, \"ok\": true, \"tags\": [\"a\"], \"name\": \"x\"}\n{\"id\": 2, \"score\": 2, \"ok\": false, \"tags\": [], \"name\": null}\n";
    http.set("/events.jsonl", Reply::Body(body.to_vec()));
    let env = Env::start();
    let db = env.db_path("events");
    let source = file_source(&env, "Events", "jsonl", &http.url("/events.jsonl"), "HTTPS");
    let dest = env.destination(&db, "main");
    let conn = env.connection(
        &source,
        &dest,
        stream("Events", "full_refresh_overwrite"),
        json!({}),
    );
    assert_eq!(env.sync_ok(&conn), 2);
    let cols = columns(&db, "main", "events");
    assert_eq!(
        &cols[4..],
        [
            "id BIGINT",
            "score DOUBLE",
            "ok BOOLEAN",
            "tags JSON",
            "name VARCHAR"
        ]
    );
    let rows = query(
        &db,
        "SELECT CAST(score AS VARCHAR), CAST(tags AS VARCHAR) FROM events ORDER BY id",
    );
    assert_eq!(rows, [["1.5", "[\"a\"]"], ["2.0", "[]"]]);
}

fn write_parquet(path: &std::path::Path) {
    let conn = duckdb::Connection::open_in_memory().expect("duckdb");
    conn.execute_batch(&format!(
        "COPY (SELECT CAST(i AS INTEGER) AS id, CAST(i * 1.5 AS DECIMAL(10, 2)) AS x, 'n' || i AS name, \
         DATE '2024-01-01' + CAST(i AS INTEGER) AS d, TIMESTAMP '2024-01-01 00:00:00' AS t \
         FROM range(5) r(i)) TO '{}' (FORMAT parquet)",
        path.display()
    ))
    .expect("parquet written");
}

#[test]
fn parquet_keeps_its_types() {
    let env = Env::start();
    let file = env.dir.path().join("facts.parquet");
    write_parquet(&file);
    let http = HttpFixture::start();
    http.set(
        "/facts.parquet",
        Reply::Body(std::fs::read(&file).expect("read")),
    );
    let db = env.db_path("facts");
    let source = file_source(
        &env,
        "facts",
        "parquet",
        &http.url("/facts.parquet"),
        "HTTPS",
    );
    let dest = env.destination(&db, "airbyte_schema");
    let conn = env.connection(
        &source,
        &dest,
        stream("facts", "full_refresh_overwrite"),
        json!({}),
    );
    assert_eq!(env.sync_ok(&conn), 5);
    assert_eq!(
        &columns(&db, "airbyte_schema", "facts")[4..],
        [
            "id BIGINT",
            "x DOUBLE",
            "name VARCHAR",
            "d DATE",
            "t TIMESTAMP"
        ]
    );
    let last = query(
        &db,
        "SELECT CAST(id AS VARCHAR), CAST(x AS VARCHAR), name, CAST(d AS VARCHAR) FROM airbyte_schema.facts ORDER BY id DESC LIMIT 1",
    );
    assert_eq!(last[0], ["4", "6.0", "n4", "2024-01-05"]);
}

#[test]
fn overwrite_replaces_a_local_file_table_and_bumps_the_generation() {
    let env = Env::start();
    let csv = env.dir.path().join("items.csv");
    std::fs::write(&csv, USERS_CSV).expect("write");
    let db = env.db_path("items");
    let source = file_source(
        &env,
        "items",
        "csv",
        csv.to_str().unwrap_or_default(),
        "local",
    );
    let dest = env.destination(&db, "airbyte_schema");
    let conn = env.connection(
        &source,
        &dest,
        stream("items", "full_refresh_overwrite"),
        json!({"prefix": "stg_"}),
    );
    assert_eq!(env.sync_ok(&conn), 3);
    std::fs::write(&csv, b"id,name,amount\n9,z,1\n8,y,2\n").expect("rewrite");
    assert_eq!(env.sync_ok(&conn), 2);
    let rows = query(
        &db,
        "SELECT id, CAST(_airbyte_generation_id AS VARCHAR) FROM airbyte_schema.stg_items ORDER BY id",
    );
    assert_eq!(rows, [["8", "2"], ["9", "2"]]);
}

#[test]
fn a_failed_overwrite_keeps_the_previous_table() {
    let http = HttpFixture::start();
    http.set("/users.csv", Reply::Body(USERS_CSV.to_vec()));
    let env = Env::start();
    let db = env.db_path("keep");
    let source = file_source(&env, "users", "csv", &http.url("/users.csv"), "HTTPS");
    let dest = env.destination(&db, "main");
    let conn = env.connection(
        &source,
        &dest,
        stream("users", "full_refresh_overwrite"),
        json!({}),
    );
    assert_eq!(env.sync_ok(&conn), 3);

    http.set("/users.csv", Reply::Status(404));
    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "failed");
    assert!(
        log.contains("Failure in source:") && log.contains("404 Not Found"),
        "{log}"
    );
    assert_eq!(count(&db, "main.users"), 3, "the old table is still there");

    http.set(
        "/users.csv",
        Reply::Body(b"id,name,amount\n1,a,1\n2,b,2,extra\n".to_vec()),
    );
    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "failed", "{log}");
    assert!(
        log.contains("line 3 has 4 fields, the header has 3"),
        "{log}"
    );
    assert_eq!(count(&db, "main.users"), 3);
}

#[test]
fn an_unreachable_url_fails_the_job_and_the_engine_keeps_running() {
    let http = HttpFixture::start();
    http.set("/users.csv", Reply::Body(USERS_CSV.to_vec()));
    let env = Env::start();
    let db = env.db_path("down");
    let source = file_source(&env, "users", "csv", &http.url("/users.csv"), "HTTPS");
    let dest = env.destination(&db, "main");
    let conn = env.connection(
        &source,
        &dest,
        stream("users", "full_refresh_append"),
        json!({}),
    );
    let local = env.dir.path().join("ok.csv");
    std::fs::write(&local, USERS_CSV).expect("write");
    let good_source = file_source(
        &env,
        "ok",
        "csv",
        local.to_str().unwrap_or_default(),
        "local",
    );
    let good = env.connection(
        &good_source,
        &dest,
        stream("ok", "full_refresh_append"),
        json!({}),
    );
    drop(http);

    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "failed");
    assert!(
        log.contains("Failure in source: Connection to http://127.0.0.1:"),
        "{log}"
    );
    assert!(log.contains("refused"), "{log}");
    assert_eq!(env.sync_ok(&good), 3, "the engine still runs other jobs");
}

#[test]
fn cancelling_a_sync_leaves_no_table() {
    let http = HttpFixture::start();
    http.set("/slow.csv", Reply::Body(USERS_CSV.to_vec()));
    let env = Env::start();
    let db = env.db_path("cancel");
    let source = file_source(&env, "slow", "csv", &http.url("/slow.csv"), "HTTPS");
    let dest = env.destination(&db, "main");
    let conn = env.connection(
        &source,
        &dest,
        stream("slow", "full_refresh_overwrite"),
        json!({}),
    );
    http.set(
        "/slow.csv",
        Reply::Slow(Duration::from_secs(2), USERS_CSV.to_vec()),
    );
    let id = env.start_job(&conn, "sync");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(env.delete(&format!("/jobs/{id}")), 200);
    assert_eq!(env.wait(id)["status"], "cancelled");
    std::thread::sleep(Duration::from_millis(2500));
    assert!(
        !table_exists(&db, "main", "slow"),
        "nothing was committed after the cancel"
    );
}

#[test]
fn reset_empties_the_connection_tables() {
    let env = Env::start();
    let csv = env.dir.path().join("r.csv");
    std::fs::write(&csv, USERS_CSV).expect("write");
    let db = env.db_path("reset");
    let source = file_source(&env, "r", "csv", csv.to_str().unwrap_or_default(), "local");
    let dest = env.destination(&db, "airbyte_schema");
    let conn = env.connection(
        &source,
        &dest,
        stream("r", "full_refresh_append"),
        json!({}),
    );
    env.sync_ok(&conn);
    let (status, _, log) = env.run(&conn, "reset");
    assert_eq!(status, "succeeded", "{log}");
    assert!(
        log.contains("Cleared 1 table(s): airbyte_schema.r"),
        "{log}"
    );
    assert_eq!(count(&db, "airbyte_schema.r"), 0);
}

fn python() -> std::path::PathBuf {
    let python = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python3");
    assert!(
        python.exists(),
        "{} is missing: run scripts/setup",
        python.display()
    );
    python
}

#[test]
fn a_destination_locked_by_another_process_fails_the_job_clearly() {
    let options = SyncEngineOptions {
        lock_wait: Duration::from_millis(300),
        ..SyncEngineOptions::default()
    };
    let env = Env::with_options(options);
    let csv = env.dir.path().join("l.csv");
    std::fs::write(&csv, USERS_CSV).expect("write");
    let db = env.db_path("locked");
    let source = file_source(&env, "l", "csv", csv.to_str().unwrap_or_default(), "local");
    let dest = env.destination(&db, "main");
    let conn = env.connection(
        &source,
        &dest,
        stream("l", "full_refresh_append"),
        json!({}),
    );
    env.sync_ok(&conn);

    let script = "import fcntl, sys, time\nf = open(sys.argv[1], 'r+b')\nfcntl.lockf(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(30)\n";
    let mut holder = std::process::Command::new(python())
        .args(["-c", script, db.to_str().unwrap_or_default()])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python starts");
    let mut line = String::new();
    let stdout = holder.stdout.take().expect("stdout");
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).expect("read");
    assert_eq!(line.trim(), "locked");

    let (status, _, log) = env.run(&conn, "sync");
    let _ = holder.kill();
    let _ = holder.wait();
    assert_eq!(status, "failed");
    assert!(
        log.contains("Failure in destination: The DuckDB file")
            && log.contains("is locked by another process"),
        "{log}"
    );
    assert_eq!(
        env.sync_ok(&conn),
        3,
        "the sync works again once the lock is gone"
    );
    assert_eq!(count(&db, "main.l"), 6);
}

/// Tricky CSV: quoted delimiters and newlines, doubled quotes, pandas NA strings
/// quoted and not, a short row, and a header with spaces.
const TRICKY_CSV: &[u8] = b"id,Full Name,note\n1,\"a, b\",\"line1\nline2\"\n2,\"say \"\"hi\"\"\",NA\n3,\"N/A\",\n4,x\n5,nan,\"\"\n";

/// Loads `bytes` as a CSV file source (over HTTP or from a local path; both use DuckDB's
/// `read_csv` when it accepts the file, the Rust parser otherwise) and returns every
/// row as text.
fn tricky_rows(
    env: &Env,
    bytes: &[u8],
    storage: &str,
    http: &HttpFixture,
) -> (Vec<Vec<String>>, bool) {
    let (url, stem) = if storage == "local" {
        let path = env.dir.path().join("tricky.csv");
        std::fs::write(&path, bytes).expect("write");
        (path.to_string_lossy().into_owned(), "native")
    } else {
        http.set("/tricky.csv", Reply::Body(bytes.to_vec()));
        (http.url("/tricky.csv"), "parsed")
    };
    let stem = format!("{stem}{}", bytes.len());
    let db = env.db_path(&stem);
    let source = file_source(env, "tricky", "csv", &url, storage);
    let dest = env.destination(&db, "airbyte_schema");
    let conn = env.connection(
        &source,
        &dest,
        stream("tricky", "full_refresh_overwrite"),
        json!({}),
    );
    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "succeeded", "{log}");
    let rows = query(
        &db,
        &format!(
            "SELECT id, full_name, note, _airbyte_meta->>'changes' FROM {stem}.airbyte_schema.tricky ORDER BY id"
        ),
    );
    (rows, log.contains("(loaded by DuckDB)"))
}

#[test]
fn a_local_csv_loads_the_same_values_as_the_parser_reads() {
    let http = HttpFixture::start();
    let env = Env::start();
    let (parsed, by_duckdb) = tricky_rows(&env, TRICKY_CSV, "HTTPS", &http);
    assert!(!by_duckdb);
    assert_eq!(parsed.len(), 5);
    assert_eq!(parsed[0], ["1", "a, b", "line1\nline2", "[]"]);
    assert_eq!(parsed[1], ["2", "say \"hi\"", "NULL", "[]"]);
    assert_eq!(parsed[2], ["3", "NULL", "NULL", "[]"]);
    assert_eq!(parsed[3], ["4", "x", "NULL", "[]"]);
    assert_eq!(parsed[4], ["5", "NULL", "NULL", "[]"]);
    // The short row 4 makes read_csv refuse the file: the parser loads it instead.
    let (fallback, by_duckdb) = tricky_rows(&env, TRICKY_CSV, "local", &http);
    assert!(!by_duckdb);
    assert_eq!(fallback, parsed);
    // Without it, DuckDB loads the file itself, with the same values.
    let full: Vec<u8> = String::from_utf8_lossy(TRICKY_CSV)
        .replace("4,x\n", "4,x,\n")
        .into_bytes();
    let (parsed, _) = tricky_rows(&env, &full, "HTTPS", &http);
    let (native, by_duckdb) = tricky_rows(&env, &full, "local", &http);
    assert!(by_duckdb);
    assert_eq!(native, parsed);
}
