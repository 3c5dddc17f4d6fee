//! The agent interface: what an agent is given ([`AgentContext`]: workspace,
//! instruction, limits, cancellation, command environment, warehouse, the
//! shell Bash actions run through) and what it
//! must return (a [`Trajectory`], whatever happened).
//!
//! Nothing here runs commands or talks to a model; an agent must never panic or
//! return early without a trajectory: failures are outcomes.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use crate::actions::{DirectShell, Shell};
use crate::trajectory::Trajectory;

/// Budgets that end a run (or one action) early.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Most model turns (steps) in one run.
    pub max_steps: usize,
    /// Longest observation shown to the model and stored in the trajectory.
    pub max_observation_chars: usize,
    /// Wall-clock budget of one action (a Bash command, an SQL query).
    pub action_timeout: Duration,
    /// Stop once the run has cost at least this much (USD); `None` = no limit.
    pub max_cost_usd: Option<f64>,
    /// Stop at this instant, whatever is running; `None` = no deadline.
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 100,
            max_observation_chars: 30_000,
            action_timeout: Duration::from_secs(200),
            max_cost_usd: None,
            deadline: None,
        }
    }
}

/// Everything one run of an agent needs.
#[derive(Debug, Clone)]
pub struct AgentContext {
    /// The trial workspace; commands run here and relative paths resolve here.
    pub workspace: PathBuf,
    /// The task text given to the agent.
    pub instruction: String,
    pub limits: Limits,
    /// Cancelling it stops the run (and kills a running command) promptly.
    pub cancel: CancellationToken,
    /// Variables set for every command the agent runs (the harness puts `PATH`
    /// with `terraform` and `dbt` here). Values override the few inherited ones.
    pub env: BTreeMap<String, String>,
    /// The DuckDB warehouse file the SQL actions open; `None` disables them.
    pub warehouse: Option<PathBuf>,
    /// How Bash actions become processes (default [`DirectShell`]: unsandboxed
    /// `bash -lc` in the workspace); a harness passes a sandboxing one.
    pub shell: Arc<dyn Shell>,
}

impl AgentContext {
    /// A context with default limits, a fresh cancellation token, no extra
    /// environment, no warehouse and the [`DirectShell`].
    pub fn new(workspace: impl Into<PathBuf>, instruction: impl Into<String>) -> Self {
        AgentContext {
            workspace: workspace.into(),
            instruction: instruction.into(),
            limits: Limits::default(),
            cancel: CancellationToken::new(),
            env: BTreeMap::new(),
            warehouse: None,
            shell: Arc::new(DirectShell),
        }
    }
}

/// An agent that works on one task in one workspace.
#[async_trait]
pub trait Agent: Send + Sync {
    /// Short stable name recorded in trajectories and reports (`builtin`, `oracle`).
    fn name(&self) -> &str;

    /// Works on the task until it finishes or a limit stops it. Never fails:
    /// every way a run can end is an [`crate::Outcome`].
    async fn run(&self, ctx: AgentContext) -> Trajectory;
}
