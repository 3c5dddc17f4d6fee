//! The record of one agent run: its steps, how it ended and what it cost, written
//! as `trajectory.json` with a stable field order.
//!
//! A trajectory must never hold an API key: whoever builds one redacts first.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::actions::Action;

/// The file name [`write_trajectory`] writes.
pub const TRAJECTORY_FILE: &str = "trajectory.json";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trajectory {
    pub agent: String,
    pub model: String,
    pub provider: String,
    /// RFC 3339, UTC.
    pub started_at: String,
    pub instruction: String,
    pub system_prompt: String,
    pub steps: Vec<Step>,
    pub outcome: Outcome,
    pub totals: Totals,
}

/// One model turn: what the model said, the action parsed from it and what the
/// action produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// 0-based.
    pub index: usize,
    /// RFC 3339, UTC.
    pub started_at: String,
    pub duration_ms: u64,
    /// Time spent waiting for the model, retries included.
    pub llm_ms: u64,
    pub thought: String,
    /// The model's whole reply.
    pub response: String,
    /// `None` when the reply could not be parsed.
    pub action: Option<Action>,
    /// What the agent saw after the action (truncated to the limit).
    pub observation: String,
    pub parse_error: Option<String>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// The agent said it was done.
    Finished {
        answer: String,
    },
    StepLimit {
        max_steps: usize,
    },
    CostLimit {
        limit_usd: f64,
        cost_usd: f64,
    },
    /// The overall deadline passed.
    Timeout,
    Cancelled,
    /// The model could not be reached (after retries) or refused the request.
    LlmError {
        status: Option<u16>,
        message: String,
    },
    /// The model kept answering in a form that could not be parsed.
    ParseErrors {
        consecutive: usize,
    },
    /// The run could not start (for example, the workspace is missing).
    Error {
        message: String,
    },
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub steps: usize,
    /// Successful model calls.
    pub llm_calls: usize,
    /// Failed attempts that were retried.
    pub llm_retries: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
    /// False when the model has no price in the table (its cost counts as 0).
    pub priced: bool,
    pub duration_ms: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum TrajectoryError {
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot serialise the trajectory for {path}: {source}")]
    Serialise {
        path: PathBuf,
        source: serde_json::Error,
    },
}

/// Writes `dir/trajectory.json` (pretty JSON, via a temporary file and a rename so
/// a reader never sees half a file) and returns its path.
pub fn write_trajectory(dir: &Path, trajectory: &Trajectory) -> Result<PathBuf, TrajectoryError> {
    let path = dir.join(TRAJECTORY_FILE);
    let mut text =
        serde_json::to_string_pretty(trajectory).map_err(|source| TrajectoryError::Serialise {
            path: path.clone(),
            source,
        })?;
    text.push('\n');
    let tmp = dir.join(format!(".{TRAJECTORY_FILE}.tmp"));
    let write_err = |source| TrajectoryError::Write {
        path: path.clone(),
        source,
    };
    std::fs::write(&tmp, text).map_err(write_err)?;
    std::fs::rename(&tmp, &path).map_err(write_err)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Trajectory {
        Trajectory {
            agent: "builtin".into(),
            model: "m".into(),
            provider: "openai".into(),
            started_at: "2025-01-01T00:00:00.000Z".into(),
            instruction: "do it".into(),
            system_prompt: "sys".into(),
            steps: vec![Step {
                index: 0,
                started_at: "2025-01-01T00:00:00.000Z".into(),
                duration_ms: 5,
                llm_ms: 3,
                thought: "t".into(),
                response: "r".into(),
                action: Some(Action::Bash { code: "ls".into() }),
                observation: "o".into(),
                parse_error: None,
                input_tokens: 1,
                output_tokens: 2,
                cost_usd: 0.0,
            }],
            outcome: Outcome::Finished {
                answer: "ok".into(),
            },
            totals: Totals::default(),
        }
    }

    #[test]
    fn field_order_is_stable_and_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_trajectory(dir.path(), &sample()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let keys = [
            "\"agent\"",
            "\"model\"",
            "\"steps\"",
            "\"outcome\"",
            "\"totals\"",
        ];
        let positions: Vec<usize> = keys.iter().map(|k| text.find(k).unwrap()).collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert!(text.contains("\"kind\": \"finished\""));
        assert!(text.contains("\"type\": \"bash\""));
        let back: Trajectory = serde_json::from_str(&text).unwrap();
        assert_eq!(back, sample());
    }

    #[test]
    fn missing_directory_names_the_path() {
        let err = write_trajectory(Path::new("/nonexistent/dir"), &sample()).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/dir/trajectory.json"));
    }
}
