//! Errors of preparing and supervising a sandbox. A sandbox that cannot be made is not an
//! error (the run falls back, see `report.rs`); these are bad specs and broken hosts.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("sandbox path {path} must be absolute")]
    RelativePath { path: PathBuf },
    #[error("sandbox path {path} does not exist: {source}")]
    MissingPath {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("sandbox environment variable {name:?} is not a valid name")]
    BadEnvName { name: String },
    #[error("sandbox {what} failed: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
    #[error("cgroup file {path}: {source}")]
    Cgroup {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl SandboxError {
    pub(crate) fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        Self::Io {
            what: what.into(),
            source,
        }
    }
}
