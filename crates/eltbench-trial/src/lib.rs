//! The real trial runner of eltbench ([`AgentTrialRunner`], an
//! `eltbench_harness::TrialRunner`): for each trial it brings the task's
//! sources and an Airbyte API up, writes the agent's workspace, runs the
//! agent (`oracle`, `command:<template>`, `builtin:<provider>:<model>`),
//! stops Airbyte, scores the warehouse and stops everything, leaving the
//! trajectory and the logs in the trial directory.
//!
//! A failure to set the trial up is a harness failure (`Err`), never the
//! agent's; every way the agent can end is an `AgentStatus`. This crate never
//! writes `result.json` (the harness does) and never passes an LLM key into an
//! agent's environment.

mod agents;
mod config;
mod docs;
mod env_vars;
mod error;
mod instruction;
mod redact;
mod runner;
mod sandbox;
mod services;
mod spec;
mod workspace;

pub use agents::{
    AgentInput, AgentRun, CommandUsage, SANDBOX_JSON, STDERR_LOG, STDOUT_LOG, SandboxShell,
    TrialAgent, build_agent, parse_usage, status_of, substitute_tokens,
};
pub use config::{SCHEMA, lookup, workspace_config};
pub use eltbench_sandbox::{
    BWRAP_VAR, Limits as SandboxLimits, Mode as SandboxMode, expected_mode as expected_sandbox_mode,
};
pub use env_vars::{ENV_VARS, LlmEnv, MAX_RETRIES_VAR};
pub use error::TrialError;
pub use instruction::instruction;
pub use redact::{REDACTED, redact, redact_file, secrets};
pub use runner::{AgentTrialRunner, RunnerOptions, SYNC_LOG};
pub use sandbox::{
    SandboxOptions, TrialView, agent_env, hidden_paths, parse_bytes, toolchain_paths, trial_spec,
};
pub use services::{Services, create_readable_dir};
pub use spec::{AgentSpec, Provider, find_on_path, program_of};
pub use workspace::{Inputs, Workspace, build as build_workspace, provider_tf};
