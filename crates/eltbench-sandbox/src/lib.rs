//! Runs an untrusted agent process in a sandbox made from Debian-packaged tools, with
//! resource limits, and says how far the sandbox was really made.
//!
//! # How
//! - **Isolation**: bubblewrap (`bwrap`, Debian package `bubblewrap`) with new user, mount,
//!   pid, ipc, uts and network namespaces, no capabilities, `--die-with-parent`, a new
//!   session. The agent is uid 1000 inside (root outside, mapped). The view is a
//!   whitelist: `/usr`, `/etc`, `/bin`, `/sbin`, `/lib*` read-only, a private `/tmp` (tmpfs
//!   of `disk_write_bytes`), `/proc` of its own pid namespace, a minimal `/dev`, the
//!   spec's `read_only` paths, and `workspace` + `writable` read-write. `hidden` paths get
//!   an empty read-only tmpfs (directories) or `/dev/null` (files) over them, even inside a
//!   visible path; `/etc/shadow` and `/etc/gshadow` are always hidden. Nothing else of the
//!   host (other trials, the harness's state, the suite's `gt/`) exists inside.
//! - **Network**: the sandbox joins a network namespace with only a loopback. Each allowed
//!   port is a listener on the sandbox's `127.0.0.1:<port>`, created by this process in
//!   that namespace and served by threads of this process that connect to the host's
//!   `127.0.0.1:<port>` (see `net.rs`). No forwarder runs inside the sandbox; other ports
//!   refuse connections. Needs root (CAP_SYS_ADMIN) and `ip` (iproute2).
//! - **Limits**: a `/bin/sh` wrapper joins per-run cgroup v1 groups (`memory`, `pids`,
//!   `cpuacct`) before it execs anything, and sets RLIMIT_CPU and RLIMIT_FSIZE (RLIMIT_AS
//!   when there is no memory cgroup). RLIMIT_NPROC is useless as root, so processes are
//!   bounded by `pids.max`. [`Guard::supervise`] polls the child, the cgroup counters
//!   (OOM kills, refused forks, CPU time), the growth of the writable directories and the
//!   wall clock, and on the first limit hit SIGKILLs every process in the cgroups.
//!   [`classify`] turns the exit status and [`Stats`] into a [`LimitHit`].
//! - **Environment**: exactly the spec's `env` (`--clearenv`); nothing of the harness's
//!   environment (API keys) is inherited.
//! - **Fallback**: without a working bwrap (the binary is found in the usual places, or
//!   exactly at `$ELTBENCH_BWRAP` when set) the program runs unsandboxed (limits still
//!   apply where cgroups work) with a loud `tracing` warning and [`Mode::None`] with the
//!   reason; any degraded feature is listed in [`Sandboxed::warnings`] for the record.
//!
//! # Use
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut spec = eltbench_sandbox::SandboxSpec::new("/job/t1/workspace");
//! spec.allowed_ports = vec![5432];
//! spec.env.insert("PATH".into(), "/job/t1/workspace/bin:/usr/bin:/bin".into());
//! let prepared = eltbench_sandbox::prepare(&spec, "/bin/sh", &["-c", "./agent.sh"])?;
//! let mut command = prepared.command;
//! let child = command.spawn()?;
//! let outcome = prepared.guard.supervise(child)?;
//! println!("{:?} {:?} {:?}", prepared.sandboxed.mode, outcome.limit, outcome.stats);
//! # Ok(()) }
//! ```
//!
//! Must never widen the view beyond the spec, inherit the caller's environment, or leave
//! a process of the run alive after [`Guard::supervise`] returns or the guard drops.

mod bwrap;
mod cgroup;
mod disk;
mod error;
mod limit;
mod mounts;
mod net;
mod prepare;
mod report;
mod spec;
mod supervise;
mod wrapper;

pub use bwrap::BWRAP_VAR;
pub use error::SandboxError;
pub use limit::{LimitHit, Stats, classify};
pub use prepare::{NOT_ASKED, Prepared, disk_usage, expected_mode, prepare};
pub use report::{Mode, Sandboxed};
pub use spec::{Limits, SandboxSpec};
pub use supervise::{Guard, Outcome};
