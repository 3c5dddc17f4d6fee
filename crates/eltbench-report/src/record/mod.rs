//! The one trial record of eltbench ([`TrialRecord`]): what the job runner
//! writes to each trial's `result.json` and, one per line, to the job's
//! `results.jsonl`, and what resumes, summaries and reports read back.
//!
//! This module defines and parses the format; it never computes a metric.

mod agent;

use std::path::Path;

use eltbench_score::TaskScore;
use serde::{Deserialize, Serialize};

pub use agent::{AgentStatus, shorten};

use crate::error::ReportError;

/// The `agent_status` of an agent that ended normally (said it was done).
/// Every other status counts as an agent runtime error in the stage-2
/// taxonomy.
pub const AGENT_FINISHED: &str = "finished";

/// The `agent_status` of a trial that failed in the harness.
pub const HARNESS_FAILURE: &str = "harness_failure";

/// One finished trial: an agent on one task (one of its `k` trials), how it
/// ended, what it cost and, when it could be scored, its full score.
///
/// Field order is the serialized order. Fields after `agent_status` default
/// when absent, so a record written by an older runner still reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialRecord {
    /// Unique within the job: `<db>__<index>`, the trial's directory name.
    pub trial_id: String,
    /// The task (its database name).
    pub db: String,
    /// The trial's index in `0..k`.
    pub index: u32,
    /// The agent status name (see [`AGENT_FINISHED`]), or [`HARNESS_FAILURE`].
    pub agent_status: String,
    /// How the agent ended; `None` for a harness failure.
    #[serde(default)]
    pub agent: Option<AgentStatus>,
    /// Harness attempts made (2 when the first failed in the harness).
    #[serde(default)]
    pub harness_attempts: u32,
    /// The error of each failed harness attempt.
    #[serde(default)]
    pub harness_errors: Vec<String>,
    /// Agent steps taken.
    #[serde(default)]
    pub steps: u64,
    /// LLM input tokens.
    #[serde(default)]
    pub input_tokens: u64,
    /// LLM output tokens.
    #[serde(default)]
    pub output_tokens: u64,
    /// LLM cost in US dollars.
    #[serde(default)]
    pub cost_usd: f64,
    /// Wall-clock seconds from the first attempt's start to the end.
    #[serde(default)]
    pub duration_s: f64,
    /// RFC 3339 (empty when unknown).
    #[serde(default)]
    pub started_at: String,
    /// RFC 3339 (empty when unknown).
    #[serde(default)]
    pub finished_at: String,
    /// Whether the agent ran inside a real sandbox (`None`: not reported,
    /// e.g. the oracle, or a harness failure before the agent started).
    #[serde(default)]
    pub sandboxed: Option<bool>,
    /// How the agent was isolated: `bubblewrap`, or `none: <reason>` (the
    /// reason the sandbox could not be made, or `--no-sandbox`); `None` when
    /// not reported (as for `sandboxed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox_mode: Option<String>,
    /// The score of the warehouse the agent left; `None` for a harness
    /// failure or an unscorable warehouse.
    #[serde(default)]
    pub score: Option<TaskScore>,
}

impl TrialRecord {
    /// Whether the trial failed in the harness (not the agent's failure):
    /// it is left out of every rate.
    pub fn is_harness_failure(&self) -> bool {
        self.agent.is_none()
    }

    /// The last harness error of a harness failure.
    pub fn harness_failure(&self) -> Option<&str> {
        if !self.is_harness_failure() {
            return None;
        }
        let last = self.harness_errors.last().map(String::as_str);
        Some(last.unwrap_or("harness failure (no message recorded)"))
    }

    /// Whether the trial counts towards the rates: scored, and no harness
    /// failure.
    pub fn counted(&self) -> bool {
        !self.is_harness_failure() && self.score.is_some()
    }

    /// Whether the agent ended normally.
    pub fn agent_finished(&self) -> bool {
        self.agent_status == AGENT_FINISHED
    }

    /// LLM tokens, input and output.
    pub fn tokens(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
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

    const LINE: &str = r#"{"trial_id":"a__0","db":"a","index":0,"agent_status":"finished","agent":{"status":"finished"},"harness_attempts":1,"harness_errors":[],"steps":3,"input_tokens":10,"output_tokens":5,"cost_usd":0.5,"duration_s":2.0,"started_at":"2026-01-01T00:00:00.000Z","finished_at":"2026-01-01T00:00:02.000Z","sandboxed":true,"score":null}"#;

    #[test]
    fn parses_lines_and_skips_blank_ones() {
        let text = format!("{LINE}\n\n{LINE}\n");
        let records = parse_results(&text, Path::new("r.jsonl")).unwrap();
        assert_eq!(records.len(), 2);
        assert!(records[0].sandboxed == Some(true) && records[0].agent_finished());
        assert!(!records[0].counted() && !records[0].is_harness_failure());
        assert_eq!(records[0].tokens(), 15);
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

    #[test]
    fn the_sandbox_mode_is_kept_and_optional() {
        let mut record: TrialRecord = serde_json::from_str(LINE).unwrap();
        assert_eq!(record.sandbox_mode, None);
        record.sandbox_mode = Some("none: bwrap missing".into());
        let json = serde_json::to_string(&record).unwrap();
        assert!(json.contains(r#""sandboxed":true,"sandbox_mode":"none: bwrap missing","score""#));
        let back: TrialRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, record);
    }

    #[test]
    fn a_minimal_harness_failure_reads() {
        let line = r#"{"trial_id":"a__1","db":"a","index":1,"agent_status":"harness_failure","harness_errors":["pg down"]}"#;
        let record: TrialRecord = serde_json::from_str(line).unwrap();
        assert_eq!(record.harness_failure(), Some("pg down"));
        assert_eq!(record.sandboxed, None);
        assert!(!record.counted());
    }
}
