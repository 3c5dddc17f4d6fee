//! Agents for eltbench: the interface every agent implements ([`Agent`], given an
//! [`AgentContext`], returning a [`Trajectory`]) and the builtin Spider-Agent-style
//! ReAct agent ([`BuiltinAgent`]) with its actions and LLM providers.
//!
//! This crate runs an agent inside a workspace that someone else prepared; it never
//! provisions sources, starts services or scores results (that is the harness's and
//! the scorer's job).

pub mod actions;
mod agent;
mod builtin;
mod history;
pub mod llm;
mod observation;
pub mod parse;
pub mod prompt;
mod trajectory;

pub use actions::{Action, Actions, DirectShell, Shell, ShellProcess, ShellRequest, ShellWatch};
pub use agent::{Agent, AgentContext, Limits};
pub use builtin::{BuiltinAgent, BuiltinConfig};
pub use observation::truncate_observation;
pub use trajectory::{
    Outcome, Step, TRAJECTORY_FILE, Totals, Trajectory, TrajectoryError, write_trajectory,
};
