//! The REST API source: `GET /<db>/<table>` answers the whole table as one JSON array,
//! as ELT-Bench's `elt-api` service did. Value types follow the stream's JSON schema
//! from `rest_api_streams.json` where the suite has one for that path (so a column the
//! original declared `string` stays a string), else the column types; NULL is `null`.
//!
//! Bodies are rendered once when the table is added and served from memory. Serving,
//! 404s and the port belong to [`crate::http`]; this module never binds a socket.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use serde::Deserialize;
use serde_json::Value;

use crate::formats::json::{JsonColumn, columns_from_types, write_array};
use crate::http::{Content, Route, Routes};
use crate::table::Table;

/// Why `rest_api_streams.json` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum StreamsError {
    #[error("cannot read REST stream file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "REST stream file {path} is not JSON of the form {{stream: {{path, json_schema}}}}: {source}"
    )]
    Parse {
        path: PathBuf,
        source: serde_json::Error,
    },
}

#[derive(Deserialize)]
struct RawStream {
    path: String,
    #[serde(default)]
    json_schema: Value,
}

/// The declared JSON schemas of REST streams, by route path (`/db/table`).
#[derive(Clone, Debug, Default)]
pub struct RestStreams {
    schemas: BTreeMap<String, Value>,
}

impl RestStreams {
    /// Loads `rest_api_streams.json` (`{stream: {path, json_schema}}`).
    pub fn load(path: &Path) -> Result<Self, StreamsError> {
        let text = std::fs::read_to_string(path).map_err(|source| StreamsError::Read {
            path: path.into(),
            source,
        })?;
        let raw: BTreeMap<String, RawStream> =
            serde_json::from_str(&text).map_err(|source| StreamsError::Parse {
                path: path.into(),
                source,
            })?;
        let schemas = raw.into_values().map(|s| (s.path, s.json_schema)).collect();
        Ok(Self { schemas })
    }

    /// The schema declared for a route path.
    pub fn schema(&self, path: &str) -> Option<&Value> {
        self.schemas.get(path)
    }
}

/// The route path of a table.
pub fn route_path(db: &str, table: &str) -> String {
    format!("/{db}/{table}")
}

/// The JSON kind of each column: the schema's property where it declares the column
/// (matched exactly, then ignoring ASCII case), else the column type's.
pub fn json_columns(table: &Table, schema: Option<&Value>) -> Vec<JsonColumn> {
    let properties = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object);
    let Some(properties) = properties else {
        return columns_from_types(table);
    };
    table
        .columns
        .iter()
        .map(|c| {
            let declared = properties.get(&c.name).or_else(|| {
                properties
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(&c.name))
                    .map(|(_, v)| v)
            });
            declared
                .and_then(JsonColumn::from_schema)
                .unwrap_or_else(|| JsonColumn::from_type(&c.ty))
        })
        .collect()
}

/// Adds `GET /<db>/<table>` for `table` to `routes`; returns the body size in bytes.
pub fn add_table(routes: &mut Routes, db: &str, table: &Table, streams: &RestStreams) -> usize {
    let path = route_path(db, &table.name);
    let columns = json_columns(table, streams.schema(&path));
    let body = Bytes::from(write_array(table, &columns));
    let size = body.len();
    routes.insert(
        path,
        Route {
            content_type: "application/json",
            content: Content::Memory(body),
        },
    );
    size
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::JsonKind;
    use crate::table::{Column, Rows, TypeOrigin};
    use crate::types::ColumnType;
    use serde_json::json;

    #[test]
    fn schema_properties_override_column_types_case_insensitively() {
        let col = |name: &str, ty| Column {
            name: name.into(),
            ty,
            not_null: false,
            origin: TypeOrigin::Inferred,
            declared_name: None,
        };
        let table = Table {
            name: "t".into(),
            columns: vec![
                col("Id", ColumnType::BigInt),
                col("code", ColumnType::BigInt),
                col("extra", ColumnType::Boolean),
            ],
            primary_key: vec![],
            rows: Rows::new(3),
        };
        let schema = json!({"properties": {"id": {"type": ["number", "null"]},
                                           "code": {"type": ["string", "null"]}}});
        let kinds: Vec<Vec<JsonKind>> = json_columns(&table, Some(&schema))
            .into_iter()
            .map(|c| c.kinds)
            .collect();
        assert_eq!(
            kinds,
            [
                vec![JsonKind::Number],
                vec![JsonKind::String],
                vec![JsonKind::Boolean]
            ]
        );
    }
}
