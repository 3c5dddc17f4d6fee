//! Why generated suite files could not be written.

use std::path::PathBuf;

/// A failure writing the built-in suite.
#[derive(Debug, thiserror::Error)]
pub enum BuiltinError {
    #[error("cannot write {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl BuiltinError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}
