//! The builtin agent's [`Shell`]: every Bash action runs in the trial's
//! sandbox (the spec the command agent gets, see `crate::sandbox`), with its
//! own cgroups and a wall limit of the action's timeout; the sandbox's guard
//! watches the limits while it runs and kills what is left afterwards.
//!
//! The limits hold for the whole trial, as they do for a command agent: CPU
//! time and disk growth are budgets that every action spends from (an action
//! gets what is left), and a memory, CPU, process or disk hit ends the trial
//! with status `limit` (the action is killed, the agent is stopped through its
//! cancellation token, and [`SandboxShell::limit_hit`] names the limit). An
//! action's own timeout is not a trial limit: the model is told and goes on.
//!
//! It remembers which isolation the actions got, for the trial record. It
//! never widens the trial's spec; only the environment (already free of API
//! keys) and the wall limit come from the action.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use eltbench_agent::{Shell, ShellProcess, ShellRequest, ShellWatch};
use eltbench_sandbox::{Guard, LimitHit, Limits, Mode, SandboxSpec, expected_mode};
use tokio_util::sync::CancellationToken;

/// The disk is walked every this many checks (about once a second).
const DISK_EVERY: u32 = 5;

#[derive(Debug)]
pub struct SandboxShell {
    spec: SandboxSpec,
    /// The isolation of the last action, `None` before the first.
    seen: Mutex<Option<Mode>>,
    budget: Arc<Budget>,
}

/// What the trial's actions have spent, and the limit that ended it.
#[derive(Debug)]
struct Budget {
    /// Cancelled when a limit ends the trial (stops the agent's loop).
    stop: CancellationToken,
    cpu_used: Mutex<Duration>,
    /// Bytes the writable directories held when the trial's agent started.
    disk_baseline: u64,
    hit: Mutex<Option<(LimitHit, String)>>,
}

impl Budget {
    fn end(&self, hit: LimitHit, detail: &str) {
        if let Ok(mut slot) = self.hit.lock()
            && slot.is_none()
        {
            *slot = Some((hit, detail.to_owned()));
        }
        self.stop.cancel();
    }

    fn hit(&self) -> Option<(LimitHit, String)> {
        self.hit.lock().ok().and_then(|h| h.clone())
    }
}

impl SandboxShell {
    /// A shell for one trial; a limit hit cancels `stop`.
    pub fn new(spec: SandboxSpec, stop: CancellationToken) -> Self {
        let disk_baseline = eltbench_sandbox::disk_usage(&spec);
        Self {
            spec,
            seen: Mutex::new(None),
            budget: Arc::new(Budget {
                stop,
                cpu_used: Mutex::new(Duration::ZERO),
                disk_baseline,
                hit: Mutex::new(None),
            }),
        }
    }

    /// The isolation the actions got (when none ran: what they would have got).
    pub fn mode(&self) -> Mode {
        let seen = self.seen.lock().ok().and_then(|m| m.clone());
        seen.unwrap_or_else(|| expected_mode(self.spec.isolate))
    }

    /// The limit that ended the trial and its description, if one did.
    pub fn limit_hit(&self) -> Option<(LimitHit, String)> {
        self.budget.hit()
    }

    /// The trial's spec with the action's environment and wall limit, and what
    /// is left of the trial's CPU and disk budgets; `Err` when one is spent.
    fn action_spec(&self, request: &ShellRequest<'_>) -> Result<SandboxSpec, (LimitHit, String)> {
        let mut spec = self.spec.clone();
        spec.env = request.env.clone();
        spec.limits.wall = spec.limits.wall.min(request.timeout);
        let used = self.budget.cpu_used.lock().map_or(Duration::ZERO, |u| *u);
        let cpu_left = self.spec.limits.cpu_seconds.saturating_sub(used.as_secs());
        if cpu_left == 0 {
            return Err((LimitHit::Cpu, describe(LimitHit::Cpu, &self.spec.limits)));
        }
        let written =
            eltbench_sandbox::disk_usage(&self.spec).saturating_sub(self.budget.disk_baseline);
        let disk_left = self.spec.limits.disk_write_bytes.saturating_sub(written);
        if disk_left == 0 {
            return Err((LimitHit::Disk, describe(LimitHit::Disk, &self.spec.limits)));
        }
        spec.limits.cpu_seconds = cpu_left;
        spec.limits.disk_write_bytes = disk_left;
        Ok(spec)
    }
}

impl Shell for SandboxShell {
    fn prepare(&self, request: ShellRequest<'_>) -> Result<ShellProcess, String> {
        if let Some((_, detail)) = self.budget.hit() {
            return Err(format!("the trial ended at a limit: {detail}"));
        }
        let spec = match self.action_spec(&request) {
            Ok(spec) => spec,
            Err((hit, detail)) => {
                self.budget.end(hit, &detail);
                return Err(format!("the trial ended at a limit: {detail}"));
            }
        };
        let prepared = eltbench_sandbox::prepare(&spec, "bash", &["-lc", request.script])
            .map_err(|e| format!("cannot prepare the sandbox: {e}"))?;
        if let Ok(mut seen) = self.seen.lock() {
            *seen = Some(prepared.sandboxed.mode.clone());
        }
        let watch = SandboxWatch {
            guard: prepared.guard,
            // described with the trial's limits: the budget, not what was left
            limits: self.spec.limits,
            checks: AtomicU32::new(0),
            budget: Arc::clone(&self.budget),
        };
        Ok(ShellProcess {
            command: tokio::process::Command::from(prepared.command),
            watch: Some(Box::new(watch)),
        })
    }
}

