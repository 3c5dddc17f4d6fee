//! The seam between the harness and the parts a trial uses: a
//! [`TrialRunner`] provisions the environment, runs the agent and scores
//! the warehouse; the harness owns everything around it (directories,
//! limits, retries, cancellation, records).
//!
//! A runner must stop its agent (the whole process group) and every
//! service it started when the [`TrialContext::cancel`] token fires, within
//! the job's grace period. It never writes `result.json`.

use std::sync::Arc;

use eltbench_score::TaskScore;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

pub use eltbench_report::AgentStatus;

use crate::{HarnessError, JobSpec, TrialDir, TrialId};

/// Runs one trial of a job.
#[async_trait::async_trait]
pub trait TrialRunner: Send + Sync {
    /// Runs `trial` to the end: `Ok` whenever the agent ran (whatever it
    /// achieved), `Err` when the trial itself could not run.
    async fn run(&self, trial: &TrialContext) -> Result<TrialOutcome, HarnessError>;
}

/// What a runner gets for one attempt at a trial.
#[derive(Debug, Clone)]
pub struct TrialContext {
    /// The trial (task and index in `0..k`).
    pub id: TrialId,
    /// The harness attempt: 1, or 2 when the first failed in the harness.
    pub attempt: u32,
    /// Its directory (exists; empty but for `trial.log`).
    pub dir: TrialDir,
    /// When the harness cancels the trial for taking too long.
    pub deadline: Instant,
    /// Fires on timeout and on Ctrl-C / SIGTERM: stop the agent and services.
    pub cancel: CancellationToken,
    /// The job.
    pub spec: Arc<JobSpec>,
}

impl TrialContext {
    /// The task (database name).
    pub fn db(&self) -> &str {
        &self.id.db
    }

    /// The trial's seed (see [`TrialId::seed`]).
    pub fn seed(&self) -> u64 {
        self.id.seed(self.spec.seed)
    }
}

/// What a runner reports for a trial the agent ran.
#[derive(Debug, Clone, PartialEq)]
pub struct TrialOutcome {
    /// How the agent ended.
    pub status: AgentStatus,
    /// Agent steps taken.
    pub steps: u64,
    /// LLM input tokens.
    pub input_tokens: u64,
    /// LLM output tokens.
    pub output_tokens: u64,
    /// LLM cost in USD.
    pub cost_usd: f64,
    /// Whether the agent ran inside a real sandbox (`None`: not applicable
    /// or not reported, e.g. the oracle).
    pub sandboxed: Option<bool>,
    /// How it was isolated: `bubblewrap` or `none: <reason>` (`None`: as for
    /// `sandboxed`).
    pub sandbox_mode: Option<String>,
    /// The score of the warehouse the agent left, `None` when it could not be
    /// scored at all (counted as a failure of the task).
    pub score: Option<TaskScore>,
}

impl TrialOutcome {
    /// An outcome with no steps, tokens, cost or score.
    pub fn bare(status: AgentStatus) -> Self {
        Self {
            status,
            steps: 0,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
            sandboxed: None,
            sandbox_mode: None,
            score: None,
        }
    }
}
