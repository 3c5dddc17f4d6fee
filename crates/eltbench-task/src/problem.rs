//! [`Problem`]: one finding of loading or validating a suite, with file and
//! line. Problems are data; this module never prints them.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::SuiteError;

/// How bad a [`Problem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The suite cannot be used as is (a task cannot be run or scored).
    Error,
    /// Worth knowing, handled by eltbench (e.g. a quirk of the original data).
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Error => "error",
            Self::Warning => "warning",
        })
    }
}

/// One finding, displayed as `path:line: error: message`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Problem {
    /// The file the problem is in.
    pub path: PathBuf,
    /// 1-based line, when there is one.
    pub line: Option<usize>,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// An error in `path` at `line`.
    pub fn error(path: &Path, line: Option<usize>, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, path, line, message)
    }

    /// A warning in `path` at `line`.
    pub fn warning(path: &Path, line: Option<usize>, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, path, line, message)
    }

    fn new(
        severity: Severity,
        path: &Path,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            path: path.to_path_buf(),
            line,
            severity,
            message: message.into(),
        }
    }

    /// Whether this is an error (as opposed to a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": {}: {}", self.severity, self.message)
    }
}

impl From<SuiteError> for Problem {
    fn from(err: SuiteError) -> Self {
        match err {
            SuiteError::Invalid {
                path,
                line,
                message,
            } => Problem::error(&path, (line > 0).then_some(line), message),
            SuiteError::NotASuite { path, reason } => Problem::error(&path, None, reason),
            SuiteError::Io { path, source } => Problem::error(&path, None, source.to_string()),
        }
    }
}

impl From<Problem> for SuiteError {
    fn from(p: Problem) -> Self {
        SuiteError::Invalid {
            path: p.path,
            line: p.line.unwrap_or(0),
            message: p.message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_path_line_severity_message() {
        let p = Problem::error(
            Path::new("s/tasks/a/config.yaml"),
            Some(12),
            "unknown source kind `oracle`",
        );
        assert_eq!(
            p.to_string(),
            "s/tasks/a/config.yaml:12: error: unknown source kind `oracle`"
        );
        let p = Problem::warning(Path::new("s/gt/_meta.json"), None, "x");
        assert_eq!(p.to_string(), "s/gt/_meta.json: warning: x");
    }

    #[test]
    fn converts_from_invalid_without_losing_the_line() {
        let err = SuiteError::invalid(Path::new("f.csv"), Some(4), "ragged");
        assert_eq!(Problem::from(err).to_string(), "f.csv:4: error: ragged");
    }
}
