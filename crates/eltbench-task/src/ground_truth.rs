//! Ground-truth CSVs (`gt/<db>/<model>.csv`): header plus rows, empty field
//! = NULL.
//!
//! Tolerates a UTF-8 byte-order mark and quoted newlines; a row with the
//! wrong number of fields is an error naming its 1-based line. Comparing
//! against a warehouse is the scorer's job, never this module's.

use std::path::{Path, PathBuf};

use crate::SuiteError;
use crate::error::read_text;
use crate::schema::csv_line;

/// A ground-truth CSV: header and rows, empty fields as `None` (NULL).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroundTruth {
    /// The file it came from.
    pub path: PathBuf,
    /// Column names in file order.
    pub header: Vec<String>,
    /// Rows, each as long as `header`.
    pub rows: Vec<Vec<Option<String>>>,
}

impl GroundTruth {
    /// Reads and parses a ground-truth file.
    pub fn read(path: &Path) -> Result<Self, SuiteError> {
        Self::parse(&read_text(path)?, path)
    }

    /// Parses ground-truth CSV text (`path` is for messages).
    pub fn parse(text: &str, path: &Path) -> Result<Self, SuiteError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut records = reader.records();
        let invalid =
            |e: csv::Error| SuiteError::invalid(path, csv_line(&e), format!("invalid CSV: {e}"));
        let Some(header) = records.next().transpose().map_err(invalid)? else {
            return Err(SuiteError::invalid(
                path,
                Some(1),
                "empty file: expected a header line",
            ));
        };
        let header: Vec<String> = header.iter().map(str::to_owned).collect();
        let mut rows = Vec::new();
        for record in records {
            let record = record.map_err(invalid)?;
            if record.len() != header.len() {
                let line = record.position().map(|p| p.line() as usize);
                let message = format!(
                    "row has {} fields, the header has {}",
                    record.len(),
                    header.len()
                );
                return Err(SuiteError::invalid(path, line, message));
            }
            rows.push(
                record
                    .iter()
                    .map(|f| (!f.is_empty()).then(|| f.to_owned()))
                    .collect(),
            );
        }
        Ok(Self {
            path: path.to_path_buf(),
            header,
            rows,
        })
    }

    /// The index of a column, case-insensitively.
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name).or_else(|| {
            self.header
                .iter()
                .position(|h| h.eq_ignore_ascii_case(name))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<GroundTruth, SuiteError> {
        GroundTruth::parse(text, Path::new("gt/a/m.csv"))
    }

    #[test]
    fn empty_fields_are_null_and_quoted_newlines_stay() {
        let gt = parse("\u{feff}id,note\n1,\n2,\"two\nlines\"\n3,x\n").unwrap();
        assert_eq!(gt.header, ["id", "note"]);
        assert_eq!(gt.rows[0], [Some("1".to_owned()), None]);
        assert_eq!(gt.rows[1][1].as_deref(), Some("two\nlines"));
        assert_eq!(gt.rows.len(), 3);
        assert_eq!(gt.column_index("NOTE"), Some(1));
    }

    #[test]
    fn a_ragged_row_names_its_line_after_a_quoted_newline() {
        let err = parse("id,note\n1,\"a\nb\"\n2\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "gt/a/m.csv:4: row has 1 fields, the header has 2"
        );
        assert!(err.is_bad_input());
    }

    #[test]
    fn an_empty_file_is_invalid() {
        assert!(parse("").unwrap_err().to_string().contains("empty file"));
    }

    #[test]
    fn bom_is_stripped_when_read_from_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.csv");
        std::fs::write(&path, b"\xEF\xBB\xBFid\n1\n").unwrap();
        assert_eq!(GroundTruth::read(&path).unwrap().header, ["id"]);
    }
}
