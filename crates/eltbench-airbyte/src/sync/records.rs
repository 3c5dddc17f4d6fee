//! Builds Arrow record batches row by row from text or JSON cells, typing each value
//! by its column's Airbyte type. A value that does not cast becomes NULL and its field
//! is listed in the row's `_ab_changes` cell (`NULLED`, `DESTINATION_TYPECAST_ERROR`),
//! which becomes `_airbyte_meta.changes` in the final table.
//!
//! Readers that already hold Arrow data (Parquet) do not come through here. This module
//! must never do I/O.

use std::sync::Arc;

use duckdb::arrow::array::{
    ArrayRef, BooleanBuilder, Date32Builder, Float64Builder, Int64Builder, StringBuilder,
    Time64MicrosecondBuilder, TimestampMicrosecondBuilder,
};
use duckdb::arrow::datatypes::SchemaRef;
use duckdb::arrow::record_batch::RecordBatch;
use serde_json::{Value, json};

use super::cast;
use super::error::ConnectorError;
use super::typing::{AirbyteType, StreamSchema};

/// The staging column that carries each row's typecast changes (JSON array text).
pub const CHANGES_COLUMN: &str = "_ab_changes";

/// Rows per batch readers aim for.
pub const BATCH_ROWS: usize = 8192;

enum Column {
    Str(StringBuilder),
    Int(Int64Builder),
    Float(Float64Builder),
    Bool(BooleanBuilder),
    Date(Date32Builder),
    Ts(TimestampMicrosecondBuilder, bool),
    Time(Time64MicrosecondBuilder),
    Json(StringBuilder),
}

impl Column {
    fn new(ty: AirbyteType) -> Self {
        match ty {
            AirbyteType::String | AirbyteType::TimeTz => Self::Str(StringBuilder::new()),
            AirbyteType::Integer => Self::Int(Int64Builder::new()),
            AirbyteType::Number => Self::Float(Float64Builder::new()),
            AirbyteType::Boolean => Self::Bool(BooleanBuilder::new()),
            AirbyteType::Date => Self::Date(Date32Builder::new()),
            AirbyteType::TimestampTz => Self::Ts(TimestampMicrosecondBuilder::new(), true),
            AirbyteType::TimestampNtz => Self::Ts(TimestampMicrosecondBuilder::new(), false),
            AirbyteType::TimeNtz => Self::Time(Time64MicrosecondBuilder::new()),
            AirbyteType::Json => Self::Json(StringBuilder::new()),
        }
    }

    fn null(&mut self) {
        match self {
            Self::Str(b) | Self::Json(b) => b.append_null(),
            Self::Int(b) => b.append_null(),
            Self::Float(b) => b.append_null(),
            Self::Bool(b) => b.append_null(),
            Self::Date(b) => b.append_null(),
            Self::Ts(b, _) => b.append_null(),
            Self::Time(b) => b.append_null(),
        }
    }

    /// Appends a text value; `false` when it does not cast (a null was appended).
    fn text(&mut self, text: &str) -> bool {
        match self {
            Self::Str(b) => {
                b.append_value(text);
                true
            }
            Self::Json(b) => opt_str(b, cast::json_from_text(text)),
            Self::Int(b) => opt(b, cast::int_from_text(text)),
            Self::Float(b) => opt(b, cast::float_from_text(text)),
            Self::Bool(b) => {
                let v = cast::bool_from_text(text);
                b.append_option(v);
                v.is_some()
            }
            Self::Date(b) => opt(b, cast::date_from_text(text)),
            Self::Ts(b, true) => opt(b, cast::timestamp_tz_from_text(text)),
            Self::Ts(b, false) => opt(b, cast::timestamp_ntz_from_text(text)),
            Self::Time(b) => opt(b, cast::time_from_text(text)),
        }
    }

    /// Appends a non-null JSON value; `false` when it does not cast.
    fn json(&mut self, value: &Value) -> bool {
        match (self, value) {
            (Self::Str(b), v) => {
                b.append_value(cast::string_from_json(v));
                true
            }
            (Self::Json(b), v) => {
                b.append_value(v.to_string());
                true
            }
            (Self::Int(b), v) => opt(b, cast::int_from_json(v)),
            (Self::Float(b), v) => opt(b, cast::float_from_json(v)),
            (Self::Bool(b), v) => {
                let parsed = cast::bool_from_json(v);
                b.append_option(parsed);
                parsed.is_some()
            }
            (column, Value::String(s)) => column.text(s),
            (column, _) => {
                column.null();
                false
            }
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Self::Str(b) | Self::Json(b) => Arc::new(b.finish()),
            Self::Int(b) => Arc::new(b.finish()),
            Self::Float(b) => Arc::new(b.finish()),
            Self::Bool(b) => Arc::new(b.finish()),
            Self::Date(b) => Arc::new(b.finish()),
            Self::Ts(b, true) => Arc::new(b.finish().with_timezone("UTC")),
            Self::Ts(b, false) => Arc::new(b.finish()),
            Self::Time(b) => Arc::new(b.finish()),
        }
    }
}

