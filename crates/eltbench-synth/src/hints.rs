//! Type hints from the original's declarations: `postgres_ddl.json`
//! (`{db: {table: {columns: [{name, type, not_null}], primary_key}}}`) and
//! `rest_api_streams.json` (`{stream: {path: "/<db>/<table>", json_schema}}`).
//!
//! Both files are optional (a suite need not have them); a file that exists
//! but does not parse is an error naming it. This module only reads; how a
//! hint combines with the name rules is [`crate::plan`]'s business.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::SynthError;
use crate::types::{Base, json_base, parse_sql_type};

/// What the original declared about one column.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnHint {
    /// Column name as declared.
    pub name: String,
    /// Its base type (`None`: a type name not understood, or mixed).
    pub base: Option<Base>,
    /// `NOT NULL` in the DDL.
    pub not_null: bool,
    /// `SERIAL` or `UNIQUE` in the DDL.
    pub unique: bool,
}

/// What the original declared about one table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableHint {
    /// Declared columns.
    pub columns: Vec<ColumnHint>,
    /// The DDL primary key (empty: none declared, or not a PostgreSQL table).
    pub primary_key: Vec<String>,
}

impl TableHint {
    /// A declared column, matched ignoring ASCII case.
    pub fn column(&self, name: &str) -> Option<&ColumnHint> {
        self.columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }
}

/// Every hint of a suite, by `(db, lower-cased table)`.
#[derive(Debug, Clone, Default)]
pub struct TypeHints {
    tables: BTreeMap<(String, String), TableHint>,
}

#[derive(Deserialize)]
struct DdlTable {
    columns: Vec<DdlColumn>,
    #[serde(default)]
    primary_key: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct DdlColumn {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    not_null: bool,
}

#[derive(Deserialize)]
struct Stream {
    path: String,
    json_schema: serde_json::Value,
}

impl TypeHints {
    /// Reads `postgres_ddl.json` and `rest_api_streams.json` from `dir`
    /// (each optional).
    pub fn load(dir: &Path) -> Result<TypeHints, SynthError> {
        let mut hints = TypeHints::default();
        let ddl_path = dir.join("postgres_ddl.json");
        if let Some(ddl) = read_json::<BTreeMap<String, BTreeMap<String, DdlTable>>>(&ddl_path)? {
            hints.add_ddl(ddl);
        }
        let streams_path = dir.join("rest_api_streams.json");
        if let Some(streams) = read_json::<BTreeMap<String, Stream>>(&streams_path)? {
            hints.add_streams(streams, &streams_path)?;
        }
        Ok(hints)
    }

    /// The hint for a table, matched ignoring ASCII case.
    pub fn table(&self, db: &str, table: &str) -> Option<&TableHint> {
        self.tables
            .get(&(db.to_owned(), table.to_ascii_lowercase()))
    }

    fn add_ddl(&mut self, ddl: BTreeMap<String, BTreeMap<String, DdlTable>>) {
        for (db, tables) in ddl {
            for (table, decl) in tables {
                let hint = TableHint {
                    columns: decl.columns.into_iter().map(ddl_column).collect(),
                    primary_key: decl.primary_key.unwrap_or_default(),
                };
                self.tables
                    .insert((db.clone(), table.to_ascii_lowercase()), hint);
            }
        }
    }

    fn add_streams(
        &mut self,
        streams: BTreeMap<String, Stream>,
        path: &Path,
    ) -> Result<(), SynthError> {
        for (name, stream) in streams {
            let mut parts = stream.path.trim_start_matches('/').splitn(2, '/');
            let (Some(db), Some(table)) = (parts.next(), parts.next()) else {
                let message = format!(
                    "stream `{name}`: path `{}` is not /<db>/<table>",
                    stream.path
                );
                return Err(SynthError::hints(path, message));
            };
            let key = (db.to_owned(), table.to_ascii_lowercase());
            let hint = TableHint {
                columns: json_columns(&stream.json_schema),
                primary_key: Vec::new(),
            };
            self.tables.entry(key).or_insert(hint);
        }
        Ok(())
    }
}

fn ddl_column(column: DdlColumn) -> ColumnHint {
    let parsed = parse_sql_type(&column.ty);
    ColumnHint {
        name: column.name,
        base: parsed.map(|t| Base::Known(t.kind)),
        not_null: column.not_null,
        unique: parsed.is_some_and(|t| t.unique),
    }
}

fn json_columns(schema: &serde_json::Value) -> Vec<ColumnHint> {
    let Some(properties) = schema.get("properties").and_then(|p| p.as_object()) else {
        return Vec::new();
    };
    let mut columns: Vec<ColumnHint> = properties
        .iter()
        .map(|(name, property)| ColumnHint {
            name: name.clone(),
            base: json_base(&json_types(property)),
            not_null: false,
            unique: false,
        })
        .collect();
    columns.sort_by(|a, b| a.name.cmp(&b.name));
    columns
}

/// The `type` of a JSON Schema property as a list (`"string"` or `["string", "null"]`).
fn json_types(property: &serde_json::Value) -> Vec<String> {
    match property.get("type") {
        Some(serde_json::Value::String(t)) => vec![t.clone()],
        Some(serde_json::Value::Array(ts)) => ts
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>, SynthError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(SynthError::io(path, err)),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| SynthError::hints(path, format!("line {}: {e}", e.line())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Kind;

    #[test]
    fn reads_ddl_and_streams() {
        let dir = tempfile::tempdir().unwrap();
        let ddl = r#"{"shop": {"Orders": {"columns": [
            {"name": "id", "type": "SERIAL", "not_null": true},
            {"name": "total", "type": "DECIMAL(15,2)", "not_null": false}],
            "primary_key": ["id"]}}}"#;
        std::fs::write(dir.path().join("postgres_ddl.json"), ddl).unwrap();
        let streams = r#"{"items": {"path": "/shop/items", "json_schema":
            {"properties": {"qty": {"type": ["number", "null"]}, "ok": {"type": "boolean"}}}}}"#;
        std::fs::write(dir.path().join("rest_api_streams.json"), streams).unwrap();
        let hints = TypeHints::load(dir.path()).unwrap();
        let orders = hints.table("shop", "orders").unwrap();
        assert_eq!(orders.primary_key, ["id"]);
        let id = orders.column("ID").unwrap();
        assert!(id.unique && id.not_null);
        assert_eq!(id.base, Some(Base::Known(Kind::Int)));
        let items = hints.table("shop", "items").unwrap();
        assert_eq!(items.column("qty").unwrap().base, Some(Base::Number));
        assert_eq!(
            items.column("ok").unwrap().base,
            Some(Base::Known(Kind::Bool))
        );
    }

    #[test]
    fn missing_files_give_no_hints_and_broken_ones_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            TypeHints::load(dir.path())
                .unwrap()
                .table("a", "b")
                .is_none()
        );
        std::fs::write(dir.path().join("postgres_ddl.json"), "{\n oops").unwrap();
        let err = TypeHints::load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("postgres_ddl.json: line 2"), "{err}");
    }
}
