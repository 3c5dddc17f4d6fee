//! The canonical table written as a Parquet file (one row group per 64k rows, Snappy).
//!
//! Physical types follow the column types: booleans, 16/32/64-bit integers, `real` as
//! float, `double`/`numeric` as double, `date` as DATE, `timestamp` as microsecond
//! TIMESTAMP (no zone), everything else as UTF-8 strings; every column is nullable. A
//! value that does not fit its column type is an error, never a silent NULL (the
//! table reader already checked every value, so this means a bug, not bad data).

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Date32Builder, Float32Builder, Float64Builder, Int16Builder, Int32Builder,
    Int64Builder, StringBuilder, TimestampMicrosecondBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use crate::datetime::{date_days, timestamp_micros};
use crate::table::Table;
use crate::types::ColumnType;
use crate::values::{parse_float, parse_int, pg_boolean};

/// Rows per record batch and row group.
const BATCH_ROWS: usize = 65_536;

/// Why a Parquet file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ParquetError {
    #[error("table {table}, column `{column}`, line {line}: `{value}` is not a valid {ty}")]
    Value {
        table: String,
        column: String,
        line: u64,
        value: String,
        ty: ColumnType,
    },
    #[error("cannot encode table {table} as Parquet: {detail}")]
    Encode { table: String, detail: String },
}

/// The Arrow type a column type is stored as.
fn arrow_type(ty: &ColumnType) -> DataType {
    match ty {
        ColumnType::Boolean => DataType::Boolean,
        ColumnType::SmallInt => DataType::Int16,
        ColumnType::Integer => DataType::Int32,
        ColumnType::BigInt => DataType::Int64,
        ColumnType::Real => DataType::Float32,
        ColumnType::Double | ColumnType::Numeric(_) => DataType::Float64,
        ColumnType::Date => DataType::Date32,
        ColumnType::Timestamp => DataType::Timestamp(TimeUnit::Microsecond, None),
        ColumnType::Text | ColumnType::Varchar(_) | ColumnType::Char(_) => DataType::Utf8,
    }
}

/// The table as Parquet bytes.
pub fn write_parquet(table: &Table) -> Result<Vec<u8>, ParquetError> {
    let encode = |e: &dyn std::fmt::Display| ParquetError::Encode {
        table: table.name.clone(),
        detail: e.to_string(),
    };
    let fields: Vec<Field> = table
        .columns
        .iter()
        .map(|c| Field::new(&c.name, arrow_type(&c.ty), true))
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(BATCH_ROWS))
        .build();
    let mut out = Vec::new();
    let mut writer =
        ArrowWriter::try_new(&mut out, Arc::clone(&schema), Some(props)).map_err(|e| encode(&e))?;
    for start in (0..table.len()).step_by(BATCH_ROWS) {
        let end = (start + BATCH_ROWS).min(table.len());
        let arrays = (0..table.columns.len())
            .map(|c| column_array(table, c, start, end))
            .collect::<Result<Vec<_>, _>>()?;
        let batch = RecordBatch::try_new(Arc::clone(&schema), arrays).map_err(|e| encode(&e))?;
        writer.write(&batch).map_err(|e| encode(&e))?;
    }
    writer.close().map_err(|e| encode(&e))?;
    Ok(out)
}

/// Column `col` of rows `start..end` as an Arrow array.
fn column_array(
    table: &Table,
    col: usize,
    start: usize,
    end: usize,
) -> Result<ArrayRef, ParquetError> {
    let column = &table.columns[col];
    let rows = || {
        table
            .rows
            .iter()
            .skip(start)
            .take(end - start)
            .map(move |r| (r.line(), r.get(col)))
    };
    let bad = |line: u64, value: &str| ParquetError::Value {
        table: table.name.clone(),
        column: column.name.clone(),
        line,
        value: value.to_owned(),
        ty: column.ty,
    };
    macro_rules! build {
        ($builder:ty, $parse:expr) => {{
            let mut b = <$builder>::with_capacity(end - start);
            for (line, v) in rows() {
                match v {
                    None => b.append_null(),
                    Some(v) => b.append_value($parse(v).ok_or_else(|| bad(line, v))?),
                }
            }
            Arc::new(b.finish()) as ArrayRef
        }};
    }
    let int = |v: &str| parse_int(v.trim());
    Ok(match column.ty {
        ColumnType::Boolean => build!(BooleanBuilder, pg_boolean),
        ColumnType::SmallInt => {
            build!(Int16Builder, |v| int(v).and_then(|n| i16::try_from(n).ok()))
        }
        ColumnType::Integer => build!(Int32Builder, |v| int(v).and_then(|n| i32::try_from(n).ok())),
        ColumnType::BigInt => build!(Int64Builder, int),
        ColumnType::Real => build!(Float32Builder, |v| parse_float(v).map(|f| f as f32)),
        ColumnType::Double | ColumnType::Numeric(_) => build!(Float64Builder, parse_float),
        ColumnType::Date => build!(Date32Builder, date_days),
        ColumnType::Timestamp => build!(TimestampMicrosecondBuilder, timestamp_micros),
        ColumnType::Text | ColumnType::Varchar(_) | ColumnType::Char(_) => {
            let mut b = StringBuilder::with_capacity(end - start, 0);
            for (_, v) in rows() {
                b.append_option(v);
            }
            Arc::new(b.finish())
        }
    })
}
