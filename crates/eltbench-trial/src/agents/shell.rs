//! The builtin agent's [`Shell`]: every Bash action runs in the trial's
//! sandbox (the spec the command agent gets, see `crate::sandbox`), with its
//! own cgroups and a wall limit of the action's timeout; the sandbox's guard
//! watches the limits while it runs and kills what is left afterwards.
//!
//! It remembers which isolation the actions got, for the trial record. It
//! never widens the trial's spec; only the environment (already free of API
//! keys) and the wall limit come from the action.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use eltbench_agent::{Shell, ShellProcess, ShellRequest, ShellWatch};
use eltbench_sandbox::{Guard, LimitHit, Limits, Mode, SandboxSpec, expected_mode};

/// The disk is walked every this many checks (about once a second).
const DISK_EVERY: u32 = 5;

#[derive(Debug)]
pub struct SandboxShell {
    spec: SandboxSpec,
    /// The isolation of the last action, `None` before the first.
    seen: Mutex<Option<Mode>>,
}

impl SandboxShell {
    pub fn new(spec: SandboxSpec) -> Self {
        Self {
            spec,
            seen: Mutex::new(None),
        }
    }

    /// The isolation the actions got (when none ran: what they would have got).
    pub fn mode(&self) -> Mode {
        let seen = self.seen.lock().ok().and_then(|m| m.clone());
        seen.unwrap_or_else(|| expected_mode(self.spec.isolate))
    }

    /// The trial's spec with the action's environment and wall limit.
    fn action_spec(&self, request: &ShellRequest<'_>) -> SandboxSpec {
        let mut spec = self.spec.clone();
        spec.env = request.env.clone();
        spec.limits.wall = spec.limits.wall.min(request.timeout);
        spec
    }
}

impl Shell for SandboxShell {
    fn prepare(&self, request: ShellRequest<'_>) -> Result<ShellProcess, String> {
        let spec = self.action_spec(&request);
        let prepared = eltbench_sandbox::prepare(&spec, "bash", &["-lc", request.script])
            .map_err(|e| format!("cannot prepare the sandbox: {e}"))?;
        if let Ok(mut seen) = self.seen.lock() {
            *seen = Some(prepared.sandboxed.mode.clone());
        }
        let watch = SandboxWatch {
            guard: prepared.guard,
            limits: spec.limits,
            checks: AtomicU32::new(0),
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
}

impl ShellWatch for SandboxWatch {
    fn check(&self, elapsed: Duration) -> Option<String> {
        let n = self.checks.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        let hit = self.guard.check(elapsed, n.is_multiple_of(DISK_EVERY))?;
        Some(describe(hit, &self.limits))
    }

    fn kill_all(&self) {
        self.guard.kill_all();
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
        let shell = SandboxShell::new(base);
        let env = BTreeMap::from([("PATH".to_owned(), "/ws/bin:/usr/bin".to_owned())]);
        let request = ShellRequest {
            workspace: Path::new("/ws"),
            env: &env,
            script: "true",
            timeout: Duration::from_secs(200),
        };
        let spec = shell.action_spec(&request);
        assert_eq!(spec.limits.wall, Duration::from_secs(200));
        assert_eq!(spec.env, env);
        assert_eq!(spec.allowed_ports, [5432]);
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
