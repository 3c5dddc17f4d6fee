//! The `results.jsonl` line format: one [`TrialRecord`] per trial, written
//! by the job runner and read back here to build reports.
//!
//! This module defines and parses the format; it never computes a metric.

mod score;

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use score::{ModelRecord, ScoreRecord, Stage1Record};

use crate::error::ReportError;

/// The `agent_status` of an agent that ended normally (said it was done).
/// Every other status (`step_limit`, `cost_limit`, `timeout`, `cancelled`,
/// `llm_error`, `parse_errors`, `crashed`, `error`: the snake_case names of
/// eltbench-agent's `Outcome` and the harness's agent status) counts as an agent runtime error in the stage-2 taxonomy.
pub const AGENT_FINISHED: &str = "finished";

/// One line of `results.jsonl`: one trial (an agent on one task, one
/// attempt), its cost and, when it could be scored, its score.
///
/// Field order is the serialized order. Example line (wrapped):
/// `{"trial_id":"airline-1","db":"airline","attempt":1,"agent_status":"finished",
/// "steps":12,"input_tokens":30000,"output_tokens":2000,"cost_usd":0.12,
/// "duration_s":95.5,"harness_failure":null,"sandboxed":true,"score":{...}}`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialRecord {
    /// Unique within the job (e.g. `<db>-<attempt>`).
    pub trial_id: String,
    /// The task (its database name).
    pub db: String,
    /// 1-based attempt number of this task within the job.
    pub attempt: u32,
    /// How the agent ended: see [`AGENT_FINISHED`].
    pub agent_status: String,
    /// Agent steps taken.
    pub steps: u64,
    /// LLM input tokens.
    pub input_tokens: u64,
    /// LLM output tokens.
    pub output_tokens: u64,
    /// LLM cost in US dollars.
    pub cost_usd: f64,
    /// Wall-clock duration of the trial in seconds.
    pub duration_s: f64,
    /// Set when the harness itself failed (provisioning, scoring crash...):
    /// the trial is not the agent's fault and is left out of every rate.
    #[serde(default)]
    pub harness_failure: Option<String>,
    /// Whether the agent ran inside a sandbox.
    #[serde(default)]
    pub sandboxed: bool,
    /// The task score (eltbench-score's `TaskScore` as serialized);
    /// `null` when the trial was not scored.
    #[serde(default)]
    pub score: Option<ScoreRecord>,
}

impl TrialRecord {
    /// Whether the trial counts towards the rates: scored, and no harness
    /// failure.
    pub fn counted(&self) -> bool {
        self.harness_failure.is_none() && self.score.is_some()
    }

    /// Whether the agent ended normally.
    pub fn agent_finished(&self) -> bool {
        self.agent_status == AGENT_FINISHED
    }
}

/// Parses `results.jsonl` text (blank lines allowed); `path` names the file
/// in errors, each with its 1-based line number.
pub fn parse_results(text: &str, path: &Path) -> Result<Vec<TrialRecord>, ReportError> {
    let lines = text.lines().enumerate();
    lines
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|source| ReportError::Line {
                path: path.to_path_buf(),
                line: i + 1,
                source,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"trial_id":"a-1","db":"a","attempt":1,"agent_status":"finished","steps":3,"input_tokens":10,"output_tokens":5,"cost_usd":0.5,"duration_s":2.0,"harness_failure":null,"sandboxed":true,"score":null}"#;

    #[test]
    fn parses_lines_and_skips_blank_ones() {
        let text = format!("{LINE}\n\n{LINE}\n");
        let records = parse_results(&text, Path::new("r.jsonl")).unwrap();
        assert_eq!(records.len(), 2);
        assert!(records[0].sandboxed && records[0].agent_finished());
        assert!(!records[0].counted());
    }

    #[test]
    fn malformed_line_names_file_and_line() {
        let text = format!("{LINE}\n\n{{\"trial_id\": 3}}\n");
        let err = parse_results(&text, Path::new("job/results.jsonl")).unwrap_err();
        let message = err.to_string();
        assert!(message.contains("job/results.jsonl:3"), "{message}");
    }

    #[test]
    fn round_trips_through_json() {
        let record: TrialRecord = serde_json::from_str(LINE).unwrap();
        let again = serde_json::to_string(&record).unwrap();
        assert_eq!(again, LINE);
    }
}
