//! Which source kind (and file format) each table of a new task comes from.
//!
//! The rule, as the paper's step 1 spreads a database over sources to make
//! every task exercise several connectors: tables are taken in name order
//! and dealt round-robin over the allowed kinds in the fixed order
//! postgres, mongodb, custom_api, aws_s3, flat_files; file-based tables
//! (aws_s3 and flat_files together) take the formats csv, jsonl, parquet in
//! turn. The same tables and kinds always give the same assignment, and
//! with N tables and K kinds every kind gets ⌊N/K⌋ or ⌈N/K⌉ tables.

use eltbench_task::{FileFormat, SourceKind};

use crate::error::AuthorError;

/// The order kinds are dealt in.
pub const KIND_ORDER: [SourceKind; 5] = [
    SourceKind::Postgres,
    SourceKind::Mongodb,
    SourceKind::CustomApi,
    SourceKind::AwsS3,
    SourceKind::FlatFiles,
];

/// The order file formats are dealt in.
const FORMAT_ORDER: [FileFormat; 3] = [FileFormat::Csv, FileFormat::Jsonl, FileFormat::Parquet];

/// Where one table comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    pub table: String,
    pub kind: SourceKind,
    /// The file format (aws_s3 and flat_files only).
    pub format: Option<FileFormat>,
}

/// Parses `--kinds`: `auto` (all five) or a comma-separated list of config keys.
pub fn parse_kinds(spec: &str) -> Result<Vec<SourceKind>, AuthorError> {
    if spec.trim() == "auto" {
        return Ok(KIND_ORDER.to_vec());
    }
    let mut kinds = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let kind = KIND_ORDER
            .iter()
            .find(|k| k.config_key() == part)
            .ok_or_else(|| {
                let known: Vec<_> = KIND_ORDER.iter().map(|k| k.config_key()).collect();
                AuthorError::BadInput(format!(
                    "unknown source kind `{part}` in --kinds (known: auto, {})",
                    known.join(", ")
                ))
            })?;
        if !kinds.contains(kind) {
            kinds.push(*kind);
        }
    }
    if kinds.is_empty() {
        return Err(AuthorError::BadInput("--kinds names no source kind".into()));
    }
    kinds.sort_by_key(|k| KIND_ORDER.iter().position(|o| o == k));
    Ok(kinds)
}

/// Deals `tables` over `kinds` (see the module doc).
pub fn assign(tables: &[String], kinds: &[SourceKind]) -> Vec<Assignment> {
    let mut names = tables.to_vec();
    names.sort();
    let mut files = 0;
    names
        .into_iter()
        .enumerate()
        .map(|(i, table)| {
            let kind = kinds[i % kinds.len().max(1)];
            let format = matches!(kind, SourceKind::AwsS3 | SourceKind::FlatFiles).then(|| {
                files += 1;
                FORMAT_ORDER[(files - 1) % FORMAT_ORDER.len()]
            });
            Assignment {
                table,
                kind,
                format,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("t{i:02}")).collect()
    }

    #[test]
    fn seven_tables_cover_every_kind_and_format() {
        let out = assign(&names(7), &KIND_ORDER);
        let kinds: Vec<_> = out.iter().map(|a| a.kind.config_key()).collect();
        assert_eq!(
            kinds,
            [
                "postgres",
                "mongodb",
                "custom_api",
                "aws_s3",
                "flat_files",
                "postgres",
                "mongodb"
            ]
        );
        let formats: Vec<_> = out.iter().filter_map(|a| a.format).collect();
        assert_eq!(formats, [FileFormat::Csv, FileFormat::Jsonl]);
    }

    #[test]
    fn the_assignment_ignores_input_order() {
        let mut shuffled = names(6);
        shuffled.reverse();
        assert_eq!(
            assign(&shuffled, &KIND_ORDER),
            assign(&names(6), &KIND_ORDER)
        );
    }

    #[test]
    fn kinds_parse_from_auto_or_a_list() {
        assert_eq!(parse_kinds("auto").unwrap().len(), 5);
        assert_eq!(
            parse_kinds("flat_files, postgres").unwrap(),
            [SourceKind::Postgres, SourceKind::FlatFiles]
        );
        assert!(
            parse_kinds("oracle")
                .unwrap_err()
                .to_string()
                .contains("unknown source kind")
        );
    }
}
