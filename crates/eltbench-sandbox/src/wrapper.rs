//! The `/bin/sh` wrapper every sandboxed command starts as: it moves itself into the run's
//! cgroups, sets the per-process rlimits, then `exec`s the rest of its arguments (nsenter
//! and bwrap, or the bare program when unsandboxed). Doing this in the child before exec
//! means no process of the run ever starts outside its cgroups. Must never interpolate
//! anything but paths and numbers, and those single-quoted.

use std::path::PathBuf;

/// Rlimits the wrapper sets with `ulimit` (soft and hard).
#[derive(Debug, Default)]
pub(crate) struct Rlimits {
    /// RLIMIT_CPU, seconds.
    pub cpu_seconds: u64,
    /// RLIMIT_FSIZE, bytes (the largest file any process may write).
    pub file_bytes: u64,
    /// RLIMIT_AS, bytes; only when no memory cgroup could be made.
    pub address_space_bytes: Option<u64>,
}

/// The script for `sh -c SCRIPT sh PROGRAM ARGS...`.
pub(crate) fn script(procs_files: &[PathBuf], limits: &Rlimits) -> String {
    let mut s = String::from("set -e\n");
    for file in procs_files {
        s.push_str(&format!("echo $$ > {}\n", quote(&file.to_string_lossy())));
    }
    // Soft limit sends SIGXCPU (classified as Cpu); the hard one, 5 s later, SIGKILL.
    let cpu = limits.cpu_seconds.max(1);
    s.push_str(&format!("ulimit -S -t {cpu}\nulimit -H -t {}\n", cpu + 5));
    // dash counts -f in 512-byte blocks.
    s.push_str(&format!(
        "ulimit -f {}\n",
        limits.file_bytes.div_ceil(512).max(1)
    ));
    if let Some(bytes) = limits.address_space_bytes {
        s.push_str(&format!("ulimit -v {}\n", bytes.div_ceil(1024).max(1)));
    }
    s.push_str("exec \"$@\"\n");
    s
}

/// Single-quotes `s` for a POSIX shell.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_cgroups_before_exec_and_quotes_paths() {
        let files = [PathBuf::from("/sys/fs/cgroup/pids/it's/cgroup.procs")];
        let s = script(
            &files,
            &Rlimits {
                cpu_seconds: 60,
                file_bytes: 1000,
                address_space_bytes: None,
            },
        );
        assert!(s.contains(r"echo $$ > '/sys/fs/cgroup/pids/it'\''s/cgroup.procs'"));
        assert!(s.contains("ulimit -S -t 60\nulimit -H -t 65\nulimit -f 2\n"));
        assert!(!s.contains("ulimit -v"));
        assert!(s.ends_with("exec \"$@\"\n"));
        assert!(s.find("echo $$").unwrap() < s.find("exec").unwrap());
    }
}
