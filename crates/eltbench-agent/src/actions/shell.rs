//! The hook that turns a Bash action into a process ([`Shell`]): by default
//! [`DirectShell`] runs `bash -lc` in the workspace; a harness passes its own
//! (e.g. one that wraps the command in a sandbox with resource limits) through
//! [`crate::AgentContext::shell`].
//!
//! A shell only prepares the process; running it, reading its output and
//! killing it on timeout stay with the Bash action. A shell must never add
//! variables to the environment it is given.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::Command;

/// What one Bash action asks of a [`Shell`].
#[derive(Debug, Clone, Copy)]
pub struct ShellRequest<'a> {
    /// The working directory (the agent's workspace).
    pub workspace: &'a Path,
    /// The complete environment of the command.
    pub env: &'a BTreeMap<String, String>,
    /// The script for `bash -lc` (the agent's code, after the environment exports).
    pub script: &'a str,
    /// How long the action may run (the Bash action also enforces it).
    pub timeout: Duration,
}

/// A process ready to spawn: stdio is set by the caller, which also puts it
/// in its own process group. `watch` (when given) is polled while it runs and
/// told to kill everything left of it afterwards.
pub struct ShellProcess {
    pub command: Command,
    pub watch: Option<Box<dyn ShellWatch>>,
}

/// Supervision of a prepared process beyond its process group (e.g. a
/// sandbox's cgroups).
pub trait ShellWatch: Send + Sync {
    /// A limit the command has hit, described for the model (`memory over
    /// 512 MiB`), or `None`. `elapsed` is the time since it started.
    fn check(&self, elapsed: Duration) -> Option<String>;
    /// Kills every process the command started, wherever they are.
    fn kill_all(&self);
}

/// Turns a Bash action into a process.
pub trait Shell: Send + Sync + Debug {
    /// The process for `request`, or why it cannot run (shown to the model).
    fn prepare(&self, request: ShellRequest<'_>) -> Result<ShellProcess, String>;
}

/// `bash -lc SCRIPT` in the workspace with exactly the given environment, no
/// isolation.
#[derive(Debug, Clone, Copy, Default)]
pub struct DirectShell;

impl Shell for DirectShell {
    fn prepare(&self, request: ShellRequest<'_>) -> Result<ShellProcess, String> {
        let mut command = Command::new("bash");
        command
            .arg("-lc")
            .arg(request.script)
            .current_dir(request.workspace)
            .env_clear()
            .envs(request.env)
            .stdin(Stdio::null());
        Ok(ShellProcess {
            command,
            watch: None,
        })
    }
}
