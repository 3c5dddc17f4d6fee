//! Test-only: the native (DuckDB) readers against the Rust readers on the same bytes,
//! compared as inferred schemas and as staged rows (every value and `_ab_changes`).

use std::path::Path;

use bytes::Bytes;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::{CsvOptions, FileFormat, json_native};
use crate::sync::connector::BatchSink;
use crate::sync::destination::Staging;
use crate::sync::typing::StreamSchema;

fn rows(staging: &Staging, stage: &str, schema: &StreamSchema) -> Vec<String> {
    let mut columns: Vec<String> = schema
        .columns
        .iter()
        .map(|c| format!("coalesce(CAST(\"{}\" AS VARCHAR), '<null>')", c.name))
        .collect();
    columns.push("coalesce(_ab_changes, '<none>')".to_owned());
    let sql = format!(
        "SELECT string_agg(row, chr(30) ORDER BY row) FROM (SELECT concat_ws(' | ', {}) AS row FROM {stage})",
        columns.join(", ")
    );
    staging
        .query_text(&sql)
        .unwrap()
        .unwrap_or_default()
        .split('\u{1e}')
        .map(str::to_owned)
        .collect()
}

/// Staged rows from the Rust reader.
fn parsed(format: &FileFormat, bytes: &Bytes, schema: &StreamSchema) -> Vec<String> {
    let mut staging = Staging::new().unwrap();
    let stage = staging.create(schema).unwrap();
    let (sender, receiver) = mpsc::channel(1024);
    let sink = BatchSink::new(sender, CancellationToken::new());
    format.read(bytes, "t", schema, &[], &sink).unwrap();
    drop(sink);
    staging.consume(&stage, receiver).unwrap();
    rows(&staging, &stage, schema)
}

/// Staged rows from a native `SELECT`, or `None` when DuckDB refused the file.
fn native(select: &str, schema: &StreamSchema) -> Option<Vec<String>> {
    let mut staging = Staging::new().unwrap();
    let stage = staging.create(schema).unwrap();
    staging.insert_select(&stage, select).ok()?;
    Some(rows(&staging, &stage, schema))
}

fn write(dir: &Path, name: &str, text: &str) -> (std::path::PathBuf, Bytes) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    (path, Bytes::from(text.to_owned()))
}

/// Asserts both JSON Lines readers agree; returns whether DuckDB took the file.
fn jsonl_agrees(text: &str) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = write(dir.path(), "t.jsonl", text);
    let Ok(schema) = FileFormat::Jsonl.infer(&bytes, "t") else {
        assert!(json_native::infer(&path).is_none(), "{text}");
        return false;
    };
    if let Some(native_schema) = json_native::infer(&path) {
        assert_eq!(native_schema, schema, "{text}");
    }
    let Some(select) = json_native::select_sql(&path, &schema) else {
        return false;
    };
    match native(&select, &schema) {
        Some(rows) => {
            assert_eq!(rows, parsed(&FileFormat::Jsonl, &bytes, &schema), "{text}");
            true
        }
        None => false,
    }
}

#[test]
fn jsonl_readers_agree_on_tricky_values() {
    let taken = [
        "{\"id\":1,\"s\":\"a \\\"q\\\" \\u00e9\\n\\t\u{1f600}\",\"n\":12.34,\"b\":true,\"m\":\"x\"}\r\n\n{\"n\":5,\"id\":2,\"s\":null,\"m\":7,\"b\":false}\n  \n{\"id\":-3,\"m\":true,\"late\":\"z\",\"n\":-0.5}\n{\"id\":4,\"m\":-12,\"n\":100,\"s\":\"\"}\n",
        "{\"big\":1}\n{\"big\":9223372036854775807}\n{\"big\":9223372036854775808}\n{\"big\":-9223372036854775808}\n",
        "{\"n\":0.1}\n{\"n\":123456789.123456}\n{\"n\":-0.000001}\n{\"n\":4.0}\n{\"n\":9007199254740993}\n",
        "{\"i\":1,\"it's\":\"k\",\"UPPER\":2}\n{\"i\":2.0,\"UPPER\":null}\n",
        "{\"a\":1}",
        "{\"s\":\"nul \\u0000 inside\",\"id\":1}\n",
        "{\"s\":\"a \\\"q\\\" \\u00e9\\n\\t\u{1f600}\",\"id\":1,\"ok\":true}\r\n{\"s\":null,\"ok\":false}\n{\"id\":-7,\"s\":\"\"}\n",
    ];
    for text in taken {
        assert!(jsonl_agrees(text), "DuckDB should take: {text}");
    }
    let refused = [
        "{\"a\":1,\"a\":\"dup\"}\n",
        "{\"a\":-0}\n{\"a\":1}\n",
        "{\"a\":1e3}\n",
        "{\"a\":0.30000000000000001}\n",
        "{\"a\":123456789012345678901}\n",
        "{\"a\":18446744073709551615}\n",
        "{\"a\":\"\\ud83d\\ude00\"}\n",
        "{\"a\":1.5,\"s\":\"x\"}\n{\"a\":2,\"s\":2.5}\n",
        "{\"o\":{\"k\":[1,2]}}\n",
        "[{\"a\":1},{\"a\":2}]",
        "{\"a\":\n1}\n",
    ];
    for text in refused {
        assert!(!jsonl_agrees(text), "DuckDB should refuse: {text}");
    }
}

