//! Enforcing the limits while the run lives and cleaning up after it: polls the child and
//! the cgroup counters, kills every process of the run when a limit is hit, and measures
//! what was used. Must never leave a process of the run behind: dropping the [`Guard`]
//! kills whatever is still in its cgroups and stops the port forwarders.

use std::path::PathBuf;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::cgroup::Cgroups;
use crate::disk;
use crate::error::SandboxError;
use crate::limit::{LimitHit, Stats, classify};
use crate::net::Netns;
use crate::spec::Limits;

const POLL: Duration = Duration::from_millis(50);
/// Disk usage is walked every this many polls.
const DISK_EVERY: u32 = 10;

/// How a supervised run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The exit code, or `None` when killed by a signal.
    pub exit_code: Option<i32>,
    pub limit: LimitHit,
    pub stats: Stats,
    /// The raw status (kept out of the serialized record).
    #[serde(skip)]
    pub status: ExitStatus,
}

/// Owns a run's cgroups and port forwarders; see [`crate::Prepared`].
#[derive(Debug)]
pub struct Guard {
    // Field order is drop order: forwarders stop after the processes are gone.
    cgroups: Cgroups,
    /// Held for its `Drop`, which stops the forwarders.
    _net: Option<Netns>,
    limits: Limits,
    disk_roots: Vec<PathBuf>,
    disk_baseline: u64,
}

impl Guard {
    pub(crate) fn new(
        cgroups: Cgroups,
        net: Option<Netns>,
        limits: Limits,
        disk_roots: Vec<PathBuf>,
    ) -> Self {
        let disk_baseline = disk::usage(&disk_roots);
        Self {
            cgroups,
            _net: net,
            limits,
            disk_roots,
            disk_baseline,
        }
    }

    /// Waits for `child` (spawned from [`crate::Prepared::command`]) while enforcing every
    /// limit, kills all of the run's processes, and says how it ended.
    pub fn supervise(self, mut child: Child) -> Result<Outcome, SandboxError> {
        let started = Instant::now();
        let mut killed_for = None;
        let mut polls = 0u32;
        let status = loop {
            if let Some(status) = child
                .try_wait()
                .map_err(|e| SandboxError::io("wait for the agent", e))?
            {
                break status;
            }
            polls = polls.wrapping_add(1);
            if let Some(hit) = self.check(started.elapsed(), polls.is_multiple_of(DISK_EVERY)) {
                killed_for = Some(hit);
                self.kill(&mut child);
                break child
                    .wait()
                    .map_err(|e| SandboxError::io("wait for the killed agent", e))?;
            }
            std::thread::sleep(POLL);
        };
        self.kill(&mut child);
        let stats = self.stats(started.elapsed(), killed_for);
        let limit = classify(status, &stats);
        Ok(Outcome {
            exit_code: status.code(),
            limit,
            stats,
            status,
        })
    }

    /// The limit the run has hit so far, if any. `with_disk` also walks the writable
    /// directories (costly on big trees: call it about once a second).
    pub fn check(&self, elapsed: Duration, with_disk: bool) -> Option<LimitHit> {
        let limits = &self.limits;
        if self.cgroups.oom_kills() > 0 {
            return Some(LimitHit::Memory);
        }
        if self.cgroups.fork_refusals() > 0 {
            return Some(LimitHit::Processes);
        }
        if self
            .cgroups
            .cpu()
            .is_some_and(|cpu| cpu.as_secs() >= limits.cpu_seconds)
        {
            return Some(LimitHit::Cpu);
        }
        if with_disk && self.disk_written() > limits.disk_write_bytes {
            return Some(LimitHit::Disk);
        }
        (elapsed >= limits.wall).then_some(LimitHit::Wall)
    }

    /// Kills the run: the child's process group, then everything in the cgroups.
    fn kill(&self, child: &mut Child) {
        use nix::sys::signal::{Signal, killpg};
        use nix::unistd::Pid;
        if let Ok(pid) = i32::try_from(child.id()) {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
        let _ = child.kill();
        self.kill_all();
    }

    /// CPU time of every process of the run so far (cgroup cpuacct), when measured.
    pub fn cpu(&self) -> Option<Duration> {
        self.cgroups.cpu()
    }

    /// SIGKILLs every process still in the run's cgroups.
    pub fn kill_all(&self) {
        self.cgroups.kill_all();
    }

    /// What the run used so far.
    pub fn stats(&self, wall: Duration, killed_for: Option<LimitHit>) -> Stats {
        Stats {
            wall,
            cpu: self.cgroups.cpu(),
            memory_peak_bytes: self.cgroups.memory_peak(),
            oom_kills: self.cgroups.oom_kills(),
            fork_refusals: self.cgroups.fork_refusals(),
            disk_written_bytes: self.disk_written(),
            killed_for,
        }
    }

    fn disk_written(&self) -> u64 {
        disk::usage(&self.disk_roots).saturating_sub(self.disk_baseline)
    }
}
