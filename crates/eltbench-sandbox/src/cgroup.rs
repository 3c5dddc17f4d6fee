//! The per-run cgroups (v1: `memory`, `pids`, `cpuacct` under /sys/fs/cgroup/<controller>):
//! created beside the calling process's own cgroup, limited, read for stats, emptied with
//! SIGKILL and removed. The wrapper shell moves itself into them before it execs the
//! sandbox, so every process of the run is inside from the start. Must never touch a cgroup
//! it did not create.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::error::SandboxError;
use crate::spec::Limits;

const ROOT: &str = "/sys/fs/cgroup";
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// The cgroups of one run; a controller that could not be made is `None`.
#[derive(Debug)]
pub(crate) struct Cgroups {
    pub memory: Option<PathBuf>,
    pub pids: Option<PathBuf>,
    pub cpuacct: Option<PathBuf>,
}

impl Cgroups {
    /// Creates and limits the cgroups; a controller that fails adds a warning instead.
    pub fn create(limits: &Limits, warnings: &mut Vec<String>) -> Self {
        let name = format!(
            "eltbench-sandbox-{}-{}",
            std::process::id(),
            NEXT_ID.fetch_add(1, Ordering::Relaxed)
        );
        let mut make = |controller: &str, settings: &[(&str, u64)]| match make_group(
            controller, &name, settings,
        ) {
            Ok(dir) => Some(dir),
            Err(e) => {
                warnings.push(format!("{controller} cgroup unavailable: {e}"));
                None
            }
        };
        let memory = make(
            "memory",
            &[
                ("memory.limit_in_bytes", limits.memory_bytes),
                ("memory.memsw.limit_in_bytes", limits.memory_bytes),
            ],
        );
        let pids = make("pids", &[("pids.max", limits.max_processes)]);
        let cpuacct = make("cpuacct", &[]);
        Self {
            memory,
            pids,
            cpuacct,
        }
    }

    /// The `cgroup.procs` files the wrapper shell writes its pid into.
    pub fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs().map(|d| d.join("cgroup.procs")).collect()
    }

    fn dirs(&self) -> impl Iterator<Item = &PathBuf> {
        [&self.memory, &self.pids, &self.cpuacct]
            .into_iter()
            .flatten()
    }

    /// Pids of every process in the run (from the first controller that exists).
    pub fn pids_inside(&self) -> Vec<i32> {
        let Some(dir) = self.dirs().next() else {
            return Vec::new();
        };
        let text = std::fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
        text.lines().filter_map(|l| l.trim().parse().ok()).collect()
    }

    /// SIGKILLs every process inside until none is left (bounded to about two seconds).
    pub fn kill_all(&self) {
        use nix::sys::signal::{Signal, kill};
        use nix::unistd::Pid;
        for _ in 0..200 {
            let pids = self.pids_inside();
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn cpu(&self) -> Option<Duration> {
        let ns = read_u64(&self.cpuacct.as_ref()?.join("cpuacct.usage"))?;
        Some(Duration::from_nanos(ns))
    }

    pub fn memory_peak(&self) -> Option<u64> {
        read_u64(&self.memory.as_ref()?.join("memory.max_usage_in_bytes"))
    }

    pub fn oom_kills(&self) -> u64 {
        let Some(dir) = &self.memory else { return 0 };
        keyed(&dir.join("memory.oom_control"), "oom_kill").unwrap_or(0)
    }

    pub fn fork_refusals(&self) -> u64 {
        let Some(dir) = &self.pids else { return 0 };
        keyed(&dir.join("pids.events"), "max").unwrap_or(0)
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        self.kill_all();
        for dir in self.dirs() {
            for _ in 0..100 {
                if std::fs::remove_dir(dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

/// Creates `<controller mount>/<own cgroup>/<name>` and writes `settings` (a missing
/// setting file such as `memory.memsw.*` without swap accounting is skipped).
fn make_group(
    controller: &str,
    name: &str,
    settings: &[(&str, u64)],
) -> Result<PathBuf, SandboxError> {
    let mount = Path::new(ROOT).join(controller);
    if !mount.join("cgroup.procs").is_file() {
        return Err(SandboxError::Cgroup {
            path: mount,
            source: std::io::Error::other("no cgroup v1 hierarchy mounted here"),
        });
    }
    let parent = own_cgroup(controller)
        .map(|own| mount.join(own.trim_start_matches('/')))
        .filter(|p| p.is_dir())
        .unwrap_or(mount);
    let dir = parent.join(name);
    std::fs::create_dir(&dir).map_err(|source| SandboxError::Cgroup {
        path: dir.clone(),
        source,
    })?;
    for (file, value) in settings {
        let path = dir.join(file);
        if !path.exists() {
            continue;
        }
        if let Err(source) = std::fs::write(&path, value.to_string()) {
            let _ = std::fs::remove_dir(&dir);
            return Err(SandboxError::Cgroup { path, source });
        }
    }
    Ok(dir)
}

/// This process's cgroup path in `controller`'s v1 hierarchy, from /proc/self/cgroup.
fn own_cgroup(controller: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    text.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, list, path) = (parts.next()?, parts.next()?, parts.next()?);
        list.split(',')
            .any(|c| c == controller)
            .then(|| path.to_string())
    })
}

fn read_u64(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The value of `key` in a "key value" per line file such as memory.oom_control.
fn keyed(path: &Path, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_reads_counters() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("memory.oom_control");
        std::fs::write(&file, "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n").unwrap();
        assert_eq!(keyed(&file, "oom_kill"), Some(3));
        assert_eq!(keyed(&file, "missing"), None);
    }
}
