//! The fast path for JSON Lines files on local disk. `json_scan` learns every key's
//! value kinds in one pass (serde's judgement, on all cores); then DuckDB's
//! `read_json` loads the file in one parallel scan. When every column held only
//! values of its own type, the columns are read typed, exactly as DuckDB reads them
//! itself; otherwise each key is read as `JSON` and cast as `records::Column::json`
//! casts it, with typecast failures listed in `_ab_changes`.
//!
//! Whatever DuckDB's JSON model and serde's could disagree on is refused before any
//! SQL runs (see `json_scan`), as are strings in typed columns and floats, objects
//! or arrays in string columns; the Rust reader then reads the file. A file scanned
//! at discovery and unchanged since (size, mtime) is not scanned again by the load.
//! This module builds SQL text; it never writes a table.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use serde_json::json;

use super::json_scan::{self, Kinds, Scan};
use crate::sync::naming::{quote_ident, quote_literal};
use crate::sync::records::CHANGES_COLUMN;
use crate::sync::typing::{AirbyteType, ColumnSpec, StreamSchema};

const REFUSED: &str = "eltbench: this JSON needs the Rust reader";

/// `read_json` of `columns` (key, DuckDB type).
fn records(path: &Path, columns: &[(&str, &str)]) -> String {
    let columns: Vec<String> = columns
        .iter()
        .map(|(k, ty)| format!("{}: {}", quote_literal(k), quote_literal(ty)))
        .collect();
    format!(
        "read_json({}, format = 'newline_delimited', records = true, columns = {{{}}})",
        quote_literal(&path.to_string_lossy()),
        columns.join(", ")
    )
}

/// Infers the stream schema of a local JSON Lines file as the Rust reader would;
/// `None` when the file needs the Rust reader.
pub fn infer(path: &Path) -> Option<StreamSchema> {
    let scan = scanned(path)?;
    let columns = scan
        .columns
        .iter()
        .map(|(key, kinds)| ColumnSpec::new(key, kinds.airbyte_type()))
        .collect();
    Some(StreamSchema { columns })
}

/// Scans of files, with their size and modification time then: a load of the same
/// unchanged file reuses the scan its discovery made.
static SCANNED: Mutex<BTreeMap<PathBuf, (Stamp, Scan)>> = Mutex::new(BTreeMap::new());

/// A file's size and modification time.
type Stamp = (u64, SystemTime);

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// The scan of `path`: remembered when the file is unchanged, else read now.
fn scanned(path: &Path) -> Option<Scan> {
    let before = stamp(path)?;
    let remembered = SCANNED.lock().ok().and_then(|all| {
        all.get(path)
            .filter(|(seen, _)| *seen == before)
            .map(|(_, scan)| scan.clone())
    });
    if remembered.is_some() {
        return remembered;
    }
    let scan = json_scan::scan_file(path)?;
    if stamp(path) == Some(before)
        && let Ok(mut all) = SCANNED.lock()
    {
        // downloads get fresh paths: forget old scans rather than grow without end
        if all.len() >= 256 {
            all.clear();
        }
        all.insert(path.to_path_buf(), (before, scan.clone()));
    }
    Some(scan)
}

/// `SELECT` of `schema`'s columns, then `_ab_changes`, from the JSON Lines file at
/// `path`; `None` when the file or a column needs the Rust reader.
pub fn select_sql(path: &Path, schema: &StreamSchema) -> Option<String> {
    if schema.columns.is_empty() {
        return None;
    }
    let scan = scanned(path)?;
    let mut pure = true;
    for column in &schema.columns {
        let kinds = scan.kinds(&column.source_name);
        let (own, refused) = match column.airbyte_type {
            AirbyteType::Integer => (Kinds::INT, Kinds::STRING),
            AirbyteType::Number => (Kinds::INT | Kinds::UINT | Kinds::FLOAT, Kinds::STRING),
            AirbyteType::Boolean => (Kinds::BOOL, Kinds::STRING),
            AirbyteType::String => (Kinds::STRING, Kinds::FLOAT | Kinds::OBJECT | Kinds::ARRAY),
            _ => return None,
        };
        if kinds.any(refused) {
            return None;
        }
        pure &= kinds.only(own | Kinds::NULL);
    }
    Some(if pure {
        typed_select(path, schema)
    } else {
        cast_select(path, schema)
    })
}

