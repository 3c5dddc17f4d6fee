//! Reading a canonical table file (`data/<db>/<table>.csv`): header, rows, types.
//!
//! CSV rules: RFC 4180 quoting (quoted fields may hold commas, quotes and newlines),
//! `\n`, `\r\n` or `\r` line ends, an optional UTF-8 byte-order mark, UTF-8 text.
//! Every row must have as many fields as the header; a ragged row is an error naming
//! the file and the 1-based line where that row starts (lines are counted by `\n`, so
//! a quoted newline advances the count; see `lines`).
//!
//! NULL: an empty field is NULL. The `csv` crate does not report whether a field was
//! quoted, so an explicitly quoted empty string (`""`) is also read as NULL; the
//! canonical data therefore cannot hold an empty, non-NULL string. (PostgreSQL's own
//! `COPY ... CSV` would keep `""` as an empty string.) Blank lines are skipped.
//!
//! This module never touches a database or the network.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::ddl::{DdlCatalog, TableDdl};
use crate::lines::LineCounting;
use crate::resolve::resolve_columns;
use crate::table::{Rows, Table};

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Why a table file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("cannot open table file {path}: {source}")]
    Open {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: cannot read CSV: {source}")]
    Csv {
        path: PathBuf,
        line: u64,
        source: csv::Error,
    },
    #[error("{path}:{line}: field {field} is not valid UTF-8")]
    Utf8 {
        path: PathBuf,
        line: u64,
        field: usize,
    },
    #[error("{path}:{line}: row has {found} fields but the header has {expected}")]
    Ragged {
        path: PathBuf,
        line: u64,
        expected: usize,
        found: usize,
    },
    #[error("{path}: the file is empty (a header line is required)")]
    NoHeader { path: PathBuf },
    #[error("{path}: header column {position} has an empty name")]
    BlankColumnName { path: PathBuf, position: usize },
    #[error("{path}: header names column `{column}` twice")]
    DuplicateColumn { path: PathBuf, column: String },
}

/// Reads `<suite>/data/<db>/<table>.csv`, typed with the catalog's declaration of
/// `db.table` when there is one.
pub fn read_suite_table(
    suite: &Path,
    db: &str,
    table: &str,
    catalog: Option<&DdlCatalog>,
) -> Result<Table, TableError> {
    let path = suite.join("data").join(db).join(format!("{table}.csv"));
    read_table(&path, table, catalog.and_then(|c| c.table(db, table)))
}

/// Reads one CSV file into a table called `name`. Columns the DDL declares get the
/// declared type (or text, when a value does not fit it); others are inferred.
pub fn read_table(path: &Path, name: &str, ddl: Option<&TableDdl>) -> Result<Table, TableError> {
    let file = File::open(path).map_err(|source| TableError::Open {
        path: path.into(),
        source,
    })?;
    let (header, rows) = read_rows(path, BufReader::with_capacity(1 << 20, file))?;
    let (columns, primary_key) = resolve_columns(&header, &rows, ddl);
    Ok(Table {
        name: name.to_owned(),
        columns,
        primary_key,
        rows,
    })
}

/// Reads the header and all rows from `input` (`path` is only for messages).
pub fn read_rows<R: Read>(
    path: &Path,
    mut input: BufReader<R>,
) -> Result<(Vec<String>, Rows), TableError> {
    skip_bom(&mut input).map_err(|source| TableError::Open {
        path: path.into(),
        source,
    })?;
    let (counting, lines) = LineCounting::new(input);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(counting);
    let mut record = csv::ByteRecord::new();
    if !next_record(path, &mut reader, &mut record)? {
        return Err(TableError::NoHeader { path: path.into() });
    }
    let header = check_header(path, &record, 1)?;
    let mut rows = Rows::new(header.len());
    while next_record(path, &mut reader, &mut record)? {
        let line = lines
            .borrow_mut()
            .line_at(record.position().map_or(0, csv::Position::byte));
        push_row(path, &mut rows, &record, line)?;
    }
    Ok((header, rows))
}

fn skip_bom<R: Read>(input: &mut BufReader<R>) -> std::io::Result<()> {
    if input.fill_buf()?.starts_with(UTF8_BOM) {
        input.consume(UTF8_BOM.len());
    }
    Ok(())
}

fn next_record<R: Read>(
    path: &Path,
    reader: &mut csv::Reader<R>,
    record: &mut csv::ByteRecord,
) -> Result<bool, TableError> {
    reader.read_byte_record(record).map_err(|source| {
        let line = source
            .position()
            .map_or(reader.position().line(), csv::Position::line);
        TableError::Csv {
            path: path.into(),
            line,
            source,
        }
    })
}

fn check_header(
    path: &Path,
    record: &csv::ByteRecord,
    line: u64,
) -> Result<Vec<String>, TableError> {
    let header = utf8_fields(path, record, line)?;
    let mut seen = std::collections::BTreeSet::new();
    for (i, name) in header.iter().enumerate() {
        if name.trim().is_empty() {
            return Err(TableError::BlankColumnName {
                path: path.into(),
                position: i + 1,
            });
        }
        if !seen.insert(*name) {
            return Err(TableError::DuplicateColumn {
                path: path.into(),
                column: name.to_string(),
            });
        }
    }
    Ok(header.into_iter().map(str::to_owned).collect())
}

fn push_row(
    path: &Path,
    rows: &mut Rows,
    record: &csv::ByteRecord,
    line: u64,
) -> Result<(), TableError> {
    let expected = rows.width();
    let ragged = |found| TableError::Ragged {
        path: path.into(),
        line,
        expected,
        found,
    };
    if record.len() != rows.width() {
        return Err(ragged(record.len()));
    }
    let fields = utf8_fields(path, record, line)?;
    rows.push(line, fields).map_err(ragged)
}

fn utf8_fields<'r>(
    path: &Path,
    record: &'r csv::ByteRecord,
    line: u64,
) -> Result<Vec<&'r str>, TableError> {
    record
        .iter()
        .enumerate()
        .map(|(i, field)| {
            std::str::from_utf8(field).map_err(|_| TableError::Utf8 {
                path: path.into(),
                line,
                field: i + 1,
            })
        })
        .collect()
}
