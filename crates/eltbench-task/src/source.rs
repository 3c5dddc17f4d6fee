//! Source kinds and source tables: what a task extracts and from where.
//!
//! The [`SourceBlock`] trait is how the rest of the crate sees a source
//! block of `config.yaml`; a new kind implements it and is registered in
//! [`crate::TaskConfig::sources`]. This module knows nothing of files.

use std::fmt;

/// The five source kinds of ELT-Bench, as `config.yaml` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// `postgres:` block.
    Postgres,
    /// `mongodb:` block.
    Mongodb,
    /// `custom_api:` block (the REST API).
    CustomApi,
    /// `aws_s3:` block.
    AwsS3,
    /// `flat_files:` list.
    FlatFiles,
}

impl SourceKind {
    /// Every kind, in `config.yaml` reading order.
    pub const ALL: [SourceKind; 5] = [
        Self::Postgres,
        Self::Mongodb,
        Self::CustomApi,
        Self::AwsS3,
        Self::FlatFiles,
    ];

    /// The top-level key of the block in `config.yaml`.
    pub fn config_key(self) -> &'static str {
        match self {
            Self::Postgres => "postgres",
            Self::Mongodb => "mongodb",
            Self::CustomApi => "custom_api",
            Self::AwsS3 => "aws_s3",
            Self::FlatFiles => "flat_files",
        }
    }

    /// The `Airbyte.config` key holding the connector definition id the
    /// original used for this kind (`None`: a custom connector, no id).
    pub fn definition_id_key(self) -> Option<&'static str> {
        match self {
            Self::Postgres => Some("postgres_definition_id"),
            Self::Mongodb => Some("mongodb_definition_id"),
            Self::CustomApi => None,
            Self::AwsS3 => Some("s3_definition_id"),
            Self::FlatFiles => Some("files_definition_id"),
        }
    }
}

impl fmt::Display for SourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.config_key())
    }
}

/// One source table of a task: its name and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct SourceTable {
    /// Table name as written in `config.yaml` (case preserved).
    pub name: String,
    /// The source kind that serves it.
    pub kind: SourceKind,
}

/// A file format of an S3 object or a flat file.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum FileFormat {
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON object per line.
    Jsonl,
    /// Apache Parquet.
    Parquet,
    /// One JSON document (an array of objects).
    Json,
}

impl FileFormat {
    /// The format a file name's extension stands for (case-insensitive).
    pub fn from_path(path: &str) -> Option<Self> {
        let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "csv" => Some(Self::Csv),
            "jsonl" => Some(Self::Jsonl),
            "parquet" => Some(Self::Parquet),
            "json" => Some(Self::Json),
            _ => None,
        }
    }
}

/// A source block of `config.yaml`, as validation and listing see it.
pub trait SourceBlock {
    /// Which kind of source this is.
    fn kind(&self) -> SourceKind;
    /// The table names it serves, in file order (case preserved).
    fn tables(&self) -> Vec<&str>;
    /// The sync mode of each table, in the order of [`SourceBlock::tables`].
    fn sync_modes(&self) -> Vec<&str>;
    /// Problems only this kind can have (e.g. a malformed S3 path), as
    /// `(table, message)`. Default: none.
    fn check(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_comes_from_the_extension() {
        assert_eq!(
            FileFormat::from_path("s3://b/a.JSONL"),
            Some(FileFormat::Jsonl)
        );
        assert_eq!(
            FileFormat::from_path("s3://b/dir.v2/a.parquet"),
            Some(FileFormat::Parquet)
        );
        assert_eq!(
            FileFormat::from_path("s3://b/a.json"),
            Some(FileFormat::Json)
        );
        assert_eq!(FileFormat::from_path("s3://b/a.txt"), None);
        assert_eq!(FileFormat::from_path("s3://b/noext"), None);
    }

    #[test]
    fn every_kind_has_a_distinct_config_key() {
        let keys: std::collections::BTreeSet<_> =
            SourceKind::ALL.iter().map(|k| k.config_key()).collect();
        assert_eq!(keys.len(), SourceKind::ALL.len());
    }
}
