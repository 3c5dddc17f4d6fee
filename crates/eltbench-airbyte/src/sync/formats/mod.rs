//! File formats shared by the file, S3 and REST readers: CSV, JSON Lines, JSON
//! documents and Parquet, each able to infer a stream schema from a file's bytes and
//! to read those bytes into typed batches.
//!
//! Parsing is synchronous and runs on a blocking thread; nothing here fetches bytes.

mod csv;
mod csv_native;
mod json;
mod json_native;
mod json_scan;
#[cfg(test)]
mod native_equality;
pub mod parquet;
mod parquet_native;

use bytes::Bytes;

pub use self::csv::CsvOptions;
pub use self::csv_native::select_sql as native_csv_select;
pub use self::json_native::{infer as native_json_infer, select_sql as native_json_select};
pub use self::parquet_native::select_sql as native_parquet_select;

use super::connector::BatchSink;
use super::error::ConnectorError;
use super::typing::{AirbyteType, StreamSchema};

/// How a file's bytes are laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileFormat {
    Csv(CsvOptions),
    /// One JSON object per line.
    Jsonl,
    /// One JSON document: an array of objects, an object, or lines of objects.
    Json,
    Parquet,
}

/// Constant columns a reader adds to every record (S3's `_ab_source_file_url`...).
pub type Extras<'a> = &'a [(&'a str, String)];

impl FileFormat {
    /// The schema of one file; `name` (a URL or key) goes into error messages.
    pub fn infer(&self, bytes: &Bytes, name: &str) -> Result<StreamSchema, ConnectorError> {
        match self {
            Self::Csv(options) => options.infer(bytes, name),
            Self::Jsonl | Self::Json => json::infer(&json::records(bytes, name)?),
            Self::Parquet => parquet::infer(bytes, name),
        }
    }

    /// Reads one file into `sink` as batches of `schema`.
    pub fn read(
        &self,
        bytes: &Bytes,
        name: &str,
        schema: &StreamSchema,
        extras: Extras<'_>,
        sink: &BatchSink,
    ) -> Result<(), ConnectorError> {
        match self {
            Self::Csv(options) => options.read(bytes, name, schema, extras, sink),
            Self::Jsonl | Self::Json => {
                json::read(&json::records(bytes, name)?, schema, extras, sink)
            }
            Self::Parquet => parquet::read(bytes, name, schema, extras, sink),
        }
    }
}

/// Merges the schemas of several files: columns in first-seen order; a column whose
/// types differ becomes the wider type (`integer` + `number` → `number`, else string).
pub fn merge_schemas(schemas: impl IntoIterator<Item = StreamSchema>) -> StreamSchema {
    let mut merged = StreamSchema::default();
    for schema in schemas {
        for column in schema.columns {
            match merged
                .columns
                .iter_mut()
                .find(|c| c.source_name == column.source_name)
            {
                Some(existing) => {
                    existing.airbyte_type = wider(existing.airbyte_type, column.airbyte_type);
                }
                None => merged.columns.push(column),
            }
        }
    }
    merged
}

/// The type that holds values of both.
pub fn wider(a: AirbyteType, b: AirbyteType) -> AirbyteType {
    use AirbyteType::{Integer, Number, String};
    match (a, b) {
        (a, b) if a == b => a,
        (Integer, Number) | (Number, Integer) => Number,
        _ => String,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::typing::ColumnSpec;

    #[test]
    fn merged_schemas_widen_types() {
        let a = StreamSchema {
            columns: vec![
                ColumnSpec::new("id", AirbyteType::Integer),
                ColumnSpec::new("x", AirbyteType::Boolean),
            ],
        };
        let b = StreamSchema {
            columns: vec![
                ColumnSpec::new("id", AirbyteType::Number),
                ColumnSpec::new("y", AirbyteType::Date),
                ColumnSpec::new("x", AirbyteType::Integer),
            ],
        };
        let merged = merge_schemas([a, b]);
        let types: Vec<_> = merged
            .columns
            .iter()
            .map(|c| (c.name.as_str(), c.airbyte_type))
            .collect();
        assert_eq!(
            types,
            vec![
                ("id", AirbyteType::Number),
                ("x", AirbyteType::String),
                ("y", AirbyteType::Date)
            ]
        );
    }
}
