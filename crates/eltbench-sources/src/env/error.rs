//! Errors of bringing an environment up, asking about it and bringing it down. Each
//! message names the task, table, file, port or process concerned and, where the user
//! can fix it, how.

use std::path::PathBuf;

use eltbench_task::SourceKind;

use crate::files::FilesError;
use crate::rest::StreamsError;
use crate::s3_load::S3LoadError;
use crate::{DdlError, PgError, TableError};

/// Why an environment could not be started, inspected or stopped.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    #[error("the suite has no task `{db}`{hint}")]
    UnknownTask { db: String, hint: String },
    #[error(
        "no data file for table `{table}` of task `{db}`: {looked} does not exist; \
         this task has no real data in the suite: generate synthetic data and pass its \
         directory with --data-dir (EnvOptions::data_dir)"
    )]
    MissingData {
        db: String,
        table: String,
        looked: PathBuf,
    },
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Ddl(#[from] DdlError),
    #[error(transparent)]
    Streams(#[from] StreamsError),
    #[error("port {port} on 127.0.0.1 is already in use; the {kind} source cannot listen on it")]
    PortInUse { kind: SourceKind, port: u16 },
    #[error("cannot listen on 127.0.0.1:{port} for the {kind} source: {source}")]
    Bind {
        kind: SourceKind,
        port: u16,
        source: std::io::Error,
    },
    #[error("PostgreSQL source: {0}")]
    Postgres(PgError),
    #[error("MongoDB source: {0}")]
    Mongo(eltbench_mongo::MongoError),
    #[error("MongoDB source: {0}")]
    MongoLoad(super::MongoLoadError),
    #[error("MongoDB source: {0}")]
    Mongod(super::MongodError),
    #[error("S3 source: {0}")]
    S3(eltbench_s3::S3Error),
    #[error("S3 source: {0}")]
    S3Load(S3LoadError),
    #[error("flat-file source: {0}")]
    Files(FilesError),
    #[error("cannot start the environment's async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("the PostgreSQL start-up thread failed: {0}")]
    Thread(String),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {path}: {detail}")]
    Record { path: PathBuf, detail: String },
    #[error(
        "{dir} has no env.json: no environment was started there (eltbench env up --dir {dir})"
    )]
    NoRecord { dir: PathBuf },
    #[error(
        "an environment is already running in {dir} (pid {pid}); stop it first with `eltbench env down --dir {dir}`"
    )]
    AlreadyRunning { dir: PathBuf, pid: u32 },
    #[error("cannot clear stale files {path}: {source}")]
    Clear {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot wait for a stop signal: {0}")]
    Signal(std::io::Error),
    #[error("environment process {pid} did not stop within {secs} s")]
    StopTimeout { pid: u32, secs: u64 },
}

/// `From` without making the wrapped error the `source`: the message already holds its
/// text, so a printed cause chain does not repeat it.
macro_rules! wrap {
    ($($from:ty => $variant:ident),* $(,)?) => {$(
        impl From<$from> for EnvError {
            fn from(err: $from) -> Self {
                Self::$variant(err)
            }
        }
    )*};
}

wrap! {
    PgError => Postgres,
    eltbench_mongo::MongoError => Mongo,
    super::MongoLoadError => MongoLoad,
    super::MongodError => Mongod,
    eltbench_s3::S3Error => S3,
    S3LoadError => S3Load,
    FilesError => Files,
}

impl EnvError {
    /// Whether the user's input is at fault (a task, file or port they named), as
    /// opposed to something breaking.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Self::UnknownTask { .. }
            | Self::MissingData { .. }
            | Self::PortInUse { .. }
            | Self::NoRecord { .. }
            | Self::AlreadyRunning { .. } => true,
            Self::Table(e) => !matches!(e, TableError::Open { .. }),
            Self::Postgres(e) => matches!(
                e,
                PgError::NotSearchable { .. }
                    | PgError::SocketPathTooLong { .. }
                    | PgError::PortInUse { .. }
            ),
            _ => false,
        }
    }
}
