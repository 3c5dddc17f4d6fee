//! `command:<template>`: any CLI agent. The template is a `sh -c` command
//! line in which `{workspace}` and `{instruction}` are replaced by
//! single-quoted shell words (do not quote them again in the template). It
//! runs in the trial's sandbox (`crate::sandbox`: bubblewrap, workspace
//! read-write, toolchain read-only, ground truth and other trials invisible,
//! only the trial's ports, an explicit environment, cgroup limits) with the
//! workspace as working directory and `PATH` starting with the workspace's
//! `bin/`; stdout goes to `agent.log`, stderr to `agent.stderr.log`, and the
//! isolation and resource usage to `sandbox.json` in the trial directory.
//!
//! On cancellation, the deadline or a limit hit every process of the agent is
//! killed; after the agent exits, whatever it left running is killed too. A
//! non-zero exit is `Crashed`, the wall limit `Timeout`, any other limit
//! `Limit { limit: <memory|cpu|processes|disk>, detail }`. Tokens
//! and cost come from the last stdout line when it is JSON (see
//! [`super::cost`]).

use std::fs::File;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::Instant;

use eltbench_agent::{Action, Outcome};
use eltbench_harness::AgentStatus;
use eltbench_sandbox::{Guard, LimitHit, Limits, Mode, Sandboxed, Stats, classify};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use serde::Serialize;

use super::cost::parse_usage;
use super::record::Recorder;
use super::shell::describe;
use super::{AgentInput, AgentRun, TrialAgent};

/// stdout of the agent, in the trial directory.
pub const STDOUT_LOG: &str = "agent.log";
/// stderr of the agent, in the trial directory.
pub const STDERR_LOG: &str = "agent.stderr.log";
/// How the agent was sandboxed and what it used, in the trial directory.
pub const SANDBOX_JSON: &str = "sandbox.json";

/// How often the limits are checked; the disk every [`DISK_EVERY`] checks.
const POLL: std::time::Duration = std::time::Duration::from_millis(100);
const DISK_EVERY: u32 = 10;

pub struct CommandAgent {
    template: String,
}

impl CommandAgent {
    pub fn new(template: &str) -> Self {
        Self {
            template: template.to_owned(),
        }
    }
}

/// The command line with the placeholders replaced by quoted words.
pub fn render(template: &str, workspace: &Path, instruction: &str) -> String {
    template
        .replace("{workspace}", &quote(&workspace.to_string_lossy()))
        .replace("{instruction}", &quote(instruction))
}

/// `text` as one single-quoted `sh` word.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

enum Ending {
    /// The agent's status is read again after the kill (it is kept).
    Exited,
    Limit(LimitHit),
    Stopped,
}

/// A started agent: its process (the sandbox wrapper), the guard of its
/// limits, and what isolation it got.
struct Running {
    child: tokio::process::Child,
    guard: Guard,
    sandboxed: Sandboxed,
}

#[async_trait::async_trait]
impl TrialAgent for CommandAgent {
    async fn run(&self, input: AgentInput) -> AgentRun {
        let ctx = &input.ctx;
        let mut recorder = Recorder::new("command", &ctx.instruction);
        let line = render(&self.template, &ctx.workspace, &ctx.instruction);
        let started = Instant::now();
        let (ended, mode) = match spawn(&line, &input) {
            Ok(running) => {
                let mode = running.sandboxed.mode.clone();
                (supervise(running, &input).await, Some(mode))
            }
            Err(message) => (crashed(message), None),
        };
        let (status, outcome, observation) = ended;
        recorder.step(
            "run the agent command",
            Action::Bash { code: line },
            started,
            observation,
        );
        let stdout = std::fs::read_to_string(input.trial_dir.join(STDOUT_LOG)).unwrap_or_default();
        let usage = parse_usage(&stdout).unwrap_or_default();
        let trajectory = recorder.finish(
            outcome,
            (usage.input_tokens, usage.output_tokens),
            usage.cost_usd,
        );
        AgentRun {
            status,
            trajectory,
            sandboxed: mode.as_ref().map(|m| *m == Mode::Bubblewrap),
            sandbox_mode: mode.as_ref().map(Mode::label),
        }
    }
}

fn crashed(message: String) -> (AgentStatus, Outcome, String) {
    (
        AgentStatus::Crashed { exit: None },
        Outcome::Error {
            message: message.clone(),
        },
        message,
    )
}

