//! The fast path for Parquet files on disk: DuckDB's `read_parquet` reads the stream
//! straight into the destination when every column it reads has an Arrow type whose
//! values DuckDB gives exactly as the Rust reader's cast does (integers up to 32-bit
//! unsigned / 64-bit signed, floats, booleans, UTF-8 strings, dates, and timestamps in
//! seconds, milliseconds or microseconds). Decimals, nanosecond timestamps, binary,
//! dictionary, nested and other types keep the Rust reader, as do files whose column
//! names repeat when case is ignored. This module reads only the file's footer and
//! builds SQL text.

use std::path::Path;

use duckdb::arrow::datatypes::{DataType, TimeUnit};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::sync::modes::stage_type;
use crate::sync::naming::{quote_ident, quote_literal};
use crate::sync::records::CHANGES_COLUMN;
use crate::sync::type_tables::arrow_type;
use crate::sync::typing::StreamSchema;

/// `SELECT` of `schema`'s columns (then a NULL `_ab_changes`) from the Parquet file
/// at `path`; `None` when a column needs the Rust reader.
pub fn select_sql(path: &Path, schema: &StreamSchema) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).ok()?;
    let fields = builder.schema().fields();
    let mut folded: Vec<String> = fields.iter().map(|f| f.name().to_lowercase()).collect();
    folded.sort_unstable();
    folded.dedup();
    if folded.len() != fields.len() || schema.columns.is_empty() {
        return None;
    }
    let mut columns = Vec::with_capacity(schema.columns.len() + 1);
    for column in &schema.columns {
        let ty = stage_type(column.airbyte_type);
        let source = match fields.iter().find(|f| f.name() == &column.source_name) {
            Some(field)
                if exact(field.data_type())
                    && arrow_type(field.data_type()) == column.airbyte_type =>
            {
                quote_ident(field.name())
            }
            Some(_) => return None,
            None => "NULL".to_owned(),
        };
        columns.push(format!(
            "CAST({source} AS {ty}) AS {}",
            quote_ident(&column.name)
        ));
    }
    columns.push(format!(
        "CAST(NULL AS VARCHAR) AS {}",
        quote_ident(CHANGES_COLUMN)
    ));
    Some(format!(
        "SELECT {} FROM read_parquet({})",
        columns.join(", "),
        quote_literal(&path.to_string_lossy())
    ))
}

/// Arrow types whose values DuckDB reads exactly as the Rust reader casts them.
fn exact(data_type: &DataType) -> bool {
    match data_type {
        DataType::Int8
        | DataType::Int16
        | DataType::Int32
        | DataType::Int64
        | DataType::UInt8
        | DataType::UInt16
        | DataType::UInt32
        | DataType::Float32
        | DataType::Float64
        | DataType::Boolean
        | DataType::Utf8
        | DataType::LargeUtf8
        | DataType::Date32 => true,
        DataType::Timestamp(unit, _) => !matches!(unit, TimeUnit::Nanosecond),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_exact_types_are_native() {
        assert!(exact(&DataType::Int64) && exact(&DataType::Utf8));
        assert!(exact(&DataType::Timestamp(TimeUnit::Millisecond, None)));
        assert!(!exact(&DataType::Timestamp(TimeUnit::Nanosecond, None)));
        assert!(!exact(&DataType::UInt64) && !exact(&DataType::Decimal128(10, 2)));
        assert!(!exact(&DataType::Binary));
    }
}
