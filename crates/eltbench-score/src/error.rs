//! [`ScoreError`]: why scoring could not run at all. A task whose warehouse
//! is missing or broken is not an error: it is reported in its
//! [`crate::TaskScore`] and scores 0.

use std::path::PathBuf;

use eltbench_task::SuiteError;
use eltbench_warehouse::WarehouseError;

/// Errors of the scorer and the reference-warehouse builder.
#[derive(Debug, thiserror::Error)]
pub enum ScoreError {
    /// The task is not in the suite.
    #[error("no task `{db}` in suite {suite}{}", did_you_mean(.near))]
    UnknownTask {
        /// The name asked for.
        db: String,
        /// The suite directory.
        suite: PathBuf,
        /// Close names.
        near: Vec<String>,
    },
    /// A suite file (ground truth, metadata) could not be read.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// A source table of a task has no data file to build a reference from.
    #[error("task `{db}`: no data file for source table `{table}` under {dir}")]
    NoData {
        /// The task.
        db: String,
        /// The table.
        table: String,
        /// Where it was looked for.
        dir: PathBuf,
    },
    /// Building a reference warehouse failed.
    #[error("task `{db}`: building {path} failed")]
    Build {
        /// The task.
        db: String,
        /// The warehouse file.
        path: PathBuf,
        /// The cause.
        source: WarehouseError,
    },
    /// A file could not be removed or a directory created.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl ScoreError {
    /// Whether the input is at fault (exit 2) rather than the machine (exit 1).
    pub fn is_bad_input(&self) -> bool {
        match self {
            Self::UnknownTask { .. } | Self::NoData { .. } => true,
            Self::Suite(e) => e.is_bad_input(),
            Self::Build { .. } | Self::Io { .. } => false,
        }
    }
}

fn did_you_mean(near: &[String]) -> String {
    if near.is_empty() {
        String::new()
    } else {
        format!(" (did you mean: {}?)", near.join(", "))
    }
}
