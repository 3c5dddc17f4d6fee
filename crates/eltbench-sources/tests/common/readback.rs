//! Values read back through real clients, compared with the canonical CSV table.
//!
//! Every client's value is first turned into a [`Got`]; [`check_rows`] then demands
//! the same number of rows and, cell by cell, a value equal to the CSV field under
//! the normalisation of `normalise` (numbers by value, booleans by truth, dates and
//! timestamps by calendar fields up to the precision the format keeps, text exactly).
#![allow(dead_code)]

use eltbench_sources::{ColumnType, Table};

use super::normalise;

/// One value as a client returned it.
#[derive(Clone, Debug, PartialEq)]
pub enum Got {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// `YYYY-MM-DD HH:MM:SS.fff...` with as many fraction digits as the format keeps.
    Time(String),
}

/// Which JSON/BSON/Arrow kinds a column's values must come back as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typing {
    /// Anything that matches by value (CSV files).
    Any,
    /// JSON: numbers for numeric columns, booleans for booleans, strings otherwise.
    Json,
    /// Native dates too (BSON, Parquet).
    Native,
}

pub fn bool_word(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "t" | "true" | "y" | "yes" | "on" | "1" => Some(true),
        "f" | "false" | "n" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// Whether `got` equals the CSV field `csv` of a column of type `ty`.
pub fn matches(ty: ColumnType, csv: Option<&str>, got: &Got) -> bool {
    let Some(text) = csv else {
        return *got == Got::Null;
    };
    match got {
        Got::Null => false,
        Got::Bool(b) => bool_word(text) == Some(*b),
        Got::Int(n) => text.trim().parse::<i64>().ok() == Some(*n),
        Got::Float(f) if ty == ColumnType::Real => {
            text.trim().parse::<f32>().ok() == Some(*f as f32)
        }
        Got::Float(f) => text.trim().parse::<f64>().ok() == Some(*f),
        Got::Str(s) => s == text,
        Got::Time(t) => {
            let canonical = normalise::timestamp(text.trim());
            t.len() <= canonical.len() && canonical.starts_with(t.as_str())
        }
    }
}

/// Whether `got` has the kind `typing` demands for a column of type `ty`.
pub fn kind_ok(ty: ColumnType, typing: Typing, got: &Got) -> bool {
    use ColumnType as T;
    if typing == Typing::Any || *got == Got::Null {
        return true;
    }
    match ty {
        T::Boolean => matches!(got, Got::Bool(_)),
        T::SmallInt | T::Integer | T::BigInt => matches!(got, Got::Int(_)),
        T::Real | T::Double | T::Numeric(_) => matches!(got, Got::Int(_) | Got::Float(_)),
        T::Date | T::Timestamp if typing == Typing::Native => matches!(got, Got::Time(_)),
        _ => matches!(got, Got::Str(_)),
    }
}

/// Compares rows read back (in file order) with the table; panics naming the cell.
pub fn check_rows(what: &str, table: &Table, typing: Typing, got: &[Vec<Got>]) {
    assert_eq!(got.len(), table.len(), "{what}: row count");
    for (row, values) in table.rows.iter().zip(got) {
        assert_eq!(values.len(), table.columns.len(), "{what}: width");
        for (i, (col, value)) in table.columns.iter().zip(values).enumerate() {
            let csv = row.get(i);
            assert!(
                matches(col.ty, csv, value) && kind_ok(col.ty, typing, value),
                "{what}: line {} column `{}` ({}): CSV {csv:?} but read {value:?}",
                row.line(),
                col.name,
                col.ty
            );
        }
    }
}

/// A JSON object's fields in column order.
pub fn from_json(table: &Table, object: &serde_json::Value) -> Vec<Got> {
    table
        .columns
        .iter()
        .map(|c| match object.get(&c.name) {
            None | Some(serde_json::Value::Null) => Got::Null,
            Some(serde_json::Value::Bool(b)) => Got::Bool(*b),
            Some(serde_json::Value::Number(n)) => n
                .as_i64()
                .map_or_else(|| Got::Float(n.as_f64().unwrap()), Got::Int),
            Some(serde_json::Value::String(s)) => Got::Str(s.clone()),
            Some(other) => panic!("unexpected JSON value {other}"),
        })
        .collect()
}

/// Rows of a JSON array or JSON Lines body.
pub fn json_rows(table: &Table, body: &[u8], lines: bool) -> Vec<Vec<Got>> {
    let objects: Vec<serde_json::Value> = if lines {
        body.split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect()
    } else {
        serde_json::from_slice(body).unwrap()
    };
    objects.iter().map(|o| from_json(table, o)).collect()
}

/// Rows of a CSV body (header must equal the table's columns).
pub fn csv_rows(table: &Table, body: &[u8]) -> Vec<Vec<Got>> {
    let mut reader = csv::Reader::from_reader(body);
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(header, names);
    reader
        .records()
        .map(|r| {
            r.unwrap()
                .iter()
                .map(|f| {
                    if f.is_empty() {
                        Got::Null
                    } else {
                        Got::Str(f.to_owned())
                    }
                })
                .collect()
        })
        .collect()
}

/// Rows of a Parquet body, read with the `parquet` crate's Arrow reader.
pub fn parquet_rows(table: &Table, body: Vec<u8>) -> Vec<Vec<Got>> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(body))
        .unwrap()
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        for r in 0..batch.num_rows() {
            rows.push(
                (0..table.columns.len())
                    .map(|c| arrow_value(batch.column(c).as_ref(), r))
                    .collect(),
            );
        }
    }
    rows
}

