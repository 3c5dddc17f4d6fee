//! Public types of the suite model. (Skeleton: the loader fills these in.)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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

/// One source table of a task: its name and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct SourceTable {
    /// Table name as written in `config.yaml` (case preserved).
    pub name: String,
    /// The source kind that serves it.
    pub kind: SourceKind,
}

/// One column of a target data model.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ModelColumn {
    /// Column name.
    pub name: String,
    /// Its description (may be empty).
    pub description: String,
}

/// One target data model of `data_model.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DataModel {
    /// Model (table) name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// Its columns in order.
    pub columns: Vec<ModelColumn>,
}

/// Where the scorer reads a model from and how it orders rows.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EvalKey {
    /// The table the model is read from, as `<db>.<schema>.<table>`; `None`
    /// when the original evaluated it with a free-form query.
    pub table: Option<String>,
    /// ORDER BY columns; `None` when the original had no simple key.
    pub order_by: Option<Vec<String>>,
}

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

/// A model's entry in `gt/_meta.json`.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct GtMeta {
    /// The ground truth uses the current date somewhere upstream.
    pub depends_on_run_date: bool,
    /// Columns the ground truth left empty (not scored).
    pub columns_left_empty: Vec<String>,
    /// Free-text note.
    pub note: Option<String>,
}

/// Helpers' placeholder so the skeleton compiles; removed by the loader.
#[doc(hidden)]
pub fn _skeleton(_: &Path, _: &BTreeMap<String, String>) {}

/// Errors reading a suite. (Skeleton: the loader fills in the variants.)
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// A file could not be read or parsed.
    #[error("{path}:{line}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line (0 when unknown).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An I/O error that is not the input's fault.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl SuiteError {
    /// Whether the error is the suite's (bad input, exit 2) rather than the machine's.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, Self::Invalid { .. })
    }
}
