//! The agents a trial can run, behind one trait ([`TrialAgent`]): each gets
//! the agent context (workspace, instruction, limits, cancellation, command
//! environment, warehouse) and the trial's paths, and returns how it ended
//! with a trajectory. Built once per job from the `--agent` spec
//! ([`build_agent`]).
//!
//! An agent never fails: every ending is an `AgentStatus`. Agents never
//! score, and never start or stop the trial's services.

mod builtin;
mod command;
mod cost;
mod gold;
mod oracle;
mod record;
mod shell;

use std::path::PathBuf;
use std::sync::Arc;

use eltbench_agent::{AgentContext, Trajectory};
use eltbench_dbt::DbtToolchain;
use eltbench_harness::AgentStatus;
use eltbench_sandbox::SandboxSpec;
use eltbench_task::Suite;

use crate::{AgentSpec, TrialError, Workspace};

pub use command::{SANDBOX_JSON, STDERR_LOG, STDOUT_LOG};
pub use cost::{CommandUsage, parse_usage};
pub use gold::substitute_tokens;
pub use record::status_of;
pub use shell::SandboxShell;

/// What one agent run is given.
pub struct AgentInput {
    pub ctx: AgentContext,
    pub db: String,
    /// The trial directory (logs go here).
    pub trial_dir: PathBuf,
    pub workspace: Workspace,
    /// The sandbox of the agent's processes (the command agent's process,
    /// each Bash action of the builtin agent).
    pub sandbox: SandboxSpec,
}

/// How an agent run ended.
#[derive(Debug, Clone)]
pub struct AgentRun {
    pub status: AgentStatus,
    pub trajectory: Trajectory,
    /// Whether the agent's processes ran under bubblewrap (`None`: the agent
    /// runs no processes of its own, or never started).
    pub sandboxed: Option<bool>,
    /// `bubblewrap` or `none: <reason>` (`None` as for `sandboxed`).
    pub sandbox_mode: Option<String>,
}

/// An agent the harness can run on a trial.
#[async_trait::async_trait]
pub trait TrialAgent: Send + Sync {
    /// Runs on one trial until done, a limit, or cancellation.
    async fn run(&self, input: AgentInput) -> AgentRun;
}

/// The agent for `spec` (`text` is the spec as given, for messages).
pub fn build_agent(
    spec: &AgentSpec,
    text: &str,
    suite: Arc<Suite>,
    dbt: DbtToolchain,
) -> Result<Arc<dyn TrialAgent>, TrialError> {
    spec.check(text)?;
    Ok(match spec {
        AgentSpec::Oracle => Arc::new(oracle::OracleAgent::new(suite, dbt)),
        AgentSpec::Command { template } => Arc::new(command::CommandAgent::new(template)),
        AgentSpec::Builtin { provider, model } => {
            Arc::new(builtin::Builtin::new(text, *provider, model)?)
        }
    })
}
