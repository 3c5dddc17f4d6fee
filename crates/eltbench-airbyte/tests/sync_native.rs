//! The native (DuckDB) file paths end to end: the same file is loaded over HTTP (a
//! downloaded copy) and from local disk; the final tables must hold the same columns,
//! types, values and `_airbyte_meta.changes`, with the values the Rust reader gives
//! (`sync::formats::native_equality` compares the two readers row by row), and tricky
//! files must fall back to the parser.

mod sync_common;

use serde_json::{Value, json};
use sync_common::{Env, HttpFixture, Reply, columns, query};

fn stream(name: &str) -> Value {
    json!([{"name": name, "syncMode": "full_refresh_overwrite"}])
}

struct Loaded {
    columns: Vec<String>,
    rows: Vec<Vec<String>>,
    by_duckdb: bool,
}

/// Loads `bytes` as a `format` file source from `storage` (HTTPS or local).
fn load(env: &Env, http: &HttpFixture, bytes: &[u8], format: &str, storage: &str) -> Loaded {
    let n = env.dir.path().read_dir().map(|d| d.count()).unwrap_or(0);
    let stem = format!("{}_{n}", storage.to_lowercase());
    let url = if storage == "local" {
        let path = env.dir.path().join(format!("{stem}.{format}"));
        std::fs::write(&path, bytes).expect("write");
        path.to_string_lossy().into_owned()
    } else {
        let route = format!("/{stem}.{format}");
        http.set(&route, Reply::Body(bytes.to_vec()));
        http.url(&route)
    };
    let db = env.db_path(&stem);
    let source = env.source(
        json!({"sourceType": "file", "dataset_name": "t", "format": format, "url": url,
               "provider": {"storage": storage}}),
        None,
    );
    let dest = env.destination(&db, "airbyte_schema");
    let conn = env.connection(&source, &dest, stream("t"), json!({}));
    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "succeeded", "{log}");
    let columns = columns(&db, "airbyte_schema", "t");
    let names: Vec<String> = columns
        .iter()
        .filter_map(|c| c.split(' ').next())
        .filter(|c| !c.starts_with("_airbyte"))
        .map(|c| format!("CAST(\"{c}\" AS VARCHAR)"))
        .collect();
    let rows = query(
        &db,
        &format!(
            "SELECT {}, _airbyte_meta->>'changes', _airbyte_generation_id FROM {stem}.airbyte_schema.t ORDER BY ALL",
            names.join(", ")
        ),
    );
    Loaded {
        columns,
        rows,
        by_duckdb: log.contains("(loaded by DuckDB)"),
    }
}

/// Loads `bytes` both ways; returns (parsed, native) after checking they are equal.
fn both(env: &Env, http: &HttpFixture, bytes: &[u8], format: &str) -> (Loaded, Loaded) {
    let parsed = load(env, http, bytes, format, "HTTPS");
    let native = load(env, http, bytes, format, "local");
    assert_eq!(parsed.by_duckdb, native.by_duckdb, "both paths alike");
    assert_eq!(native.columns, parsed.columns, "column types");
    assert_eq!(native.rows, parsed.rows, "values");
    (parsed, native)
}

/// Varying key order, keys appearing late, missing keys and nulls, an int column
/// with one float (number), mixed values in a string column (numbers, booleans),
/// escapes and unicode, CRLF and blank lines, an unsigned integer that does not fit
/// BIGINT (NULL + a typecast change), an apostrophe in a key.
const TRICKY_JSONL: &str = "{\"id\":1,\"Name\":\"a \\\"q\\\" \\u00e9\\n\\t\u{1f600}\",\"amount\":12.34,\"ok\":true,\"mixed\":\"x\",\"big\":1}\r\n\
\n\
{\"amount\":5,\"id\":2,\"Name\":null,\"mixed\":7,\"ok\":false,\"big\":9223372036854775807}\n\
  \n\
{\"id\":3,\"mixed\":true,\"late\":\"new\",\"it's\":-4,\"big\":9223372036854775808,\"amount\":-0.5}\n\
{\"id\":4,\"mixed\":-12,\"amount\":100,\"Name\":\"\",\"big\":null}\n";

