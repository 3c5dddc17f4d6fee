//! Why the stage-1 oracle could not finish a task.

use std::path::PathBuf;

/// A failure of the oracle's own pipeline (never a scoring verdict).
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    #[error("{path}: {message}")]
    Config { path: PathBuf, message: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("task {db}: environment: {message}")]
    Environment { db: String, message: String },
    #[error("Airbyte server: {0}")]
    Airbyte(String),
    #[error("terraform {command} in {dir} exited {code}: {stderr}")]
    Terraform {
        command: String,
        dir: PathBuf,
        code: i32,
        stderr: String,
    },
    #[error("{path}: no airbyte_connection with a connection_id in the state")]
    NoConnections { path: PathBuf },
    #[error("{url}: {message}")]
    Api { url: String, message: String },
    #[error("job {job_id} of connection {connection_id} ended {status}: {detail}")]
    JobFailed {
        job_id: i64,
        connection_id: String,
        status: String,
        detail: String,
    },
    #[error("job {job_id} of connection {connection_id} still {status} after {seconds}s")]
    JobTimeout {
        job_id: i64,
        connection_id: String,
        status: String,
        seconds: u64,
    },
    #[error("task {db}: no gold models: {dir} is not a directory")]
    NoGoldModels { db: String, dir: PathBuf },
    #[error("task {db}: gold model {file} failed ({kind} error): {message}")]
    GoldModel {
        db: String,
        file: PathBuf,
        kind: String,
        message: String,
    },
    #[error("task {db}: dbt in {dir}: {message}")]
    Dbt {
        db: String,
        dir: PathBuf,
        message: String,
    },
    #[error("task {db}: scoring {path}: {message}")]
    Score {
        db: String,
        path: PathBuf,
        message: String,
    },
}

impl OracleError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}
