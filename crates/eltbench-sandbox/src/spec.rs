//! What a caller asks of a sandbox: the file system view, the loopback ports, the
//! environment and the resource limits. Plain data; building a sandbox from it lives in
//! `prepare.rs`. Must never read the host environment: the agent's environment is exactly
//! `env`, nothing inherited.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// One agent run's sandbox. Paths must be absolute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxSpec {
    /// Read-write, and the agent's working directory.
    pub workspace: PathBuf,
    /// More read-write paths (e.g. the trial's warehouse directory). Counted as disk written.
    pub writable: Vec<PathBuf>,
    /// Visible read-only (toolchain, dbt virtualenv, suite task files). The system
    /// directories (`/usr`, `/etc`, `/bin`, `/lib*`, `/sbin`) are always read-only.
    pub read_only: Vec<PathBuf>,
    /// Invisible even when under a visible path: an empty read-only tmpfs over a directory,
    /// `/dev/null` over a file.
    pub hidden: Vec<PathBuf>,
    /// TCP ports of 127.0.0.1 the agent may connect to; every other port is refused.
    pub allowed_ports: Vec<u16>,
    /// The agent's whole environment.
    pub env: BTreeMap<String, String>,
    pub limits: Limits,
    /// `false` runs the program deliberately without bubblewrap (files, processes and
    /// network not isolated; the environment and the limits still apply), recorded as
    /// [`crate::Mode::None`]. `true` (the default) isolates it when bubblewrap works.
    pub isolate: bool,
}

/// Resource limits of one run. Hitting one ends the run; [`crate::classify`] names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Limits {
    /// Wall-clock time, enforced by the supervisor killing every process of the sandbox.
    pub wall: Duration,
    /// CPU time of all processes together (cgroup cpuacct), and of each process (RLIMIT_CPU).
    pub cpu_seconds: u64,
    /// Memory of all processes together (memory cgroup; RLIMIT_AS per process as fallback).
    pub memory_bytes: u64,
    /// Processes and threads alive at once (pids cgroup).
    pub max_processes: u64,
    /// Growth of the writable directories plus the sandbox's private `/tmp` (a tmpfs of
    /// this size); also the largest single file (RLIMIT_FSIZE).
    pub disk_write_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            wall: Duration::from_secs(30 * 60),
            cpu_seconds: 30 * 60,
            memory_bytes: 4 << 30,
            max_processes: 256,
            disk_write_bytes: 2 << 30,
        }
    }
}

impl SandboxSpec {
    /// A spec with default limits, no extra paths, no ports and an empty environment.
    pub fn new(workspace: impl Into<PathBuf>) -> Self {
        Self {
            workspace: workspace.into(),
            writable: Vec::new(),
            read_only: Vec::new(),
            hidden: Vec::new(),
            allowed_ports: Vec::new(),
            env: BTreeMap::new(),
            limits: Limits::default(),
            isolate: true,
        }
    }
}