#[test]
fn csv_readers_agree_on_tricky_values() {
    let dir = tempfile::tempdir().unwrap();
    let text = "id,Full Name,note\n1,\"a, b\",\"line1\nline2\"\n2,\"say \"\"hi\"\"\",NA\n3,\"N/A\",\n4,x,\n5,nan,\"\"\n6,  padded ,\"é\"\n";
    let (path, bytes) = write(dir.path(), "t.csv", text);
    let options = CsvOptions::for_file_source(&serde_json::json!({})).unwrap();
    let format = FileFormat::Csv(options.clone());
    let schema = format.infer(&bytes, "t").unwrap();
    assert_eq!(
        options.infer_head(text.as_bytes(), "t"),
        Some(schema.clone())
    );
    let names = options.header_names(text.as_bytes(), "t").unwrap();
    let select = super::native_csv_select(&options, &path, &names, &schema).unwrap();
    let rows = native(&select, &schema).unwrap();
    assert_eq!(rows, parsed(&format, &bytes, &schema));
    assert_eq!(rows.len(), 6);
}

/// Writes a Parquet file with DuckDB; returns its path and bytes.
fn parquet(dir: &Path, name: &str, select: &str) -> (std::path::PathBuf, Bytes) {
    let path = dir.join(name);
    let conn = duckdb::Connection::open_in_memory().unwrap();
    conn.execute_batch(&format!(
        "COPY ({select}) TO '{}' (FORMAT parquet)",
        path.display()
    ))
    .unwrap();
    let bytes = Bytes::from(std::fs::read(&path).unwrap());
    (path, bytes)
}

#[test]
fn parquet_readers_agree_on_exact_types() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = parquet(
        dir.path(),
        "t.parquet",
        "SELECT * FROM (VALUES \
           (CAST(-5 AS TINYINT), CAST(300 AS SMALLINT), CAST(-70000 AS INTEGER), CAST(9223372036854775807 AS BIGINT), \
            CAST(255 AS UTINYINT), CAST(65535 AS USMALLINT), CAST(4294967295 AS UINTEGER), CAST(0.1 AS FLOAT), \
            CAST(1e300 AS DOUBLE), true, 'é \"q\", x', DATE '2024-02-29', TIMESTAMP '2024-01-02 03:04:05.123456', \
            CAST(TIMESTAMP '1969-12-31 23:59:59.5' AS TIMESTAMP_MS), CAST(TIMESTAMP '2000-01-01 00:00:07' AS TIMESTAMP_S), \
            TIMESTAMPTZ '2024-05-06 07:08:09+02'), \
           (NULL, NULL, NULL, -9223372036854775808, NULL, NULL, NULL, CAST('NaN' AS FLOAT), CAST('-inf' AS DOUBLE), \
            NULL, NULL, NULL, NULL, NULL, NULL, NULL)) \
         AS t(i8, i16, \"I32\", i64, u8, u16, u32, f32, f64, b, s, d, ts, ts_ms, ts_s, tstz)",
    );
    let schema = FileFormat::Parquet.infer(&bytes, "t").unwrap();
    let select = super::parquet_native::select_sql(&path, &schema).expect("native");
    let rows = native(&select, &schema).unwrap();
    assert_eq!(rows, parsed(&FileFormat::Parquet, &bytes, &schema));
    assert_eq!(rows.len(), 2);
    // a column the file lacks (a stream schema from an older file) is null in both
    let mut wider = schema.clone();
    wider.columns.push(crate::sync::typing::ColumnSpec::new(
        "gone",
        crate::sync::typing::AirbyteType::Date,
    ));
    let select = super::parquet_native::select_sql(&path, &wider).unwrap();
    assert_eq!(
        native(&select, &wider).unwrap(),
        parsed(&FileFormat::Parquet, &bytes, &wider)
    );
    for (name, column) in [
        ("dec.parquet", "CAST(1.25 AS DECIMAL(10,2))"),
        ("u64.parquet", "CAST(18446744073709551615 AS UBIGINT)"),
        ("ns.parquet", "CAST(TIMESTAMP '2024-01-01' AS TIMESTAMP_NS)"),
        ("blob.parquet", "CAST('a' AS BLOB)"),
        ("list.parquet", "[1, 2]"),
    ] {
        let (path, bytes) = parquet(dir.path(), name, &format!("SELECT {column} AS c"));
        let schema = FileFormat::Parquet.infer(&bytes, name).unwrap();
        assert!(
            super::parquet_native::select_sql(&path, &schema).is_none(),
            "{column} should need the Rust reader"
        );
    }
}
