//! Writing a canonical table in the file formats sources serve: CSV, JSON Lines, a JSON
//! array, Parquet. Formats are chosen by [`eltbench_task::FileFormat`], the same enum
//! the task config uses; this module never reads a file or touches the network.

pub mod csv;
pub mod json;
pub mod parquet;

use eltbench_task::FileFormat;

use crate::table::Table;

pub use self::parquet::ParquetError;
pub use json::{JsonColumn, JsonKind};

/// Why a table could not be written in a format.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    #[error("cannot write table {table} as CSV: {source}")]
    Csv { table: String, source: ::csv::Error },
    #[error(transparent)]
    Parquet(#[from] ParquetError),
}

/// The bytes of `table` in `format` (JSON kinds from the column types).
pub fn write_table(table: &Table, format: FileFormat) -> Result<Vec<u8>, FormatError> {
    let columns = || json::columns_from_types(table);
    match format {
        FileFormat::Csv => csv::write_csv(table).map_err(|source| FormatError::Csv {
            table: table.name.clone(),
            source,
        }),
        FileFormat::Jsonl => Ok(json::write_lines(table, &columns())),
        FileFormat::Json => Ok(json::write_array(table, &columns())),
        FileFormat::Parquet => Ok(parquet::write_parquet(table)?),
    }
}

/// The file extension of a format.
pub fn extension(format: FileFormat) -> &'static str {
    match format {
        FileFormat::Csv => "csv",
        FileFormat::Jsonl => "jsonl",
        FileFormat::Json => "json",
        FileFormat::Parquet => "parquet",
    }
}

/// The HTTP content type of a format.
pub fn content_type(format: FileFormat) -> &'static str {
    match format {
        FileFormat::Csv => "text/csv; charset=utf-8",
        FileFormat::Jsonl => "application/x-ndjson",
        FileFormat::Json => "application/json",
        FileFormat::Parquet => "application/vnd.apache.parquet",
    }
}
