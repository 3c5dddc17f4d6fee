//! [`RawTable`]: one source table held as text (header + rows, `None` = NULL),
//! read from a CSV file or a SQLite table and written back as canonical CSV
//! (NULL = empty field). This module never infers types.

use std::path::Path;

use crate::error::{AuthorError, write_text};

/// A table as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawTable {
    /// Table name (the CSV file stem or the SQLite table name).
    pub name: String,
    /// Column names in order.
    pub header: Vec<String>,
    /// Rows; `None` is NULL (an empty CSV field).
    pub rows: Vec<Vec<Option<String>>>,
}

impl RawTable {
    /// The values of column `index`.
    pub fn column(&self, index: usize) -> impl Iterator<Item = Option<&str>> + Clone {
        self.rows
            .iter()
            .map(move |row| row.get(index).and_then(|v| v.as_deref()))
    }

    /// Reads a CSV file with a header line; the table is named after the stem.
    pub fn read_csv(path: &Path) -> Result<Self, AuthorError> {
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| AuthorError::csv(path, "the file name is not UTF-8"))?
            .to_owned();
        let mut reader = csv::Reader::from_path(path).map_err(|e| AuthorError::csv(path, e))?;
        let header: Vec<String> = reader
            .headers()
            .map_err(|e| AuthorError::csv(path, e))?
            .iter()
            .map(|h| h.trim().to_owned())
            .collect();
        if header.is_empty() || header.iter().any(String::is_empty) {
            return Err(AuthorError::csv(
                path,
                "line 1: the header has an empty column name",
            ));
        }
        let mut rows = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| AuthorError::csv(path, e))?;
            rows.push(record.iter().map(to_value).collect());
        }
        Ok(Self { name, header, rows })
    }

    /// Writes the table as CSV (header, then rows; NULL = empty field).
    pub fn write_csv(&self, path: &Path) -> Result<(), AuthorError> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let fail = |e: csv::Error| AuthorError::csv(path, e);
        writer.write_record(&self.header).map_err(fail)?;
        for row in &self.rows {
            writer
                .write_record(row.iter().map(|v| v.as_deref().unwrap_or("")))
                .map_err(fail)?;
        }
        let bytes = writer
            .into_inner()
            .map_err(|e| AuthorError::csv(path, e.to_string()))?;
        write_text(path, &String::from_utf8_lossy(&bytes))
    }
}

fn to_value(field: &str) -> Option<String> {
    (!field.is_empty()).then(|| field.to_owned())
}

/// Every `*.csv` file of `dir` as a table, sorted by name.
pub fn read_csv_dir(dir: &Path) -> Result<Vec<RawTable>, AuthorError> {
    let entries = std::fs::read_dir(dir).map_err(|e| AuthorError::read(dir, e))?;
    let mut paths: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(AuthorError::BadInput(format!(
            "{} holds no `.csv` file",
            dir.display()
        )));
    }
    paths.iter().map(|p| RawTable::read_csv(p)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_round_trips_with_nulls_as_empty_fields() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("people.csv");
        std::fs::write(&path, "id,name\n1,\"Ann, B\"\n2,\n").unwrap();
        let table = RawTable::read_csv(&path).unwrap();
        assert_eq!(table.name, "people");
        assert_eq!(table.rows[1], vec![Some("2".into()), None]);
        let out = dir.path().join("out.csv");
        table.write_csv(&out).unwrap();
        assert_eq!(
            std::fs::read_to_string(out).unwrap(),
            "id,name\n1,\"Ann, B\"\n2,\n"
        );
    }

    #[test]
    fn an_empty_directory_is_bad_input() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_csv_dir(dir.path()).unwrap_err();
        assert!(
            err.is_bad_input() && err.to_string().contains("no `.csv`"),
            "{err}"
        );
    }
}