#[test]
fn jsonl_loads_natively_with_the_parser_s_types_values_and_changes() {
    let http = HttpFixture::start();
    let env = Env::start();
    let (parsed, native) = both(&env, &http, TRICKY_JSONL.as_bytes(), "jsonl");
    assert!(native.by_duckdb, "the native path took the file");
    assert_eq!(
        parsed.columns[4..],
        [
            "id BIGINT",
            "name VARCHAR",
            "amount DOUBLE",
            "ok BOOLEAN",
            "mixed VARCHAR",
            "big BIGINT",
            "late VARCHAR",
            "it_s BIGINT"
        ]
    );
    let change = r#"[{"field":"big","change":"NULLED","reason":"DESTINATION_TYPECAST_ERROR"}]"#;
    let third = &parsed.rows[2];
    assert_eq!(third[0], "3");
    assert_eq!((third[4].as_str(), third[5].as_str()), ("true", "NULL"));
    assert_eq!(third[8], change);
    assert_eq!(parsed.rows[3][4], "-12");
    assert_eq!(parsed.rows[0][1], "a \"q\" \u{e9}\n\t\u{1f600}");
    assert_eq!(parsed.rows[0][8], "[]");
}

#[test]
fn json_that_serde_and_duckdb_could_read_differently_uses_the_parser() {
    let http = HttpFixture::start();
    let env = Env::start();
    for text in [
        "{\"id\":1,\"v\":1,\"v\":2}\n",
        "{\"id\":1,\"v\":-0}\n{\"id\":2,\"v\":1}\n",
        "{\"id\":1,\"v\":1e3}\n",
        "{\"id\":1,\"v\":0.30000000000000001}\n",
        "{\"id\":1,\"v\":{\"k\":[1,2]}}\n",
        "{\"id\":1,\"v\":1.5,\"s\":\"x\"}\n{\"id\":2,\"v\":2,\"s\":2.5}\n",
        "[{\"id\":1},{\"id\":2}]",
        "{\"id\":1,\"v\":\"\\ud83d\\ude00\"}\n",
    ] {
        let (_, native) = both(&env, &http, text.as_bytes(), "jsonl");
        assert!(!native.by_duckdb, "{text}");
    }
}

#[test]
fn a_large_local_csv_is_discovered_from_its_head() {
    let http = HttpFixture::start();
    let env = Env::start();
    let mut text = String::from("id,\"Full, Name\",note\n");
    for i in 0..60_000 {
        text.push_str(&format!("{i},\"n, {i}\",\"line\nbreak\"\n"));
    }
    let (parsed, native) = both(&env, &http, text.as_bytes(), "csv");
    assert!(native.by_duckdb);
    assert_eq!(parsed.rows.len(), 60_000);
}

#[test]
fn parquet_of_exact_types_loads_natively_with_the_parser_s_values() {
    let http = HttpFixture::start();
    let env = Env::start();
    let path = env.dir.path().join("written.parquet");
    let conn = duckdb::Connection::open_in_memory().expect("duckdb");
    conn.execute_batch(&format!(
        "COPY (SELECT i AS id, 'n ' || i AS \"Name\", i / 4 AS amount, i % 2 = 0 AS ok, \
           DATE '2024-01-01' + CAST(i AS INTEGER) AS day, TIMESTAMP '2024-01-01 00:00:00.5' + to_seconds(i) AS at, \
           CASE WHEN i % 3 = 0 THEN NULL ELSE CAST(i AS INTEGER) END AS maybe \
         FROM range(5000) t(i)) TO '{}' (FORMAT parquet)",
        path.display()
    ))
    .expect("write parquet");
    let bytes = std::fs::read(&path).expect("read");
    let (parsed, native) = both(&env, &http, &bytes, "parquet");
    assert!(native.by_duckdb, "the native path took the file");
    assert_eq!(parsed.rows.len(), 5000);
    assert_eq!(
        parsed.columns[4..],
        [
            "id BIGINT",
            "name VARCHAR",
            "amount DOUBLE",
            "ok BOOLEAN",
            "day DATE",
            "at TIMESTAMP",
            "maybe BIGINT"
        ]
    );
    // a decimal column is not exact in DuckDB's reading: the parser loads the file
    conn.execute_batch(&format!(
        "COPY (SELECT 1 AS id, CAST(1.25 AS DECIMAL(10, 2)) AS price) TO '{}' (FORMAT parquet)",
        path.display()
    ))
    .expect("write parquet");
    let bytes = std::fs::read(&path).expect("read");
    let (_, native) = both(&env, &http, &bytes, "parquet");
    assert!(!native.by_duckdb);
}
