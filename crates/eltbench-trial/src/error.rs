//! Why a trial (or the runner itself) could not be set up. Bad input (an
//! unknown agent, a missing agent binary) is told apart from a broken
//! environment so the command line can exit 2 for the first.

use std::path::PathBuf;

use eltbench_harness::HarnessError;

/// A failure of the runner, never the agent's.
#[derive(Debug, thiserror::Error)]
pub enum TrialError {
    /// The `--agent` spec is unusable (bad input).
    #[error("agent `{spec}`: {message}")]
    AgentSpec { spec: String, message: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Config { path: PathBuf, message: String },
    #[error("task {db}: environment failed to start: {message}")]
    Environment { db: String, message: String },
    #[error("Airbyte server: {0}")]
    Airbyte(String),
    #[error("dbt project in {path}: {message}")]
    Dbt { path: PathBuf, message: String },
    #[error("the suite at {path}: {message}")]
    Suite { path: PathBuf, message: String },
    #[error("background task: {0}")]
    Join(String),
}

impl TrialError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn spec(spec: &str, message: impl Into<String>) -> Self {
        Self::AgentSpec {
            spec: spec.to_owned(),
            message: message.into(),
        }
    }

    /// Whether this is the user's input being wrong (exit code 2).
    pub fn is_bad_input(&self) -> bool {
        matches!(self, Self::AgentSpec { .. } | Self::Suite { .. })
    }
}

impl From<TrialError> for HarnessError {
    fn from(e: TrialError) -> Self {
        match e {
            TrialError::Environment { .. } | TrialError::Airbyte(_) => {
                HarnessError::Environment(e.to_string())
            }
            other => HarnessError::Runner(other.to_string()),
        }
    }
}
