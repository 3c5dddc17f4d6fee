//! The one error type of the harness, shared with trial runners.
//!
//! A runner returns a [`HarnessError`] when the trial could not be run
//! (its environment failed to start, a service died): the harness records
//! that as `harness_failure`, never as an agent failure. Agent failures are
//! [`crate::AgentStatus`] values inside a successful outcome, never errors.

use std::path::PathBuf;

/// Why a job, or one attempt at a trial, could not run.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// A file of the job directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A job file is not the JSON the harness wrote.
    #[error("{path}: not a valid harness file: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: serde_json::Error,
    },
    /// The job spec is unusable (bad input).
    #[error("invalid job spec: {0}")]
    InvalidSpec(String),
    /// `run` was pointed at a job directory created with another spec.
    #[error(
        "{path}: this job was created with a different `{field}`; resume it unchanged \
         (`--resume`) or start a new job directory"
    )]
    SpecMismatch {
        /// The `job.json` of the existing job.
        path: PathBuf,
        /// The first field that differs.
        field: String,
    },
    /// `--resume` was pointed at a directory without `job.json`.
    #[error("{path}: not a job directory (no job.json)")]
    NotAJob {
        /// The directory.
        path: PathBuf,
    },
    /// Another process is running this job.
    #[error("{path}: the job is already running in another process")]
    Busy {
        /// The lock file.
        path: PathBuf,
    },
    /// A task of the spec is not in the suite.
    #[error("unknown task `{db}` in suite {suite}{}", did_you_mean(.near))]
    UnknownTask {
        /// The task asked for.
        db: String,
        /// The suite root.
        suite: PathBuf,
        /// Close names.
        near: Vec<String>,
    },
    /// A trial's environment (sources, Airbyte server, warehouse) failed to start.
    #[error("environment failed to start: {0}")]
    Environment(String),
    /// A trial runner failed for a reason that is not the agent's.
    #[error("trial runner failed: {0}")]
    Runner(String),
    /// A trial runner panicked (a bug in eltbench, not the agent's failure).
    #[error("trial runner panicked: {0}")]
    Panicked(String),
    /// A trial task of the harness itself failed.
    #[error("harness task failed: {0}")]
    Task(String),
}

impl HarnessError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    /// Whether the error is the user's input (exit 2) rather than a failure (exit 1).
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            Self::InvalidSpec(_)
                | Self::SpecMismatch { .. }
                | Self::NotAJob { .. }
                | Self::UnknownTask { .. }
        )
    }
}

fn did_you_mean(near: &[String]) -> String {
    if near.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", near.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_task_suggests_names() {
        let e = HarnessError::UnknownTask {
            db: "amplitud".into(),
            suite: PathBuf::from("/s"),
            near: vec!["amplitude".into()],
        };
        assert_eq!(
            e.to_string(),
            "unknown task `amplitud` in suite /s (did you mean amplitude?)"
        );
        assert!(e.is_bad_input());
        assert!(!HarnessError::Runner("x".into()).is_bad_input());
    }
}
