//! `schemas/<table>.csv`: the columns of one source table
//! (`column_name,column_description`).
//!
//! The original has rows whose description holds unquoted commas; they are
//! read back as one description (with a warning), never rejected. This
//! module does not check schemas against data files.

use std::path::{Path, PathBuf};

use crate::{Problem, SuiteError};

/// The header every schema file starts with.
pub const SCHEMA_HEADER: [&str; 2] = ["column_name", "column_description"];

/// One column of a source table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SchemaColumn {
    /// Column name.
    pub name: String,
    /// Its description.
    pub description: String,
}

/// The rows of `schemas/<table>.csv`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TableSchema {
    /// The file.
    pub path: PathBuf,
    /// Columns in file order.
    pub columns: Vec<SchemaColumn>,
}

impl TableSchema {
    /// A column by name, case-insensitively.
    pub fn column(&self, name: &str) -> Option<&SchemaColumn> {
        self.columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }
}

/// Parses a schema file: the schema, plus problems (a wrong header is an
/// error; a row with unquoted commas or no description is a warning).
pub(crate) fn parse(text: &str, path: &Path) -> Result<(TableSchema, Vec<Problem>), SuiteError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut problems = Vec::new();
    let mut columns = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let line = record
            .as_ref()
            .ok()
            .and_then(|r| r.position())
            .map(|p| p.line() as usize);
        let record = record
            .map_err(|e| SuiteError::invalid(path, csv_line(&e), format!("invalid CSV: {e}")))?;
        let fields: Vec<&str> = record.iter().collect();
        if index == 0 {
            check_header(&fields, path, line, &mut problems);
            continue;
        }
        columns.push(row(&fields, path, line, &mut problems));
    }
    if columns.is_empty() {
        problems.push(Problem::error(path, None, "schema lists no columns"));
    }
    Ok((
        TableSchema {
            path: path.to_path_buf(),
            columns,
        },
        problems,
    ))
}

fn check_header(fields: &[&str], path: &Path, line: Option<usize>, problems: &mut Vec<Problem>) {
    if fields != SCHEMA_HEADER {
        let message = format!(
            "schema header is `{}`, expected `{}`",
            fields.join(","),
            SCHEMA_HEADER.join(",")
        );
        problems.push(Problem::error(path, line, message));
    }
}

fn row(
    fields: &[&str],
    path: &Path,
    line: Option<usize>,
    problems: &mut Vec<Problem>,
) -> SchemaColumn {
    let name = fields.first().copied().unwrap_or_default().to_owned();
    match fields.len() {
        2 => {}
        1 => problems.push(Problem::warning(
            path,
            line,
            format!("column `{name}` has no description"),
        )),
        n => {
            let message = format!(
                "column `{name}`: {n} fields; the description has unquoted commas, read as one description"
            );
            problems.push(Problem::warning(path, line, message));
        }
    }
    if name.is_empty() {
        problems.push(Problem::error(path, line, "empty column name"));
    }
    SchemaColumn {
        name,
        description: fields.get(1..).map(|d| d.join(",")).unwrap_or_default(),
    }
}

pub(crate) fn csv_line(err: &csv::Error) -> Option<usize> {
    err.position().map(|p| p.line() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_columns_in_order() {
        let (schema, problems) = parse(
            "column_name,column_description\nid,\"The id, unique\"\nname,Name\n",
            Path::new("s.csv"),
        )
        .unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            schema.columns[0],
            SchemaColumn {
                name: "id".into(),
                description: "The id, unique".into()
            }
        );
        assert_eq!(
            schema.column("NAME").map(|c| c.description.as_str()),
            Some("Name")
        );
    }

    #[test]
    fn unquoted_commas_are_kept_in_the_description_with_a_warning() {
        let text = "column_name,column_description\nid,Pattern ^BL_[a-z]{11,15}$\n";
        let (schema, problems) = parse(text, Path::new("block.csv")).unwrap();
        assert_eq!(schema.columns[0].description, "Pattern ^BL_[a-z]{11,15}$");
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0]
                .to_string()
                .starts_with("block.csv:2: warning: column `id`: 3 fields"),
            "{}",
            problems[0]
        );
    }

    #[test]
    fn a_wrong_header_is_an_error_on_line_one() {
        let (_, problems) = parse("name,description\nid,x\n", Path::new("s.csv")).unwrap();
        assert_eq!(
            problems[0].to_string(),
            "s.csv:1: error: schema header is `name,description`, expected `column_name,column_description`"
        );
    }

    #[test]
    fn an_empty_schema_is_an_error() {
        let (_, problems) = parse("", Path::new("s.csv")).unwrap();
        assert!(
            problems
                .iter()
                .any(|p| p.is_error() && p.message.contains("no columns"))
        );
    }
}