fn opt<T: duckdb::arrow::datatypes::ArrowPrimitiveType>(
    builder: &mut duckdb::arrow::array::PrimitiveBuilder<T>,
    value: Option<T::Native>,
) -> bool {
    builder.append_option(value);
    value.is_some()
}

fn opt_str(builder: &mut StringBuilder, value: Option<&str>) -> bool {
    builder.append_option(value);
    value.is_some()
}

/// Accumulates typed rows of one stream into record batches.
pub struct RowBatchBuilder {
    schema: SchemaRef,
    names: Vec<String>,
    columns: Vec<Column>,
    changes: StringBuilder,
    row_changes: Vec<usize>,
    rows: usize,
}

impl RowBatchBuilder {
    pub fn new(schema: &StreamSchema) -> Self {
        Self {
            schema: schema.arrow_schema(),
            names: schema.columns.iter().map(|c| c.name.clone()).collect(),
            columns: schema
                .columns
                .iter()
                .map(|c| Column::new(c.airbyte_type))
                .collect(),
            changes: StringBuilder::new(),
            row_changes: Vec::new(),
            rows: 0,
        }
    }

    /// Sets column `col` of the current row from text (`None`: NULL).
    pub fn push_text(&mut self, col: usize, text: Option<&str>) {
        let Some(column) = self.columns.get_mut(col) else {
            return;
        };
        match text {
            None => column.null(),
            Some(t) => {
                if !column.text(t) {
                    self.row_changes.push(col);
                }
            }
        }
    }

    /// Sets column `col` of the current row from a JSON value (`null`: NULL).
    pub fn push_json(&mut self, col: usize, value: Option<&Value>) {
        let Some(column) = self.columns.get_mut(col) else {
            return;
        };
        match value {
            None | Some(Value::Null) => column.null(),
            Some(v) => {
                if !column.json(v) {
                    self.row_changes.push(col);
                }
            }
        }
    }

    /// Closes the current row (every column must have been pushed once).
    pub fn end_row(&mut self) {
        if self.row_changes.is_empty() {
            self.changes.append_null();
        } else {
            let changes: Vec<Value> = self
                .row_changes
                .drain(..)
                .filter_map(|col| self.names.get(col))
                .map(|field| {
                    json!({"field": field, "change": "NULLED", "reason": "DESTINATION_TYPECAST_ERROR"})
                })
                .collect();
            self.changes.append_value(Value::Array(changes).to_string());
        }
        self.rows += 1;
    }

    /// Rows since the last [`Self::finish`].
    pub fn len(&self) -> usize {
        self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The rows so far as one batch; the builder starts over empty.
    pub fn finish(&mut self) -> Result<RecordBatch, ConnectorError> {
        let mut arrays: Vec<ArrayRef> = self.columns.iter_mut().map(Column::finish).collect();
        arrays.push(Arc::new(self.changes.finish()));
        self.rows = 0;
        RecordBatch::try_new(self.schema.clone(), arrays)
            .map_err(|e| ConnectorError::Data(format!("Could not assemble a record batch: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::typing::ColumnSpec;
    use duckdb::arrow::array::{Array, AsArray};
    use duckdb::arrow::datatypes::Int64Type;

    fn schema() -> StreamSchema {
        StreamSchema {
            columns: vec![
                ColumnSpec::new("id", AirbyteType::Integer),
                ColumnSpec::new("Name", AirbyteType::String),
            ],
        }
    }

    #[test]
    fn values_that_do_not_cast_become_null_with_a_change() {
        let mut rows = RowBatchBuilder::new(&schema());
        rows.push_text(0, Some("1"));
        rows.push_text(1, Some("a"));
        rows.end_row();
        rows.push_json(0, Some(&json!("abc")));
        rows.push_json(1, Some(&json!(5)));
        rows.end_row();
        let batch = rows.finish().unwrap();
        assert_eq!(batch.num_rows(), 2);
        let ids = batch.column(0).as_primitive::<Int64Type>();
        assert_eq!(ids.value(0), 1);
        assert!(ids.is_null(1));
        assert_eq!(batch.column(1).as_string::<i32>().value(1), "5");
        let changes = batch.column(2).as_string::<i32>();
        assert!(changes.is_null(0));
        assert_eq!(
            changes.value(1),
            r#"[{"field":"id","change":"NULLED","reason":"DESTINATION_TYPECAST_ERROR"}]"#
        );
        assert!(rows.is_empty());
    }
}
