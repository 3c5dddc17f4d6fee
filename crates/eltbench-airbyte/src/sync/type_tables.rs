//! Airbyte's type mappings as data: how each source kind's native types become Airbyte
//! types, and how Airbyte types become DuckDB column types in a final table.
//!
//! One line per type, like connector-x's `Int4 => Int32` lines. `number` lands as
//! DOUBLE, as destination-snowflake (the original ELT-Bench warehouse) lands it as
//! FLOAT. Only data lives here: no parsing, no I/O.

use bson::spec::ElementType;
use duckdb::arrow::datatypes::DataType;

use super::typing::AirbyteType::{self, *};

/// `(type, JSON schema type, format, airbyte_type, DuckDB column type)`.
pub type TypeRow = (
    AirbyteType,
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    &'static str,
);

/// Airbyte types, their JSON schema spelling, and the DuckDB final-table type.
pub const AIRBYTE_TYPES: &[TypeRow] = &[
    (String, "string", None, None, "VARCHAR"),
    (Integer, "integer", None, None, "BIGINT"),
    (Number, "number", None, None, "DOUBLE"),
    (Boolean, "boolean", None, None, "BOOLEAN"),
    (Date, "string", Some("date"), None, "DATE"),
    (
        TimestampTz,
        "string",
        Some("date-time"),
        Some("timestamp_with_timezone"),
        "TIMESTAMP WITH TIME ZONE",
    ),
    (
        TimestampNtz,
        "string",
        Some("date-time"),
        Some("timestamp_without_timezone"),
        "TIMESTAMP",
    ),
    (
        TimeTz,
        "string",
        Some("time"),
        Some("time_with_timezone"),
        "VARCHAR",
    ),
    (
        TimeNtz,
        "string",
        Some("time"),
        Some("time_without_timezone"),
        "TIME",
    ),
    (Json, "object", None, None, "JSON"),
];

/// source-postgres: `udt_name` → Airbyte type. Array types (`_int4`...) are `array`
/// (JSON); any type not listed is a string.
pub const POSTGRES_TYPES: &[(&str, AirbyteType)] = &[
    ("int2", Integer),
    ("int4", Integer),
    ("int8", Integer),
    ("oid", Integer),
    ("float4", Number),
    ("float8", Number),
    ("numeric", Number),
    ("money", Number),
    ("bool", Boolean),
    ("date", Date),
    ("timestamp", TimestampNtz),
    ("timestamptz", TimestampTz),
    ("time", TimeNtz),
    ("timetz", TimeTz),
    ("json", Json),
    ("jsonb", Json),
    ("text", String),
    ("varchar", String),
    ("bpchar", String),
    ("uuid", String),
];

/// source-mongodb-v2: BSON element type → Airbyte type (numbers are `number`).
pub const MONGODB_TYPES: &[(ElementType, AirbyteType)] = &[
    (ElementType::Double, Number),
    (ElementType::Int32, Number),
    (ElementType::Int64, Number),
    (ElementType::Decimal128, Number),
    (ElementType::String, String),
    (ElementType::ObjectId, String),
    (ElementType::Symbol, String),
    (ElementType::Boolean, Boolean),
    (ElementType::DateTime, TimestampTz),
    (ElementType::Timestamp, TimestampTz),
    (ElementType::EmbeddedDocument, Json),
    (ElementType::Array, Json),
];

/// source-s3 / source-file Parquet columns: Arrow type → Airbyte type. Nested types
/// (lists, structs, maps) are JSON; anything else not listed is a string.
pub fn arrow_type(data_type: &DataType) -> AirbyteType {
    match data_type {
        DataType::Int8 | DataType::Int16 | DataType::Int32 | DataType::Int64 => Integer,
        DataType::UInt8 | DataType::UInt16 | DataType::UInt32 | DataType::UInt64 => Integer,
        DataType::Float16 | DataType::Float32 | DataType::Float64 => Number,
        DataType::Decimal32(..) | DataType::Decimal64(..) => Number,
        DataType::Decimal128(..) | DataType::Decimal256(..) => Number,
        DataType::Boolean => Boolean,
        DataType::Date32 | DataType::Date64 => Date,
        DataType::Timestamp(_, Some(_)) => TimestampTz,
        DataType::Timestamp(_, None) => TimestampNtz,
        DataType::Time32(_) | DataType::Time64(_) => TimeNtz,
        DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(..) => Json,
        DataType::Struct(_) | DataType::Map(..) => Json,
        _ => String,
    }
}

/// Looks a name up in a `(name, type)` table.
pub fn lookup<K: PartialEq + Copy>(table: &[(K, AirbyteType)], key: K) -> Option<AirbyteType> {
    table.iter().find(|(k, _)| *k == key).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_airbyte_type_has_one_row() {
        let mut seen: Vec<AirbyteType> = AIRBYTE_TYPES.iter().map(|r| r.0).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), AIRBYTE_TYPES.len());
    }

    #[test]
    fn source_tables_map_as_airbyte_does() {
        assert_eq!(lookup(POSTGRES_TYPES, "int4"), Some(Integer));
        assert_eq!(lookup(POSTGRES_TYPES, "numeric"), Some(Number));
        assert_eq!(lookup(MONGODB_TYPES, ElementType::Int32), Some(Number));
        assert_eq!(lookup(POSTGRES_TYPES, "point"), None);
    }
}