fn arrow_value(array: &dyn arrow_array::Array, row: usize) -> Got {
    use arrow_array::cast::AsArray;
    use arrow_array::types::*;
    use arrow_schema::{DataType, TimeUnit};
    if array.is_null(row) {
        return Got::Null;
    }
    match array.data_type() {
        DataType::Boolean => Got::Bool(array.as_boolean().value(row)),
        DataType::Int16 => Got::Int(array.as_primitive::<Int16Type>().value(row).into()),
        DataType::Int32 => Got::Int(array.as_primitive::<Int32Type>().value(row).into()),
        DataType::Int64 => Got::Int(array.as_primitive::<Int64Type>().value(row)),
        DataType::Float32 => Got::Float(array.as_primitive::<Float32Type>().value(row).into()),
        DataType::Float64 => Got::Float(array.as_primitive::<Float64Type>().value(row)),
        DataType::Utf8 => Got::Str(array.as_string::<i32>().value(row).to_owned()),
        DataType::Date32 => {
            let days = array.as_primitive::<Date32Type>().value(row);
            Got::Time(civil(i64::from(days)))
        }
        DataType::Timestamp(TimeUnit::Microsecond, None) => {
            let micros = array.as_primitive::<TimestampMicrosecondType>().value(row);
            Got::Time(time_text(micros, 6))
        }
        other => panic!("unexpected Parquet type {other}"),
    }
}

/// A BSON value.
pub fn from_bson(value: Option<&bson::Bson>) -> Got {
    match value {
        None | Some(bson::Bson::Null) => Got::Null,
        Some(bson::Bson::Boolean(b)) => Got::Bool(*b),
        Some(bson::Bson::Int32(n)) => Got::Int((*n).into()),
        Some(bson::Bson::Int64(n)) => Got::Int(*n),
        Some(bson::Bson::Double(f)) => Got::Float(*f),
        Some(bson::Bson::String(s)) => Got::Str(s.clone()),
        Some(bson::Bson::DateTime(d)) => Got::Time(time_text(d.timestamp_millis() * 1000, 3)),
        Some(other) => panic!("unexpected BSON value {other}"),
    }
}

/// `micros` since the epoch as `YYYY-MM-DD HH:MM:SS.f` with `digits` fraction digits;
/// a value at midnight with no fraction is just the date (a `date` column).
pub fn time_text(micros: i64, digits: usize) -> String {
    let days = micros.div_euclid(86_400_000_000);
    let of_day = micros.rem_euclid(86_400_000_000);
    let (h, m, s) = (
        of_day / 3_600_000_000,
        of_day / 60_000_000 % 60,
        of_day / 1_000_000 % 60,
    );
    let frac = format!("{:06}", of_day % 1_000_000);
    format!("{} {h:02}:{m:02}:{s:02}.{}", civil(days), &frac[..digits])
}

/// Days since the epoch → `YYYY-MM-DD` (Howard Hinnant's algorithm).
pub fn civil(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[test]
fn readback_comparison_is_strict_where_it_matters() {
    assert!(matches(
        ColumnType::Numeric(None),
        Some("12.50"),
        &Got::Float(12.5)
    ));
    assert!(!matches(
        ColumnType::Numeric(None),
        Some("12.50"),
        &Got::Float(12.51)
    ));
    assert!(matches(
        ColumnType::Boolean,
        Some("FALSE"),
        &Got::Bool(false)
    ));
    assert!(!matches(ColumnType::Text, Some("a"), &Got::Null));
    assert!(matches(
        ColumnType::Timestamp,
        Some("2024-02-29T23:59:59.123"),
        &Got::Time(time_text(1_709_251_199_123_000, 3))
    ));
    assert!(matches(
        ColumnType::Date,
        Some("2024-02-29"),
        &Got::Time(civil(19_782))
    ));
    assert!(!kind_ok(
        ColumnType::BigInt,
        Typing::Json,
        &Got::Str("1".into())
    ));
}
