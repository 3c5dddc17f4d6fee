//! The fast path for JSON Lines files on local disk: DuckDB's `read_json` parses the
//! lines once (in parallel, every key as a `JSON` column) and SQL infers and casts
//! exactly as the Rust reader in `json` does (types from the values, `wider` merging,
//! first-seen key order, typecast failures listed in `_ab_changes`).
//!
//! Where DuckDB's JSON model and serde's could disagree the SQL refuses the file
//! instead of guessing (`read_json` fails, or DuckDB's `error()`, so the statement
//! fails and the Rust reader runs): records that are not objects, duplicate keys,
//! keys equal but for case, numbers whose decimal text serde rounds or prints
//! differently (16+ digits, exponents, `-0`), `\u` surrogate escapes, strings in
//! typed columns, floats, objects or arrays in string columns. Schemas with JSON
//! columns are never native. The text scan runs once per file: a load of a file that
//! `infer` found clean, unchanged since (size, mtime), skips it. This module builds SQL
//! text and reads query results; it never writes a table.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use duckdb::Connection;
use serde_json::json;

use super::wider;
use crate::sync::naming::{quote_ident, quote_literal};
use crate::sync::records::CHANGES_COLUMN;
use crate::sync::typing::{AirbyteType, ColumnSpec, StreamSchema};

/// A quick superset of [`risky_text`] (17+ digit-or-dot runs, digits before an
/// exponent, a `-0` prefix, surrogate escapes), so most records skip the exact pattern.
const MAYBE_RISKY: &str = r"[0-9.]{17}|[0-9][eE][-+0-9]|[:,\[]\s*-0|\\u[dD][89a-fA-F]";

/// A record whose raw text holds a number serde and DuckDB may read or print
/// differently: a decimal with 16+ digits (serde's parse is only exact below), a 20+
/// digit integer (beyond u64), an exponent, `-0` / `-0.0` (a float to serde); or a
/// `\u` escape of a UTF-16 surrogate (serde rejects lone ones).
fn risky_text() -> String {
    let mut numbers = vec![r"[0-9]{16,}\.".to_owned(), "[0-9]{20}".to_owned()];
    numbers.extend((1..16).map(|a| format!(r"[0-9]{{{a}}}\.[0-9]{{{}}}", 16 - a)));
    format!(
        r"[:,\[]\s*(-?({})|-?[0-9][0-9.]*[eE]|-0(\.0*)?\s*[,}}\]])|\\u[dD][89a-fA-F]",
        numbers.join("|")
    )
}

const REFUSED: &str = "eltbench: this JSON needs the Rust reader";

fn lines(path: &Path) -> String {
    format!(
        "read_json_objects({}, format = 'newline_delimited')",
        quote_literal(&path.to_string_lossy())
    )
}

/// `read_json` of `keys` as JSON columns (fails on duplicate keys, records that are
/// not objects, and keys equal but for case).
fn records(path: &Path, keys: &[&str]) -> String {
    let columns: Vec<String> = keys
        .iter()
        .map(|k| format!("{}: 'JSON'", quote_literal(k)))
        .collect();
    format!(
        "read_json({}, format = 'newline_delimited', records = true, columns = {{{}}})",
        quote_literal(&path.to_string_lossy()),
        columns.join(", ")
    )
}

/// A scalar that is true when no line has risky text, and fails otherwise.
fn clean_text(path: &Path) -> String {
    format!(
        "(SELECT CASE WHEN count(*) = 0 THEN true ELSE error({}) END FROM (SELECT 1 FROM {} WHERE regexp_matches(json, {}) AND regexp_matches(json, {}) LIMIT 1))",
        quote_literal(REFUSED),
        lines(path),
        quote_literal(MAYBE_RISKY),
        quote_literal(&risky_text())
    )
}

/// Infers the stream schema of a local JSON Lines file with DuckDB; `None` when DuckDB
/// rejects the file or the native path cannot guarantee the Rust reader's answer.
pub fn infer(conn: &Connection, path: &Path) -> Option<StreamSchema> {
    let before = stamp(path)?;
    let schema = infer_unchecked(conn, path)?;
    if stamp(path) == Some(before)
        && let Ok(mut verified) = VERIFIED.lock()
    {
        verified.insert(path.to_path_buf(), before);
    }
    Some(schema)
}

/// Files whose text `infer` found clean, with their size and modification time then:
/// the load of the same unchanged file skips the text scan.
static VERIFIED: Mutex<BTreeMap<PathBuf, (u64, SystemTime)>> = Mutex::new(BTreeMap::new());

fn stamp(path: &Path) -> Option<(u64, SystemTime)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// The guard of a load: nothing when `infer` verified this very file, else the scan.
fn load_guard(path: &Path) -> String {
    let verified = VERIFIED
        .lock()
        .ok()
        .and_then(|v| v.get(path).copied())
        .is_some_and(|seen| stamp(path) == Some(seen));
    if verified {
        "true".to_owned()
    } else {
        clean_text(path)
    }
}

