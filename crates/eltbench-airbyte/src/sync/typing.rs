//! Airbyte's type system as the engine uses it: a stream's columns, each with one
//! [`AirbyteType`], read from and written to JSON schema the way Airbyte's protocol
//! spells types (`type`, `format`, `airbyte_type`).
//!
//! The per-source and per-destination mappings are data in `type_tables`; this module
//! must never parse values (that is `cast`) or know about a particular source.

use std::sync::Arc;

use duckdb::arrow::datatypes::{DataType, Field, Schema, SchemaRef, TimeUnit};
use serde_json::{Map, Value, json};

use super::naming::normalize_name;
use super::records::CHANGES_COLUMN;
use super::type_tables::AIRBYTE_TYPES;

/// One Airbyte data type (the "supported data types" of the Airbyte protocol).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AirbyteType {
    String,
    Integer,
    Number,
    Boolean,
    Date,
    TimestampTz,
    TimestampNtz,
    TimeTz,
    TimeNtz,
    /// `object`, `array` and anything without a usable type.
    Json,
}

impl AirbyteType {
    fn row(
        self,
    ) -> (
        &'static str,
        Option<&'static str>,
        Option<&'static str>,
        &'static str,
    ) {
        AIRBYTE_TYPES
            .iter()
            .find(|(t, ..)| *t == self)
            .map(|(_, ty, format, airbyte, duck)| (*ty, *format, *airbyte, *duck))
            .unwrap_or(("string", None, None, "VARCHAR"))
    }

    /// The column type of a Destinations V2 final table in DuckDB.
    pub fn duckdb_type(self) -> &'static str {
        self.row().3
    }

    /// The Arrow type readers build batches in (what the staging table holds).
    pub fn arrow_type(self) -> DataType {
        match self {
            Self::String | Self::TimeTz | Self::Json => DataType::Utf8,
            Self::Integer => DataType::Int64,
            Self::Number => DataType::Float64,
            Self::Boolean => DataType::Boolean,
            Self::Date => DataType::Date32,
            Self::TimestampTz => DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
            Self::TimestampNtz => DataType::Timestamp(TimeUnit::Microsecond, None),
            Self::TimeNtz => DataType::Time64(TimeUnit::Microsecond),
        }
    }

    /// The JSON schema of a property of this type (nullable, as Airbyte declares them).
    pub fn json_schema(self) -> Value {
        let (ty, format, airbyte, _) = self.row();
        let mut schema = Map::new();
        schema.insert("type".into(), json!(["null", ty]));
        if let Some(format) = format {
            schema.insert("format".into(), json!(format));
        }
        if let Some(airbyte) = airbyte {
            schema.insert("airbyte_type".into(), json!(airbyte));
        }
        Value::Object(schema)
    }

    /// Reads a property's JSON schema; unknown or missing types are [`AirbyteType::Json`]
    /// for objects and arrays and [`AirbyteType::String`] otherwise.
    pub fn from_json_schema(schema: &Value) -> Self {
        let ty = main_type(schema.get("type"));
        let format = schema.get("format").and_then(Value::as_str);
        let airbyte = schema.get("airbyte_type").and_then(Value::as_str);
        if ty == "number" && airbyte == Some("integer") {
            return Self::Integer;
        }
        let exact = AIRBYTE_TYPES
            .iter()
            .find(|(_, t, f, a, _)| *t == ty && *f == format && (*a == airbyte || a.is_none()));
        let by_format = || {
            AIRBYTE_TYPES
                .iter()
                .find(|(_, t, f, ..)| *t == ty && *f == format)
        };
        match exact.or_else(by_format) {
            Some((t, ..)) => *t,
            None if ty == "array" || ty == "object" => Self::Json,
            None => Self::String,
        }
    }
}

fn main_type(ty: Option<&Value>) -> &str {
    match ty {
        Some(Value::String(s)) => s,
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ => "object",
    }
}

/// One column of a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnSpec {
    /// The property name as the source names it.
    pub source_name: String,
    /// The normalised column name in the warehouse.
    pub name: String,
    pub airbyte_type: AirbyteType,
}

impl ColumnSpec {
    pub fn new(source_name: &str, airbyte_type: AirbyteType) -> Self {
        Self {
            source_name: source_name.to_owned(),
            name: normalize_name(source_name),
            airbyte_type,
        }
    }
}

/// The columns a stream's records carry, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StreamSchema {
    pub columns: Vec<ColumnSpec>,
}

impl StreamSchema {
    /// `properties` of a stream's JSON schema, in declaration order.
    pub fn from_json_schema(schema: &Value) -> Self {
        let columns = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| {
                props
                    .iter()
                    .map(|(name, prop)| ColumnSpec::new(name, AirbyteType::from_json_schema(prop)))
                    .collect()
            })
            .unwrap_or_default();
        Self { columns }
    }

    /// The stream's JSON schema (`{type: object, properties: {...}}`).
    pub fn to_json_schema(&self) -> Value {
        let properties: Map<String, Value> = self
            .columns
            .iter()
            .map(|c| (c.source_name.clone(), c.airbyte_type.json_schema()))
            .collect();
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "additionalProperties": true,
            "properties": properties,
        })
    }

    /// Only the named source columns (all when `selected` is `None`), keeping order.
    pub fn select(&self, selected: Option<&[String]>) -> Self {
        let Some(selected) = selected else {
            return self.clone();
        };
        Self {
            columns: self
                .columns
                .iter()
                .filter(|c| selected.contains(&c.source_name))
                .cloned()
                .collect(),
        }
    }

    /// The position of a source column.
    pub fn position(&self, source_name: &str) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| c.source_name == source_name)
    }

    /// The Arrow schema of the batches readers produce: the columns, then the per-row
    /// typecast changes (`_ab_changes`, JSON text or null).
    pub fn arrow_schema(&self) -> SchemaRef {
        let mut fields: Vec<Field> = self
            .columns
            .iter()
            .map(|c| Field::new(&c.name, c.airbyte_type.arrow_type(), true))
            .collect();
        fields.push(Field::new(CHANGES_COLUMN, DataType::Utf8, true));
        Arc::new(Schema::new(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_schema_round_trips_every_type() {
        for (ty, ..) in AIRBYTE_TYPES {
            assert_eq!(
                AirbyteType::from_json_schema(&ty.json_schema()),
                *ty,
                "{ty:?}"
            );
        }
    }

    #[test]
    fn airbyte_spellings_are_understood() {
        let int = json!({"type": "number", "airbyte_type": "integer"});
        assert_eq!(AirbyteType::from_json_schema(&int), AirbyteType::Integer);
        let ts = json!({"type": ["null", "string"], "format": "date-time"});
        assert_eq!(AirbyteType::from_json_schema(&ts), AirbyteType::TimestampTz);
        let arr = json!({"type": ["null", "array"], "items": {}});
        assert_eq!(AirbyteType::from_json_schema(&arr), AirbyteType::Json);
        assert_eq!(AirbyteType::from_json_schema(&json!({})), AirbyteType::Json);
    }

    #[test]
    fn columns_are_normalised_and_selected() {
        let schema = StreamSchema::from_json_schema(&json!({"properties": {
            "coachID": {"type": "string"}, "Year": {"type": "integer"}
        }}));
        assert_eq!(schema.columns[0].name, "coachid");
        let only = schema.select(Some(&["Year".to_owned()]));
        assert_eq!(only.columns.len(), 1);
        assert_eq!(only.arrow_schema().fields().len(), 2);
    }
}
