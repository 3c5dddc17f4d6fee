//! [`AuthorError`]: why a task could not be scaffolded, a suite imported or
//! perturbed. Every message names the file, table or column concerned.

use std::path::{Path, PathBuf};

/// Why an authoring step failed.
#[derive(Debug, thiserror::Error)]
pub enum AuthorError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Csv { path: PathBuf, message: String },
    #[error("{path}: {message}")]
    Json { path: PathBuf, message: String },
    #[error("{path}: {message}")]
    Yaml { path: PathBuf, message: String },
    #[error("SQLite file {path}: {message}")]
    Sqlite { path: PathBuf, message: String },
    #[error("{0}")]
    BadInput(String),
    #[error("suite {path}: {message}")]
    Suite { path: PathBuf, message: String },
}

impl AuthorError {
    pub(crate) fn read(path: &Path, source: std::io::Error) -> Self {
        Self::Read {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn write(path: &Path, source: std::io::Error) -> Self {
        Self::Write {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn csv(path: &Path, message: impl ToString) -> Self {
        Self::Csv {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }

    pub(crate) fn json(path: &Path, message: impl ToString) -> Self {
        Self::Json {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }

    pub(crate) fn yaml(path: &Path, message: impl ToString) -> Self {
        Self::Yaml {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }

    /// Whether the user gave bad input (exit 2) rather than something broke.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            Self::BadInput(_) | Self::Csv { .. } | Self::Sqlite { .. } | Self::Suite { .. }
        )
    }
}

/// Reads a file to a string.
pub(crate) fn read_text(path: &Path) -> Result<String, AuthorError> {
    std::fs::read_to_string(path).map_err(|e| AuthorError::read(path, e))
}

/// Writes a file, creating its parent directories.
pub(crate) fn write_text(path: &Path, text: &str) -> Result<(), AuthorError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| AuthorError::write(parent, e))?;
    }
    std::fs::write(path, text).map_err(|e| AuthorError::write(path, e))
}
