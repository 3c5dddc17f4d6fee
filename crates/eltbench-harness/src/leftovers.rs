//! What a killed job left running in a trial directory: when the harness dies
//! by SIGKILL (or the machine's OOM killer), the PostgreSQL server of a trial's
//! environment, a dbt run or an agent's process keeps running with its working
//! directory in the trial. Resume stops them before it deletes the directory,
//! so no process or port stays behind and the removal does not race a writer.
//! Only processes whose working directory lies inside the given directory are
//! touched; this process never is.

use std::path::Path;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// Stops every process working inside `dir`: SIGQUIT first (PostgreSQL's
/// immediate shutdown, which also releases its shared memory), SIGKILL for
/// what is left after `grace`. Returns how many there were.
pub(crate) fn stop_leftovers(dir: &Path, grace: Duration) -> usize {
    let Ok(dir) = dir.canonicalize() else {
        return 0;
    };
    let found = working_in(&dir);
    for pid in &found {
        let _ = kill(Pid::from_raw(*pid), Signal::SIGQUIT);
    }
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline && found.iter().any(|pid| alive(*pid)) {
        std::thread::sleep(Duration::from_millis(50));
    }
    for pid in found.iter().filter(|pid| alive(**pid)) {
        let _ = kill(Pid::from_raw(*pid), Signal::SIGKILL);
    }
    found.len()
}

/// Processes (other than this one) whose working directory is under `dir`.
fn working_in(dir: &Path) -> Vec<i32> {
    let own = i32::try_from(std::process::id()).unwrap_or(0);
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| *pid != own)
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd.starts_with(dir))
        })
        .collect()
}

/// Whether `pid` is still running (a zombie counts as gone).
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // the state follows the parenthesised command name
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processes_working_inside_are_stopped_and_others_left_alone() {
        let inside = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let spawn = |dir: &Path| {
            std::process::Command::new("sleep")
                .arg("60")
                .current_dir(dir)
                .spawn()
                .unwrap()
        };
        let nested = inside.path().join("env/pg");
        std::fs::create_dir_all(&nested).unwrap();
        let mut a = spawn(inside.path());
        let mut b = spawn(&nested);
        let mut other = spawn(outside.path());
        let stopped = stop_leftovers(inside.path(), Duration::from_secs(2));
        assert_eq!(stopped, 2);
        assert!(a.wait().unwrap().code().is_none(), "ended by a signal");
        assert!(b.wait().unwrap().code().is_none());
        assert!(
            other.try_wait().unwrap().is_none(),
            "outside: still running"
        );
        other.kill().unwrap();
        other.wait().unwrap();
        assert_eq!(
            stop_leftovers(&inside.path().join("missing"), Duration::ZERO),
            0
        );
    }
}
