//! Trajectories for agents that are not an LLM loop (the oracle, command
//! agents), and the mapping of a trajectory's outcome to the harness's
//! `AgentStatus`.

use std::time::Instant;

use eltbench_agent::{Action, Outcome, Step, Totals, Trajectory};
use eltbench_harness::AgentStatus;

/// The harness status for a trajectory outcome.
pub fn status_of(outcome: &Outcome) -> AgentStatus {
    match outcome {
        Outcome::Finished { .. } => AgentStatus::Finished,
        Outcome::StepLimit { .. } => AgentStatus::StepLimit,
        Outcome::CostLimit { .. } => AgentStatus::CostLimit,
        Outcome::Timeout | Outcome::Cancelled => AgentStatus::Timeout,
        Outcome::LlmError { status, message } => AgentStatus::Error {
            message: match status {
                Some(code) => format!("LLM API HTTP {code}: {message}"),
                None => format!("LLM API: {message}"),
            },
        },
        Outcome::ParseErrors { consecutive } => AgentStatus::Error {
            message: format!("{consecutive} unparseable replies in a row"),
        },
        Outcome::Error { message } => AgentStatus::Error {
            message: message.clone(),
        },
    }
}

/// Builds the trajectory of a scripted (non-LLM) agent step by step.
pub struct Recorder {
    agent: String,
    instruction: String,
    started_at: String,
    started: Instant,
    steps: Vec<Step>,
}

impl Recorder {
    pub fn new(agent: &str, instruction: &str) -> Self {
        Self {
            agent: agent.to_owned(),
            instruction: instruction.to_owned(),
            started_at: now(),
            started: Instant::now(),
            steps: Vec::new(),
        }
    }

    /// Records one action that started at `started` with what it produced.
    pub fn step(&mut self, thought: &str, action: Action, started: Instant, observation: String) {
        self.steps.push(Step {
            index: self.steps.len(),
            started_at: now(),
            duration_ms: millis(started),
            llm_ms: 0,
            thought: thought.to_owned(),
            response: String::new(),
            action: Some(action),
            observation,
            parse_error: None,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
        });
    }

    /// The trajectory, with token and cost totals as the agent reported them.
    pub fn finish(self, outcome: Outcome, tokens: (u64, u64), cost_usd: Option<f64>) -> Trajectory {
        let totals = Totals {
            steps: self.steps.len(),
            llm_calls: 0,
            llm_retries: 0,
            input_tokens: tokens.0,
            output_tokens: tokens.1,
            cost_usd: cost_usd.unwrap_or(0.0),
            priced: cost_usd.is_some(),
            duration_ms: millis(self.started),
        };
        Trajectory {
            agent: self.agent,
            model: String::new(),
            provider: String::new(),
            started_at: self.started_at,
            instruction: self.instruction,
            system_prompt: String::new(),
            steps: self.steps,
            outcome,
            totals,
        }
    }
}

fn millis(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_map_to_statuses() {
        assert_eq!(status_of(&Outcome::Cancelled), AgentStatus::Timeout);
        let llm = Outcome::LlmError {
            status: Some(429),
            message: "slow down".into(),
        };
        assert_eq!(
            status_of(&llm),
            AgentStatus::Error {
                message: "LLM API HTTP 429: slow down".into()
            }
        );
        assert_eq!(
            status_of(&Outcome::StepLimit { max_steps: 3 }),
            AgentStatus::StepLimit
        );
    }
}
