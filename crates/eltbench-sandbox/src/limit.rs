//! Which limit ended a run. The supervisor records what it killed for; the kernel's own
//! enforcement (OOM kills, failed forks, RLIMIT signals) is read back from cgroup counters
//! and the exit status. Must never guess from timing alone.

use std::process::ExitStatus;
use std::time::Duration;

use serde::Serialize;

/// The limit that ended a run, or `None` when the agent ended by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitHit {
    Memory,
    Cpu,
    Processes,
    Disk,
    Wall,
    None,
}

impl LimitHit {
    /// The name as serialized: `memory`, `cpu`, `processes`, `disk`, `wall`, `none`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Memory => "memory",
            Self::Cpu => "cpu",
            Self::Processes => "processes",
            Self::Disk => "disk",
            Self::Wall => "wall",
            Self::None => "none",
        }
    }
}

/// What a run used, measured by the supervisor.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub wall: Duration,
    /// CPU time of every process of the sandbox (cgroup cpuacct), when measured.
    pub cpu: Option<Duration>,
    /// Peak memory of the sandbox (memory cgroup), when measured.
    pub memory_peak_bytes: Option<u64>,
    /// Processes the kernel's OOM killer ended inside the sandbox.
    pub oom_kills: u64,
    /// Forks refused because the pids cgroup was full.
    pub fork_refusals: u64,
    /// Growth of the writable directories since the start.
    pub disk_written_bytes: u64,
    /// The limit the supervisor killed the sandbox for, if it did.
    pub killed_for: Option<LimitHit>,
}

const SIGXCPU: i32 = 24;
const SIGXFSZ: i32 = 25;

/// Names the limit that ended a run with `status` and `stats`.
///
/// The supervisor's own kill decides first; then the kernel's: an OOM kill is `Memory`
/// and a refused fork `Processes` even when the agent went on to exit 0 (a limit hit ends
/// the trial with that reason), SIGXCPU `Cpu`, SIGXFSZ `Disk`. bubblewrap reports a child
/// killed by signal N as exit code 128 + N; both forms are recognised.
pub fn classify(status: ExitStatus, stats: &Stats) -> LimitHit {
    if let Some(hit) = stats.killed_for {
        return hit;
    }
    if stats.oom_kills > 0 {
        return LimitHit::Memory;
    }
    if stats.fork_refusals > 0 {
        return LimitHit::Processes;
    }
    match signal_of(status) {
        Some(SIGXCPU) => LimitHit::Cpu,
        Some(SIGXFSZ) => LimitHit::Disk,
        _ => LimitHit::None,
    }
}

/// The signal that ended the process, directly or as bubblewrap's 128 + N exit code.
fn signal_of(status: ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal().or_else(|| {
        status
            .code()
            .filter(|c| (129..=128 + 64).contains(c))
            .map(|c| c - 128)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    fn exited(code: i32) -> ExitStatus {
        ExitStatus::from_raw(code << 8)
    }

    #[test]
    fn supervisor_kill_wins() {
        let stats = Stats {
            killed_for: Some(LimitHit::Wall),
            oom_kills: 1,
            ..Stats::default()
        };
        assert_eq!(classify(exited(137), &stats), LimitHit::Wall);
    }

    #[test]
    fn refused_fork_counts_even_after_a_clean_exit() {
        let stats = Stats {
            fork_refusals: 3,
            ..Stats::default()
        };
        assert_eq!(classify(exited(0), &stats), LimitHit::Processes);
        assert_eq!(classify(exited(1), &stats), LimitHit::Processes);
        assert_eq!(classify(exited(0), &Stats::default()), LimitHit::None);
    }

    #[test]
    fn kernel_signals_map_to_limits() {
        let none = Stats::default();
        assert_eq!(
            classify(ExitStatus::from_raw(SIGXCPU), &none),
            LimitHit::Cpu
        );
        assert_eq!(classify(exited(128 + SIGXCPU), &none), LimitHit::Cpu);
        assert_eq!(classify(exited(128 + SIGXFSZ), &none), LimitHit::Disk);
        assert_eq!(classify(exited(2), &none), LimitHit::None);
        let oom = Stats {
            oom_kills: 1,
            ..Stats::default()
        };
        assert_eq!(classify(exited(137), &oom), LimitHit::Memory);
    }

    #[test]
    fn names_match_the_serialized_form() {
        for hit in [
            LimitHit::Memory,
            LimitHit::Processes,
            LimitHit::Wall,
            LimitHit::None,
        ] {
            let json = serde_json::to_string(&hit).unwrap();
            assert_eq!(json, format!("\"{}\"", hit.name()));
        }
    }
}