fn infer_unchecked(conn: &Connection, path: &Path) -> Option<StreamSchema> {
    let keys = first_seen_keys(conn, path)?;
    if keys.is_empty() {
        return None;
    }
    let names: Vec<&str> = keys.iter().map(String::as_str).collect();
    let aggregates: Vec<String> = names
        .iter()
        .map(|k| {
            format!(
                "to_json(list_distinct(list(json_type({}))))",
                quote_ident(k)
            )
        })
        .collect();
    let sql = format!(
        "SELECT {} FROM {} WHERE {}",
        aggregates.join(", "),
        records(path, &names),
        clean_text(path)
    );
    let types: Vec<String> = conn
        .query_row(&sql, [], |row| {
            (0..keys.len())
                .map(|i| row.get::<_, String>(i))
                .collect::<Result<Vec<_>, _>>()
        })
        .ok()?;
    let columns = keys
        .iter()
        .zip(types)
        .map(|(key, seen)| {
            let seen: Vec<String> = serde_json::from_str(&seen).ok()?;
            Some(ColumnSpec::new(key, merged_type(&seen)?))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(StreamSchema { columns })
}

/// Every key in the order serde's `preserve_order` maps first meet them.
fn first_seen_keys(conn: &Connection, path: &Path) -> Option<Vec<String>> {
    let distinct = format!(
        "SELECT DISTINCT CAST(to_json(json_keys(json)) AS VARCHAR) FROM {}",
        lines(path)
    );
    let lists = key_lists(conn, &distinct)?;
    let lists = if lists.len() > 1 {
        let ordered = format!(
            "SELECT CAST(to_json(ks) AS VARCHAR) FROM (SELECT row_number() OVER () AS r, json_keys(json) AS ks FROM {}) GROUP BY ks ORDER BY min(r)",
            lines(path)
        );
        key_lists(conn, &ordered)?
    } else {
        lists
    };
    let mut keys: Vec<String> = Vec::new();
    for key in lists.into_iter().flatten() {
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    Some(keys)
}

fn key_lists(conn: &Connection, sql: &str) -> Option<Vec<Vec<String>>> {
    let mut stmt = conn.prepare(sql).ok()?;
    let rows = stmt.query_map([], |row| row.get::<_, String>(0)).ok()?;
    rows.map(|row| serde_json::from_str(&row.ok()?).ok())
        .collect()
}

/// The Airbyte type of a column whose values had these DuckDB JSON types.
fn merged_type(seen: &[String]) -> Option<AirbyteType> {
    let mut merged: Option<AirbyteType> = None;
    for ty in seen {
        let this = match ty.as_str() {
            "NULL" => continue,
            "BOOLEAN" => AirbyteType::Boolean,
            "BIGINT" | "UBIGINT" => AirbyteType::Integer,
            "DOUBLE" => AirbyteType::Number,
            "VARCHAR" => AirbyteType::String,
            "OBJECT" | "ARRAY" => AirbyteType::Json,
            _ => return None,
        };
        merged = Some(merged.map_or(this, |m| wider(m, this)));
    }
    Some(merged.unwrap_or(AirbyteType::String))
}

/// `SELECT` of `schema`'s columns, then `_ab_changes`, from the JSON Lines file at
/// `path`; `None` when a column's type or name needs the Rust reader.
pub fn select_sql(path: &Path, schema: &StreamSchema) -> Option<String> {
    let native_types = [
        AirbyteType::String,
        AirbyteType::Integer,
        AirbyteType::Number,
        AirbyteType::Boolean,
    ];
    let usable = schema
        .columns
        .iter()
        .all(|c| native_types.contains(&c.airbyte_type));
    if !usable || schema.columns.is_empty() {
        return None;
    }
    let keys: Vec<&str> = schema
        .columns
        .iter()
        .map(|c| c.source_name.as_str())
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
    Some(format!(
        "SELECT {} FROM (SELECT {} FROM (SELECT {} FROM {} WHERE {}))",
        outer.join(", "),
        cast.join(", "),
        typed.join(", "),
        records(path, &keys),
        load_guard(path)
    ))
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
        infer(&Connection::open_in_memory().unwrap(), &path)
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
    fn json_columns_are_not_native() {
        let schema = StreamSchema {
            columns: vec![ColumnSpec::new("o", AirbyteType::Json)],
        };
        assert!(select_sql(Path::new("x"), &schema).is_none());
        let plain = StreamSchema {
            columns: vec![ColumnSpec::new("it's \"q\"", AirbyteType::Integer)],
        };
        let sql = select_sql(Path::new("/d/x.jsonl"), &plain).unwrap();
        assert!(sql.contains("columns = {'it''s \"q\"': 'JSON'}"), "{sql}");
        assert!(sql.contains("\"it's \"\"q\"\"\" AS _v0"), "{sql}");
    }
}
