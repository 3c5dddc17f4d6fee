//! How an agent's run ended ([`AgentStatus`]), as trial runners report it
//! and `result.json` / `results.jsonl` record it.
//!
//! Plain data: this module never runs or judges an agent.

use serde::{Deserialize, Serialize};

/// How the agent's run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum AgentStatus {
    /// The agent said it was done.
    Finished,
    /// The wall-clock limit was hit.
    Timeout,
    /// The step limit was hit.
    StepLimit,
    /// The cost limit was hit.
    CostLimit,
    /// The agent process died.
    Crashed {
        /// Its exit code (`None` when killed by a signal).
        exit: Option<i32>,
    },
    /// A resource limit of the sandbox (memory, CPU time, processes, disk)
    /// was hit; every process of the agent was killed.
    Limit {
        /// Which: `memory`, `cpu`, `processes` or `disk`.
        limit: String,
        /// The limit's value and what was done (`memory over 512 MiB; ...`).
        detail: String,
    },
    /// The agent reported an error (API failure, bad response...).
    Error {
        /// What it said.
        message: String,
    },
}

impl AgentStatus {
    /// The status name as in `result.json`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Finished => "finished",
            Self::Timeout => "timeout",
            Self::StepLimit => "step_limit",
            Self::CostLimit => "cost_limit",
            Self::Crashed { .. } => "crashed",
            Self::Limit { .. } => "limit",
            Self::Error { .. } => "error",
        }
    }

    /// The name with its detail (exit code, shortened message).
    pub fn label(&self) -> String {
        match self {
            Self::Crashed { exit: Some(code) } => format!("crashed (exit {code})"),
            Self::Crashed { exit: None } => "crashed (signal)".into(),
            Self::Limit { limit, detail } => format!("limit: {limit} ({})", shorten(detail, 60)),
            Self::Error { message } => format!("error ({})", shorten(message, 80)),
            other => other.name().into(),
        }
    }
}

/// `text` cut to `max` characters with `...`.
pub fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_labels() {
        let json = serde_json::to_string(&AgentStatus::Crashed { exit: Some(3) }).unwrap();
        assert_eq!(json, r#"{"status":"crashed","exit":3}"#);
        assert_eq!(AgentStatus::StepLimit.name(), "step_limit");
        assert_eq!(
            AgentStatus::Crashed { exit: None }.label(),
            "crashed (signal)"
        );
        let long = AgentStatus::Error {
            message: "é".repeat(100),
        };
        assert_eq!(long.label(), format!("error ({}...)", "é".repeat(80)));
        let limit = AgentStatus::Limit {
            limit: "memory".into(),
            detail: "memory over 512 MiB".into(),
        };
        let json = serde_json::to_string(&limit).unwrap();
        assert_eq!(
            json,
            r#"{"status":"limit","limit":"memory","detail":"memory over 512 MiB"}"#
        );
        assert_eq!(limit.name(), "limit");
        assert_eq!(limit.label(), "limit: memory (memory over 512 MiB)");
    }
}
