//! What can go wrong while installing or running dbt. Every message names the
//! path, command or file involved and, for install failures, how to retry.

use std::path::PathBuf;

/// An error of the dbt toolchain or of a dbt invocation (not a failing model:
/// those are reported in [`crate::DbtOutcome`]).
#[derive(Debug, thiserror::Error)]
pub enum DbtError {
    #[error(
        "cannot find eltbench's home: set ELTBENCH_HOME (or XDG_DATA_HOME, or HOME for ~/.local/share/eltbench)"
    )]
    NoHome,

    #[error("{action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error(
        "cannot run {program}: {source}; install Python 3.10 or newer with the venv module (Debian: apt-get install python3 python3-venv)"
    )]
    NoPython {
        program: String,
        #[source]
        source: std::io::Error,
    },

    #[error(
        "{step} failed (exit {code}) while installing dbt into {venv}:\n{stderr_tail}\nFix the cause above and run again: eltbench starts the virtualenv over (or delete {venv} yourself)"
    )]
    Install {
        step: String,
        code: String,
        venv: PathBuf,
        stderr_tail: String,
    },

    #[error(
        "the dbt virtualenv {venv} has {what} {found}, expected {expected}; delete {venv} and run again"
    )]
    WrongVersion {
        venv: PathBuf,
        what: &'static str,
        found: String,
        expected: String,
    },

    #[error(
        "the warehouse file {path} must be named {db}.duckdb: dbt-duckdb names the catalog after the file stem, and models must land in {db}.airbyte_schema"
    )]
    WarehouseName { path: PathBuf, db: String },

    #[error("cannot write {path}: {message}")]
    Yaml { path: PathBuf, message: String },

    #[error("cannot start {program} in {dir}: {source}")]
    Spawn {
        program: PathBuf,
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("cannot read {path}: {message}")]
    RunResults { path: PathBuf, message: String },
}

impl DbtError {
    /// An I/O error with what was being done and to which path.
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io {
            action,
            path,
            source,
        }
    }
}
