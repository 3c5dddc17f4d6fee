//! A canonical table as MongoDB documents: one document per row, fields in column
//! order, empty (NULL) fields left out, values typed by the column type:
//! integers as Int32 when they fit and Int64 otherwise (as pymongo encodes them),
//! `real`/`double`/`numeric` as Double, booleans as Boolean, `date` and `timestamp` as
//! BSON dates (UTC, milliseconds: sub-millisecond digits are dropped), the rest as
//! strings. A value that does not parse as its type stays a string; nothing is lost.
//! This module only builds documents and fills a [`Store`]; it never serves them.

use bson::{Bson, DateTime, Document};
use eltbench_mongo::Store;

use crate::datetime::{date_days, timestamp_micros};
use crate::table::{Row, Table};
use crate::types::ColumnType;
use crate::values::{parse_float, parse_int, pg_boolean};

const MILLIS_PER_DAY: i64 = 86_400_000;

/// Inserts every row of `table` into collection `table.name` of database `db`;
/// returns the number of documents inserted. An empty table still creates the
/// collection.
pub fn load_collection(store: &Store, db: &str, table: &Table) -> usize {
    store.create_collection(db, &table.name);
    let docs: Vec<Document> = table.rows.iter().map(|row| document(table, &row)).collect();
    store.insert_many(db, &table.name, docs)
}

/// One row as a document.
pub fn document(table: &Table, row: &Row<'_>) -> Document {
    let mut doc = Document::new();
    for (i, column) in table.columns.iter().enumerate() {
        if let Some(value) = row.get(i) {
            doc.insert(column.name.clone(), bson_value(&column.ty, value));
        }
    }
    doc
}

/// The BSON value of a non-NULL field of type `ty`.
pub fn bson_value(ty: &ColumnType, value: &str) -> Bson {
    typed(ty, value).unwrap_or_else(|| Bson::String(value.to_owned()))
}

fn typed(ty: &ColumnType, value: &str) -> Option<Bson> {
    Some(match ty {
        ColumnType::Boolean => Bson::Boolean(pg_boolean(value)?),
        ColumnType::SmallInt | ColumnType::Integer | ColumnType::BigInt => {
            let n = parse_int(value.trim())?;
            i32::try_from(n).map_or(Bson::Int64(n), Bson::Int32)
        }
        ColumnType::Real | ColumnType::Double | ColumnType::Numeric(_) => {
            Bson::Double(parse_float(value)?)
        }
        ColumnType::Date => {
            let millis = i64::from(date_days(value)?) * MILLIS_PER_DAY;
            Bson::DateTime(DateTime::from_millis(millis))
        }
        ColumnType::Timestamp => {
            let millis = timestamp_micros(value)?.div_euclid(1000);
            Bson::DateTime(DateTime::from_millis(millis))
        }
        ColumnType::Text | ColumnType::Varchar(_) | ColumnType::Char(_) => {
            Bson::String(value.to_owned())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_take_the_bson_type_of_their_column() {
        assert_eq!(bson_value(&ColumnType::BigInt, "42"), Bson::Int32(42));
        assert_eq!(
            bson_value(&ColumnType::BigInt, "75805000264"),
            Bson::Int64(75_805_000_264)
        );
        assert_eq!(
            bson_value(&ColumnType::Numeric(None), "1.50"),
            Bson::Double(1.5)
        );
        assert_eq!(
            bson_value(&ColumnType::Boolean, "FALSE"),
            Bson::Boolean(false)
        );
        assert_eq!(
            bson_value(&ColumnType::Timestamp, "1970-01-02T00:00:00.0019"),
            Bson::DateTime(DateTime::from_millis(MILLIS_PER_DAY + 1))
        );
        assert_eq!(
            bson_value(&ColumnType::Date, "1969-12-31"),
            Bson::DateTime(DateTime::from_millis(-MILLIS_PER_DAY))
        );
        assert_eq!(
            bson_value(&ColumnType::Text, "007"),
            Bson::String("007".into())
        );
    }
}