/// Every column held only values of its type: DuckDB reads them typed, as its own
/// `read_json` would, and no value can fail a typecast.
fn typed_select(path: &Path, schema: &StreamSchema) -> String {
    let columns: Vec<(&str, &str)> = schema
        .columns
        .iter()
        .map(|c| (c.source_name.as_str(), c.airbyte_type.duckdb_type()))
        .collect();
    let mut outer: Vec<String> = schema
        .columns
        .iter()
        .map(|c| {
            format!(
                "{} AS {}",
                quote_ident(&c.source_name),
                quote_ident(&c.name)
            )
        })
        .collect();
    outer.push(format!(
        "CAST(NULL AS VARCHAR) AS {}",
        quote_ident(CHANGES_COLUMN)
    ));
    format!(
        "SELECT {} FROM {}",
        outer.join(", "),
        records(path, &columns)
    )
}

/// Every key read as `JSON`, then cast with its JSON type as the Rust reader casts.
fn cast_select(path: &Path, schema: &StreamSchema) -> String {
    let columns: Vec<(&str, &str)> = schema
        .columns
        .iter()
        .map(|c| (c.source_name.as_str(), "JSON"))
        .collect();
    let mut typed = Vec::new();
    let mut cast = Vec::new();
    let mut outer = Vec::new();
    let mut changes = Vec::new();
    for (i, column) in schema.columns.iter().enumerate() {
        let (value, ty, out) = (format!("_v{i}"), format!("_t{i}"), format!("_c{i}"));
        let key = quote_ident(&column.source_name);
        typed.push(format!("{key} AS {value}, json_type({key}) AS {ty}"));
        cast.push(format!(
            "{} AS {out}, {ty}",
            cast_expr(column.airbyte_type, &value, &ty)
        ));
        outer.push(format!("{out} AS {}", quote_ident(&column.name)));
        let change = json!({"field": column.name, "change": "NULLED", "reason": "DESTINATION_TYPECAST_ERROR"});
        changes.push(format!(
            "CASE WHEN {ty} IS NOT NULL AND {ty} <> 'NULL' AND {out} IS NULL THEN {} END",
            quote_literal(&change.to_string())
        ));
    }
    outer.push(format!(
        "NULLIF('[' || concat_ws(',', {}) || ']', '[]') AS {}",
        changes.join(", "),
        quote_ident(CHANGES_COLUMN)
    ));
    format!(
        "SELECT {} FROM (SELECT {} FROM (SELECT {} FROM {}))",
        outer.join(", "),
        cast.join(", "),
        typed.join(", "),
        records(path, &columns)
    )
}

