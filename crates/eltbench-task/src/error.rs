//! [`SuiteError`]: why a suite or one of its files could not be read.
//!
//! Every variant names the file (and line, where there is one) so the
//! message alone tells the user where to look. This module never decides
//! exit codes; it only says whether an error is the input's fault.

use std::fmt;
use std::path::{Path, PathBuf};

/// Errors reading a suite.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// A file could not be parsed: broken YAML/JSON/CSV, or a value of the
    /// wrong shape.
    #[error("{}", Located { path, line: *line, message })]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line (0 when unknown).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The directory given as a suite is not one (missing, or no `tasks/`).
    #[error("{path}: not an ELT-Bench suite: {reason}", path = path.display())]
    NotASuite {
        /// The directory given.
        path: PathBuf,
        /// What is missing.
        reason: String,
    },
    /// An I/O error that is not the input's fault.
    #[error("{path}: {source}", path = path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl SuiteError {
    /// Whether the error is the suite's (bad input, exit 2) rather than the machine's.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, Self::Invalid { .. } | Self::NotASuite { .. })
    }

    /// An [`SuiteError::Invalid`] for `path` at `line` (`None`: unknown).
    pub(crate) fn invalid(path: &Path, line: Option<usize>, message: impl Into<String>) -> Self {
        Self::Invalid {
            path: path.to_path_buf(),
            line: line.unwrap_or(0),
            message: message.into(),
        }
    }

    /// An [`SuiteError::Io`] for `path`.
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// `path:line: message`, or `path: message` when the line is unknown (0).
struct Located<'a> {
    path: &'a Path,
    line: usize,
    message: &'a str,
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "{}: {}", self.path.display(), self.message),
            line => write!(f, "{}:{line}: {}", self.path.display(), self.message),
        }
    }
}

/// Reads a file as UTF-8 text, dropping a leading byte-order mark.
pub(crate) fn read_text(path: &Path) -> Result<String, SuiteError> {
    let bytes = std::fs::read(path).map_err(|e| SuiteError::io(path, e))?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let line = bytes[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        SuiteError::invalid(path, Some(line), "not valid UTF-8")
    })
}

/// A serde_yaml error as [`SuiteError::Invalid`] at the line serde_yaml gives.
pub(crate) fn yaml_error(path: &Path, err: &serde_yaml::Error) -> SuiteError {
    let line = err.location().map(|l| l.line());
    let text = err.to_string();
    let message = text.split(" at line ").next().unwrap_or(&text);
    SuiteError::invalid(path, line, format!("invalid YAML: {message}"))
}

/// A serde_json error as [`SuiteError::Invalid`] at the line serde_json gives.
pub(crate) fn json_error(path: &Path, err: &serde_json::Error) -> SuiteError {
    let text = err.to_string();
    let message = text.split(" at line ").next().unwrap_or(&text);
    SuiteError::invalid(
        path,
        Some(err.line()).filter(|l| *l > 0),
        format!("invalid JSON: {message}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_message_names_file_and_line() {
        let err = SuiteError::invalid(Path::new("t/config.yaml"), Some(3), "bad");
        assert_eq!(err.to_string(), "t/config.yaml:3: bad");
        let err = SuiteError::invalid(Path::new("t/config.yaml"), None, "bad");
        assert_eq!(err.to_string(), "t/config.yaml: bad");
        assert!(err.is_bad_input());
    }

    #[test]
    fn read_text_strips_bom_and_locates_bad_utf8() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.csv");
        std::fs::write(&path, b"\xEF\xBB\xBFa,b\n").unwrap();
        assert_eq!(read_text(&path).unwrap(), "a,b\n");
        std::fs::write(&path, b"a\nb\n\xFF\n").unwrap();
        let err = read_text(&path).unwrap_err();
        assert!(
            err.to_string().ends_with("a.csv:3: not valid UTF-8"),
            "{err}"
        );
    }

    #[test]
    fn yaml_errors_keep_the_line_once() {
        let err = serde_yaml::from_str::<serde_yaml::Value>("a: 1\nb: [\n").unwrap_err();
        let err = yaml_error(Path::new("c.yaml"), &err);
        let text = err.to_string();
        assert!(text.starts_with("c.yaml:3: invalid YAML: "), "{text}");
        assert!(!text.contains(" at line "), "{text}");
    }
}