/// Prepares the sandbox and starts `sh -c line` in it.
fn spawn(line: &str, input: &AgentInput) -> Result<Running, String> {
    let open = |name: &str| {
        let path = input.trial_dir.join(name);
        File::create(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let (stdout, stderr) = (open(STDOUT_LOG)?, open(STDERR_LOG)?);
    let prepared = eltbench_sandbox::prepare(&input.sandbox, "/bin/sh", &["-c", line])
        .map_err(|e| format!("cannot prepare the sandbox: {e}"))?;
    let mut command = tokio::process::Command::from(prepared.command);
    command
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .kill_on_drop(true);
    let child = command
        .spawn()
        .map_err(|e| format!("cannot start `sh -c {line}`: {e}"))?;
    Ok(Running {
        child,
        guard: prepared.guard,
        sandboxed: prepared.sandboxed,
    })
}

/// Waits for the agent while enforcing its limits; kills everything of it
/// afterwards; writes `sandbox.json`; says how it ended.
async fn supervise(running: Running, input: &AgentInput) -> (AgentStatus, Outcome, String) {
    let Running {
        mut child,
        guard,
        sandboxed,
    } = running;
    let started = Instant::now();
    let mut tick = tokio::time::interval(POLL);
    let mut polls = 0u32;
    let ending = loop {
        tokio::select! {
            _ = child.wait() => break Ending::Exited,
            () = input.ctx.cancel.cancelled() => break Ending::Stopped,
            _ = tick.tick() => {
                polls = polls.wrapping_add(1);
                if let Some(hit) = guard.check(started.elapsed(), polls.is_multiple_of(DISK_EVERY)) {
                    break Ending::Limit(hit);
                }
            }
        }
    };
    kill_group(&child);
    guard.kill_all();
    let waited = child.wait().await;
    let killed_for = match &ending {
        Ending::Limit(hit) => Some(*hit),
        _ => None,
    };
    let stats = guard.stats(started.elapsed(), killed_for);
    let limit = match &waited {
        Ok(status) => classify(*status, &stats),
        Err(_) => killed_for.unwrap_or(LimitHit::None),
    };
    let report = SandboxReport {
        sandboxed: &sandboxed,
        limits: &input.sandbox.limits,
        limit,
        exit_code: waited.as_ref().ok().and_then(|s| s.code()),
        stats: &stats,
    };
    report.write(&input.trial_dir);
    drop(guard);
    match (ending, limit) {
        (Ending::Stopped, _) | (_, LimitHit::Wall) => (
            AgentStatus::Timeout,
            Outcome::Timeout,
            "stopped: the trial's time ran out (every process of the agent killed)".into(),
        ),
        (_, LimitHit::None) => match waited {
            Ok(status) => exited(status),
            Err(e) => crashed(format!("waiting for the agent: {e}")),
        },
        (_, hit) => limit_hit(hit, &input.sandbox.limits),
    }
}

/// Kills the agent's process group (the wrapper and, unsandboxed, its children).
fn kill_group(child: &tokio::process::Child) {
    if let Some(pgid) = child.id().and_then(|id| i32::try_from(id).ok()) {
        let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
    }
}

/// A limit other than wall time: the trial ends with status `limit` (the
/// trajectory's outcome an error `limit: <name> (...)`).
fn limit_hit(hit: LimitHit, limits: &Limits) -> (AgentStatus, Outcome, String) {
    let detail = format!(
        "{}; every process of the agent killed",
        describe(hit, limits)
    );
    let message = format!("limit: {} ({detail})", hit.name());
    (
        AgentStatus::Limit {
            limit: hit.name().to_owned(),
            detail,
        },
        Outcome::Error {
            message: message.clone(),
        },
        message,
    )
}

/// `sandbox.json` in the trial directory: the isolation, limits and usage.
#[derive(Serialize)]
struct SandboxReport<'a> {
    sandboxed: &'a Sandboxed,
    limits: &'a Limits,
    limit: LimitHit,
    exit_code: Option<i32>,
    stats: &'a Stats,
}

impl SandboxReport<'_> {
    fn write(&self, trial_dir: &Path) {
        let path = trial_dir.join(SANDBOX_JSON);
        if let Ok(text) = serde_json::to_string_pretty(self) {
            let _ = std::fs::write(path, text + "\n");
        }
    }
}

fn exited(status: ExitStatus) -> (AgentStatus, Outcome, String) {
    use std::os::unix::process::ExitStatusExt;
    match status.code() {
        Some(0) => (
            AgentStatus::Finished,
            Outcome::Finished {
                answer: String::new(),
            },
            "[exit code: 0]".into(),
        ),
        code => {
            let message = match (code, status.signal()) {
                (Some(c), _) => format!("the agent exited with code {c}"),
                (None, Some(s)) => format!("the agent was killed by signal {s}"),
                (None, None) => "the agent ended abnormally".into(),
            };
            (
                AgentStatus::Crashed { exit: code },
                Outcome::Error {
                    message: message.clone(),
                },
                message,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_single_quoted_words() {
        let line = render(
            "agent --dir {workspace} -p {instruction}",
            Path::new("/t/ws"),
            "it's done",
        );
        assert_eq!(line, "agent --dir '/t/ws' -p 'it'\\''s done'");
    }
}
