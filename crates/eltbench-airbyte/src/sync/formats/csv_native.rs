//! The fast path for CSV files on local disk: DuckDB's own `read_csv` (parallel,
//! `all_varchar`) fills the staging table directly, since Airbyte declares every
//! CSV column a string and so no value can fail a typecast (`_ab_changes` is NULL).
//! Only options `read_csv` expresses exactly are taken (else `None`: the Rust parser
//! runs); a file `read_csv` rejects is re-read by the Rust parser, which reports
//! errors in Airbyte's words. This module builds SQL text and never runs it.

use std::path::Path;

use super::csv::{CsvOptions, Header};
use crate::sync::naming::{quote_ident, quote_literal};
use crate::sync::records::CHANGES_COLUMN;
use crate::sync::typing::{AirbyteType, StreamSchema};

/// `SELECT` of `schema`'s columns (then a NULL `_ab_changes`) from the CSV file at
/// `path` whose header row holds `names`; `None` when the options or schema need the
/// Rust parser.
pub fn select_sql(
    options: &CsvOptions,
    path: &Path,
    names: &[String],
    schema: &StreamSchema,
) -> Option<String> {
    let simple = options.double_quote
        && options.skip_after_header == 0
        && options.header == Header::FromCsv
        && !names.is_empty()
        && schema
            .columns
            .iter()
            .all(|c| c.airbyte_type == AirbyteType::String);
    if !simple {
        return None;
    }
    let mut columns: Vec<String> = schema
        .columns
        .iter()
        .map(|c| {
            let source = names
                .iter()
                .position(|n| n == &c.source_name)
                .map_or_else(|| "NULL".to_owned(), |i| format!("c{i}"));
            format!("{source} AS {}", quote_ident(&c.name))
        })
        .collect();
    columns.push(format!("NULL AS {}", quote_ident(CHANGES_COLUMN)));
    Some(format!(
        "SELECT {} FROM read_csv({}, {})",
        columns.join(", "),
        quote_literal(&path.to_string_lossy()),
        read_options(options, names.len())
    ))
}

fn read_options(options: &CsvOptions, width: usize) -> String {
    let char_literal =
        |c: Option<u8>| quote_literal(&c.map(char::from).map(String::from).unwrap_or_default());
    let nulls: Vec<String> = options
        .null_values
        .iter()
        .map(|n| quote_literal(n))
        .collect();
    let mut parts = vec![
        "header = true".to_owned(),
        "all_varchar = true".to_owned(),
        "auto_detect = false".to_owned(),
        "strict_mode = true".to_owned(),
        format!("delim = {}", char_literal(Some(options.delimiter))),
        format!("quote = {}", char_literal(options.quote)),
        format!(
            "escape = {}",
            char_literal(options.escape.or(options.quote))
        ),
        format!("skip = {}", options.skip_before_header),
        format!(
            "columns = {{{}}}",
            (0..width)
                .map(|i| format!("'c{i}': 'VARCHAR'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ];
    if !nulls.is_empty() {
        parts.push(format!("nullstr = [{}]", nulls.join(", ")));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::typing::ColumnSpec;

    fn schema(columns: &[(&str, AirbyteType)]) -> StreamSchema {
        StreamSchema {
            columns: columns
                .iter()
                .map(|(n, t)| ColumnSpec::new(n, *t))
                .collect(),
        }
    }

    #[test]
    fn string_columns_are_selected_by_header_position() {
        let names = vec!["id".to_owned(), "Name".to_owned()];
        let sql = select_sql(
            &CsvOptions::default(),
            Path::new("/d/it's.csv"),
            &names,
            &schema(&[("Name", AirbyteType::String), ("gone", AirbyteType::String)]),
        )
        .unwrap();
        assert!(sql.starts_with("SELECT c1 AS \"name\", NULL AS \"gone\", NULL AS \"_ab_changes\" FROM read_csv('/d/it''s.csv', "), "{sql}");
        assert!(
            sql.contains("columns = {'c0': 'VARCHAR', 'c1': 'VARCHAR'}"),
            "{sql}"
        );
        assert!(!sql.contains("nullstr"), "{sql}");
    }

    #[test]
    fn typed_columns_and_unusual_headers_use_the_rust_parser() {
        let names = vec!["id".to_owned()];
        let typed = schema(&[("id", AirbyteType::Integer)]);
        assert!(select_sql(&CsvOptions::default(), Path::new("x"), &names, &typed).is_none());
        let strings = schema(&[("id", AirbyteType::String)]);
        let skipping = CsvOptions {
            skip_after_header: 1,
            ..CsvOptions::default()
        };
        assert!(select_sql(&skipping, Path::new("x"), &names, &strings).is_none());
        let pandas = CsvOptions::for_file_source(&serde_json::json!({"sep": ";"})).unwrap();
        let sql = select_sql(&pandas, Path::new("x"), &names, &strings).unwrap();
        assert!(
            sql.contains("delim = ';'") && sql.contains("'#N/A'"),
            "{sql}"
        );
    }
}
