//! Asking a run directory what runs (`env status`) and stopping it from another
//! process (`env down`), both from `RUN/env.json`.
//!
//! A process counts as the recorded one only if its pid AND start time match, so a
//! recycled pid is never signalled. `down` sends SIGTERM (the serving process then
//! stops everything it owns), waits, falls back to SIGKILL, and finally kills any
//! PostgreSQL process still working in the recorded data directory.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde::Serialize;

use super::{EnvError, EnvRecord};
use crate::postgres::procs;

/// How long a port probe may take.
const PROBE_TIMEOUT: Duration = Duration::from_millis(300);
/// How long `down` waits after SIGKILL and for ports to close.
const AFTER_KILL: Duration = Duration::from_secs(5);

/// One port and whether something accepts connections on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PortState {
    pub port: u16,
    pub open: bool,
}

/// What runs in a run directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EnvStatus {
    pub db: String,
    pub pid: u32,
    /// The recorded serving process is alive.
    pub running: bool,
    /// The recorded postmaster is alive (`None`: the task has no PostgreSQL source).
    pub postgres_running: Option<bool>,
    /// Source kind → port state.
    pub ports: BTreeMap<String, PortState>,
}

impl EnvStatus {
    /// Whether the process and every source are up.
    pub fn all_up(&self) -> bool {
        self.running && self.postgres_running != Some(false) && self.ports.values().all(|p| p.open)
    }

    /// Whether nothing of the environment is left: no process, no open port.
    pub fn all_down(&self) -> bool {
        !self.running && self.postgres_running != Some(true) && self.ports.values().all(|p| !p.open)
    }
}

/// The status of the environment recorded in `run_dir`.
pub fn status(run_dir: &Path) -> Result<EnvStatus, EnvError> {
    let record = EnvRecord::read(run_dir)?;
    Ok(status_of(&record))
}

fn status_of(record: &EnvRecord) -> EnvStatus {
    let ports = record
        .endpoints
        .ports()
        .into_iter()
        .map(|(kind, port)| {
            let open = port_open(port);
            (kind, PortState { port, open })
        })
        .collect();
    let postgres_running = record
        .endpoints
        .postgres
        .as_ref()
        .map(|pg| pg.postmaster_pid.is_some_and(procs::is_alive));
    EnvStatus {
        db: record.db.clone(),
        pid: record.pid,
        running: is_same_process(record.pid, record.pid_start),
        postgres_running,
        ports,
    }
}

/// Stops the environment recorded in `run_dir`, waiting up to `timeout` for a clean
/// stop; returns the status afterwards.
pub fn down(run_dir: &Path, timeout: Duration) -> Result<EnvStatus, EnvError> {
    let record = EnvRecord::read(run_dir)?;
    let pid = record.pid;
    if is_same_process(pid, record.pid_start) && pid != std::process::id() {
        let target = Pid::from_raw(pid as i32);
        let _ = kill(target, Signal::SIGTERM);
        if !wait_until(timeout, || !procs::is_alive(pid as i32)) {
            let _ = kill(target, Signal::SIGKILL);
            wait_until(AFTER_KILL, || !procs::is_alive(pid as i32));
        }
    }
    if let Some(pg) = &record.endpoints.postgres {
        procs::kill_all_in_dir(&pg.data_dir, AFTER_KILL);
    }
    let ports: Vec<u16> = record.endpoints.ports().into_values().collect();
    wait_until(AFTER_KILL, || ports.iter().all(|p| !port_open(*p)));
    let after = status_of(&record);
    if after.running {
        return Err(EnvError::StopTimeout {
            pid,
            secs: timeout.as_secs(),
        });
    }
    Ok(after)
}

fn wait_until(limit: Duration, done: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        if done() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn port_open(port: u16) -> bool {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    TcpStream::connect_timeout(&addr, PROBE_TIMEOUT).is_ok()
}

/// The start time of `pid` in clock ticks since boot (`/proc/PID/stat` field 22).
pub(crate) fn process_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    // `rest` starts at field 3 (state); field 22 is the 20th from there.
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether `pid` is alive and (when recorded) started at `start`.
pub(crate) fn is_same_process(pid: u32, start: Option<u64>) -> bool {
    procs::is_alive(pid as i32) && start.is_none_or(|s| process_start(pid) == Some(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_is_known_by_pid_and_start_time() {
        let me = std::process::id();
        let start = process_start(me);
        assert!(start.is_some());
        assert!(is_same_process(me, start));
        assert!(!is_same_process(me, start.map(|s| s + 1)));
    }
}