/// The sandbox guard of one action.
struct SandboxWatch {
    guard: Guard,
    limits: Limits,
    checks: AtomicU32,
    budget: Arc<Budget>,
}

impl ShellWatch for SandboxWatch {
    fn check(&self, elapsed: Duration) -> Option<String> {
        let n = self.checks.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        let hit = self.guard.check(elapsed, n.is_multiple_of(DISK_EVERY))?;
        let detail = describe(hit, &self.limits);
        if hit != LimitHit::Wall {
            self.budget.end(hit, &detail);
        }
        Some(detail)
    }

    fn kill_all(&self) {
        self.guard.kill_all();
    }
}

impl Drop for SandboxWatch {
    /// The action is over: its CPU time counts against the trial's budget.
    fn drop(&mut self) {
        if let (Some(cpu), Ok(mut used)) = (self.guard.cpu(), self.budget.cpu_used.lock()) {
            *used += cpu;
        }
    }
}

/// `memory over 4096 MiB`, `more than 512 processes`...
pub fn describe(hit: LimitHit, limits: &Limits) -> String {
    match hit {
        LimitHit::Memory => format!("memory over {} MiB", limits.memory_bytes >> 20),
        LimitHit::Cpu => format!("CPU time over {} s", limits.cpu_seconds),
        LimitHit::Processes => format!("more than {} processes", limits.max_processes),
        LimitHit::Disk => format!("more than {} MiB written", limits.disk_write_bytes >> 20),
        LimitHit::Wall | LimitHit::None => format!("wall time over {} s", limits.wall.as_secs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::path::Path;

    #[test]
    fn an_action_gets_its_environment_and_the_shorter_wall_limit() {
        let mut base = SandboxSpec::new("/ws");
        base.limits.wall = Duration::from_secs(600);
        base.allowed_ports = vec![5432];
        let shell = SandboxShell::new(base, CancellationToken::new());
        let env = BTreeMap::from([("PATH".to_owned(), "/ws/bin:/usr/bin".to_owned())]);
        let request = ShellRequest {
            workspace: Path::new("/ws"),
            env: &env,
            script: "true",
            timeout: Duration::from_secs(200),
        };
        let spec = shell.action_spec(&request).unwrap();
        assert_eq!(spec.limits.wall, Duration::from_secs(200));
        assert_eq!(spec.env, env);
        assert_eq!(spec.allowed_ports, [5432]);
    }

    #[test]
    fn spent_cpu_or_disk_budgets_end_the_trial() {
        let dir = tempfile::tempdir().unwrap();
        let mut base = SandboxSpec::new(dir.path());
        base.limits.cpu_seconds = 10;
        base.limits.disk_write_bytes = 1000;
        let env = BTreeMap::new();
        let request = ShellRequest {
            workspace: dir.path(),
            env: &env,
            script: "true",
            timeout: Duration::from_secs(5),
        };
        let stop = CancellationToken::new();
        let shell = SandboxShell::new(base.clone(), stop.clone());
        *shell.budget.cpu_used.lock().unwrap() = Duration::from_secs(4);
        let spec = shell.action_spec(&request).unwrap();
        assert_eq!(spec.limits.cpu_seconds, 6, "an action gets what is left");
        std::fs::write(dir.path().join("out"), vec![0u8; 400]).unwrap();
        assert_eq!(
            shell.action_spec(&request).unwrap().limits.disk_write_bytes,
            600
        );
        *shell.budget.cpu_used.lock().unwrap() = Duration::from_secs(10);
        let refused = shell.prepare(request).err().unwrap_or_default();
        assert!(refused.contains("CPU time over 10 s"), "{refused}");
        assert!(stop.is_cancelled());
        assert_eq!(shell.limit_hit().map(|h| h.0), Some(LimitHit::Cpu));

        let stop = CancellationToken::new();
        let shell = SandboxShell::new(base, stop.clone());
        std::fs::write(dir.path().join("more"), vec![0u8; 1000]).unwrap();
        let request = ShellRequest {
            workspace: dir.path(),
            env: &env,
            script: "true",
            timeout: Duration::from_secs(5),
        };
        assert!(shell.prepare(request).is_err());
        assert_eq!(shell.limit_hit().map(|h| h.0), Some(LimitHit::Disk));
        assert!(stop.is_cancelled());
    }

    #[test]
    fn limits_are_described_with_their_values() {
        let limits = Limits {
            memory_bytes: 512 << 20,
            ..Limits::default()
        };
        assert_eq!(describe(LimitHit::Memory, &limits), "memory over 512 MiB");
    }
}
