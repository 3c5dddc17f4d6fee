//! Finding and killing the server processes of one data directory via `/proc`.
//!
//! Every PostgreSQL process (postmaster and backends) runs with the data directory as
//! its working directory, so `/proc/<pid>/cwd` identifies them even after the
//! postmaster died and its backends were orphaned. Used only as the last resort of
//! `stop` and by tests; it never signals a process whose cwd is not that directory.

use std::path::Path;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// Pids of live processes whose working directory is `dir` (canonical path).
pub fn pids_in_dir(dir: &Path) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut pids: Vec<i32> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd == dir))
        .collect();
    pids.sort_unstable();
    pids
}

/// Whether process `pid` exists and is not a zombie.
pub fn is_alive(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // The state letter follows the parenthesised command name.
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next());
    !matches!(state, None | Some('Z' | 'X'))
}

/// SIGKILLs every process in `dir` and waits up to `wait` for them to go; returns
/// the pids still there.
pub fn kill_all_in_dir(dir: &Path, wait: Duration) -> Vec<i32> {
    for pid in pids_in_dir(dir) {
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    }
    let deadline = Instant::now() + wait;
    loop {
        let left = pids_in_dir(dir);
        if left.is_empty() || Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// SIGKILLs one process (used by fault tests to simulate a crash).
pub fn kill_now(pid: i32) -> Result<(), nix::Error> {
    kill(Pid::from_raw(pid), Signal::SIGKILL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_process_by_its_working_directory_and_kills_it() {
        let dir = tempfile::tempdir().unwrap();
        let canonical = dir.path().canonicalize().unwrap();
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .current_dir(&canonical)
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        assert_eq!(pids_in_dir(&canonical), [pid]);
        assert!(is_alive(pid));
        assert!(kill_all_in_dir(&canonical, Duration::from_secs(5)).is_empty());
        child.wait().unwrap();
        assert!(!is_alive(pid));
    }
}
