//! A task's five source kinds brought up together on loopback ports: the private
//! PostgreSQL cluster, MongoDB (a given server, a `mongod` child or our own endpoint), the REST API, the S3 endpoint and the
//! flat-file server, each filled from the task's canonical tables exactly as its
//! `config.yaml` says, plus the rewritten `config.yaml`, `env.json` and `env.sh` in the
//! run directory.
//!
//! [`Environment`] is the guard: everything it started stops when it is stopped or
//! dropped, and a start that fails part-way stops what it had started. Bringing an
//! environment up is blocking (call it from `spawn_blocking` in async code); it runs
//! its servers on a runtime of its own. This module never signals a process it did
//! not record, and never writes outside the run directory.

mod data;
mod endpoints;
mod error;
mod launch;
mod mongo_ext;
mod mongod;
mod pending;
mod rewrite;
mod start;
mod status;

use std::path::PathBuf;
use std::sync::Arc;

use eltbench_task::SourceKind;

pub use data::{TaskTables, data_dir, find_csv, read_tables};
pub use endpoints::{
    Endpoints, EnvRecord, HttpEndpoint, MongoEndpoint, PostgresEndpoint, S3Endpoint,
};
pub use error::EnvError;
pub use mongo_ext::MongoLoadError;
pub use mongod::{MONGOD_ENV, MongodError};
pub use rewrite::{RewriteError, rewrite_config};
pub use start::Environment;
pub use status::{EnvStatus, PortState, down, status};

/// `RUN/env.json`: endpoints, pids, ports.
pub const ENV_JSON: &str = "env.json";
/// `RUN/env.sh`: `export` lines.
pub const ENV_SH: &str = "env.sh";
/// `RUN/config.yaml`: the task config rewritten for this environment.
pub const CONFIG_YAML: &str = "config.yaml";

/// Fixed ports per source kind; a kind without one gets a free port.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortPins {
    pub postgres: Option<u16>,
    pub mongodb: Option<u16>,
    pub custom_api: Option<u16>,
    pub aws_s3: Option<u16>,
    pub flat_files: Option<u16>,
}

impl PortPins {
    /// The pinned port of `kind`, if any.
    pub fn get(&self, kind: SourceKind) -> Option<u16> {
        match kind {
            SourceKind::Postgres => self.postgres,
            SourceKind::Mongodb => self.mongodb,
            SourceKind::CustomApi => self.custom_api,
            SourceKind::AwsS3 => self.aws_s3,
            SourceKind::FlatFiles => self.flat_files,
        }
    }
}

/// A step of bringing an environment up, for progress output and tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Every table was read from its CSV file.
    TablesRead { tables: usize, rows: usize },
    /// The PostgreSQL server accepts connections (before any table is loaded).
    PostgresStarted { pid: Option<i32>, port: u16 },
    /// One table is served by one source.
    TableLoaded {
        kind: SourceKind,
        table: String,
        rows: usize,
    },
    /// A source is listening.
    SourceReady { kind: SourceKind, endpoint: String },
}

/// Receives [`Progress`] events (called on the starting thread).
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// How to bring an environment up.
#[derive(Clone, Default)]
pub struct EnvOptions {
    /// The run directory (created when missing).
    pub run_dir: PathBuf,
    /// Read CSVs from here instead of `<suite>/data/<db>/` (see [`data_dir`]).
    pub data_dir: Option<PathBuf>,
    pub ports: PortPins,
    pub progress: Option<ProgressFn>,
    /// Catch SIGINT/SIGTERM from before `env.json` is written (for a process that
    /// serves in the foreground, see [`Environment::wait_for_signal`]).
    pub catch_signals: bool,
    /// Load the MongoDB collections into this existing server instead of starting one
    /// (its collections of the task are dropped and refilled).
    pub mongodb_uri: Option<String>,
}

impl std::fmt::Debug for EnvOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnvOptions")
            .field("run_dir", &self.run_dir)
            .field("data_dir", &self.data_dir)
            .field("ports", &self.ports)
            .field("progress", &self.progress.is_some())
            .field("catch_signals", &self.catch_signals)
            .field(
                "mongodb_uri",
                &self.mongodb_uri.as_deref().map(mongo_ext::redact),
            )
            .finish()
    }
}

impl EnvOptions {
    /// Options for `run_dir` with free ports and the suite's own data.
    pub fn new(run_dir: impl Into<PathBuf>) -> Self {
        Self {
            run_dir: run_dir.into(),
            ..Self::default()
        }
    }

    fn report(&self, event: Progress) {
        if let Some(progress) = &self.progress {
            progress(&event);
        }
    }
}