/// The SQL giving a column's value of type `airbyte` from JSON `value` of JSON type
/// `ty`, as `records::Column::json` casts it (NULL when it does not cast).
fn cast_expr(airbyte: AirbyteType, value: &str, ty: &str) -> String {
    let refuse = format!("error({})", quote_literal(REFUSED));
    let arms = match airbyte {
        AirbyteType::Integer => format!(
            "WHEN 'BIGINT' THEN TRY_CAST({value} AS BIGINT) WHEN 'UBIGINT' THEN TRY_CAST({value} AS BIGINT) \
             WHEN 'DOUBLE' THEN (CASE WHEN abs(CAST({value} AS DOUBLE)) < 9.2e18 AND CAST({value} AS DOUBLE) = trunc(CAST({value} AS DOUBLE)) \
             THEN CAST(CAST({value} AS DOUBLE) AS BIGINT) END) WHEN 'VARCHAR' THEN {refuse}"
        ),
        AirbyteType::Number => format!(
            "WHEN 'BIGINT' THEN CAST({value} AS DOUBLE) WHEN 'UBIGINT' THEN CAST({value} AS DOUBLE) \
             WHEN 'DOUBLE' THEN CAST({value} AS DOUBLE) WHEN 'VARCHAR' THEN {refuse}"
        ),
        AirbyteType::Boolean => {
            format!("WHEN 'BOOLEAN' THEN CAST({value} AS BOOLEAN) WHEN 'VARCHAR' THEN {refuse}")
        }
        _ => format!(
            "WHEN 'VARCHAR' THEN json_extract_string({value}, '$') WHEN 'BIGINT' THEN CAST({value} AS VARCHAR) \
             WHEN 'UBIGINT' THEN CAST({value} AS VARCHAR) WHEN 'BOOLEAN' THEN CAST({value} AS VARCHAR) \
             WHEN 'NULL' THEN NULL ELSE (CASE WHEN {ty} IS NOT NULL THEN {refuse} END)"
        ),
    };
    format!("(CASE {ty} {arms} END)")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn infer_text(text: &str) -> Option<StreamSchema> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(&path, text).unwrap();
        infer(&path)
    }

    #[test]
    fn inference_matches_the_rust_rules() {
        let schema = infer_text(
            "{\"b\":1,\"a\":\"x\",\"n\":null}\n\n{\"a\":2,\"c\":true,\"b\":2.5,\"o\":{\"k\":1}}\n",
        )
        .unwrap();
        let got: Vec<_> = schema
            .columns
            .iter()
            .map(|c| (c.source_name.as_str(), c.airbyte_type))
            .collect();
        assert_eq!(
            got,
            [
                ("b", AirbyteType::Number),
                ("a", AirbyteType::String),
                ("n", AirbyteType::String),
                ("c", AirbyteType::Boolean),
                ("o", AirbyteType::Json),
            ]
        );
    }

    #[test]
    fn risky_records_are_refused() {
        for text in [
            "{\"a\":1,\"a\":2}\n",
            "[1,2]\n",
            "{\"a\":-0}\n",
            "{\"a\":1e5}\n",
            "{\"a\":0.12345678901234567}\n",
            "{\"a\":1,\"A\":2}\n",
            "{\"a\":\"\\ud83d\\ude00\"}\n",
            "{\"a\":1}\n{oops\n",
        ] {
            assert!(infer_text(text).is_none(), "{text}");
        }
        assert!(
            infer_text("{\"a\":-0.5,\"d\":\"2024-01-02\",\"i\":9223372036854775807}\n").is_some()
        );
        assert!(infer_text("{\"a\":1234567.12345678}\n").is_some());
        assert!(infer_text("{\"a\":1234567.1234567891}\n").is_none());
    }

    #[test]
    fn clean_columns_are_read_typed_and_mixed_ones_cast() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let json = StreamSchema {
            columns: vec![ColumnSpec::new("o", AirbyteType::Json)],
        };
        assert!(select_sql(&write("o.jsonl", "{\"o\":{}}\n"), &json).is_none());
        let plain = write(
            "p.jsonl",
            "{\"it's \\\"q\\\"\":1}\n{\"it's \\\"q\\\"\":null}\n",
        );
        let schema = infer(&plain).unwrap();
        let sql = select_sql(&plain, &schema).unwrap();
        assert!(sql.contains("columns = {'it''s \"q\"': 'BIGINT'}"), "{sql}");
        let mixed = write("m.jsonl", "{\"a\":1}\n{\"a\":true}\n");
        let schema = infer(&mixed).unwrap();
        assert_eq!(schema.columns[0].airbyte_type, AirbyteType::String);
        let sql = select_sql(&mixed, &schema).unwrap();
        assert!(
            sql.contains("columns = {'a': 'JSON'}") && sql.contains("AS _v0"),
            "{sql}"
        );
        let float_in_string = write("f.jsonl", "{\"a\":\"x\"}\n{\"a\":2.5}\n");
        let schema = infer(&float_in_string).unwrap();
        assert!(select_sql(&float_in_string, &schema).is_none());
    }
}
