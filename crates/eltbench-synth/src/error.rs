//! [`SynthError`]: why synthetic data could not be planned or written.
//!
//! Every variant names the task, table or file at fault. This module never
//! decides exit codes; it only says whether an error is the input's fault.

use std::path::{Path, PathBuf};

/// Errors generating synthetic data.
#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    /// The suite has no task of that name.
    #[error("no task `{db}` in suite {suite}", suite = suite.display())]
    NoTask {
        /// The suite directory.
        suite: PathBuf,
        /// The task asked for.
        db: String,
    },
    /// A source table has no `schemas/<table>.csv`, so its columns are unknown.
    #[error("{db}: table `{table}` has no schema file; cannot know its columns")]
    NoSchema {
        /// The task.
        db: String,
        /// The table.
        table: String,
    },
    /// A source table has no entry in `source_row_counts.json`.
    #[error("{db}: table `{table}` has no row count in source_row_counts.json")]
    NoRowCount {
        /// The task.
        db: String,
        /// The table.
        table: String,
    },
    /// A type-hint file (`postgres_ddl.json`, `rest_api_streams.json`) is malformed.
    #[error("{path}: {message}", path = path.display())]
    Hints {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The output directory is the suite itself: writing would replace real data.
    #[error("{out}: the output directory is the suite itself; choose another", out = out.display())]
    OutIsSuite {
        /// The output directory.
        out: PathBuf,
    },
    /// Writing a CSV failed.
    #[error("{path}: {source}", path = path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: csv::Error,
    },
    /// An I/O error that is not the input's fault.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl SynthError {
    /// Whether the error is the input's (exit 2) rather than the machine's.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, Self::Io { .. } | Self::Csv { .. })
    }

    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn csv(path: &Path, source: csv::Error) -> Self {
        Self::Csv {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn hints(path: &Path, message: impl Into<String>) -> Self {
        Self::Hints {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}
