//! Errors of reading a job directory and writing its reports, each naming
//! the file (and line) that failed. Rendering itself cannot fail.

use std::path::PathBuf;

/// What went wrong reading a job or writing its reports.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A `results.jsonl` line is not a trial record.
    #[error("{}:{line}: not a trial record: {source}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The JSON error.
        source: serde_json::Error,
    },
    /// `job.json` is not a JSON object.
    #[error("{}: not a JSON object: {source}", path.display())]
    Job {
        /// The file.
        path: PathBuf,
        /// The JSON error.
        source: serde_json::Error,
    },
    /// The suite named by `job.json` could not be loaded.
    #[error("cannot load the suite {} named in {}: {source}", suite.display(), job.display())]
    Suite {
        /// The suite directory.
        suite: PathBuf,
        /// `job.json`.
        job: PathBuf,
        /// Why.
        source: eltbench_task::SuiteError,
    },
    /// A trajectory file is not JSON.
    #[error("{}{}: not a trajectory: {source}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Trajectory {
        /// The file.
        path: PathBuf,
        /// 1-based line number (JSON Lines files).
        line: Option<usize>,
        /// The JSON error.
        source: serde_json::Error,
    },
}
