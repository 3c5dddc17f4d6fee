//! A real `mongod` as a guarded child process: found on `PATH` (unless
//! `ELTBENCH_MONGOD=off`), started on 127.0.0.1 with its data under `RUN/mongod`,
//! waited for until it answers `ping`, and stopped on drop with SIGTERM then SIGKILL,
//! always reaped. This module never signals a process other than the child it spawned.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::mongo_ext;

/// The environment variable that turns the `mongod` lookup off (value `off`).
pub const MONGOD_ENV: &str = "ELTBENCH_MONGOD";
/// How long `mongod` may take to answer `ping`.
const READY_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a SIGTERM'd `mongod` may take to exit before SIGKILL.
const STOP_GRACE: Duration = Duration::from_secs(10);
const POLL: Duration = Duration::from_millis(100);

/// Why `mongod` could not serve.
#[derive(Debug, thiserror::Error)]
pub enum MongodError {
    #[error("cannot start {bin} (data in {dbpath}): {source}")]
    Spawn {
        bin: PathBuf,
        dbpath: PathBuf,
        source: std::io::Error,
    },
    #[error("{bin} exited before answering ({status}); see {log}")]
    Exited {
        bin: PathBuf,
        status: ExitStatus,
        log: PathBuf,
    },
    #[error("{bin} did not answer ping on 127.0.0.1:{port} within {secs} s; see {log}")]
    NotReady {
        bin: PathBuf,
        port: u16,
        secs: u64,
        log: PathBuf,
    },
}

/// Whether the lookup is wanted, given the value of [`MONGOD_ENV`].
pub fn wanted(setting: Option<&OsStr>) -> bool {
    setting.is_none_or(|v| !v.eq_ignore_ascii_case("off"))
}

/// The first executable `name` in the directories of `path` (a `PATH` value).
pub fn find_on_path(name: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|file| is_executable(file))
}

fn is_executable(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The arguments `mongod` is started with.
pub fn command_args(dbpath: &Path, port: u16) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec!["--dbpath".into(), dbpath.into()];
    for arg in [
        "--port",
        &port.to_string(),
        "--bind_ip",
        "127.0.0.1",
        "--quiet",
    ] {
        args.push(arg.into());
    }
    args
}

/// A running `mongod`; dropping it stops it.
#[derive(Debug)]
pub struct Mongod {
    bin: PathBuf,
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Mongod {
    /// Starts `bin` with its data in `dbpath` (created) on `port`; output goes to
    /// `dbpath/mongod.log`.
    pub fn spawn(bin: &Path, dbpath: &Path, port: u16) -> Result<Self, MongodError> {
        let err = |source| MongodError::Spawn {
            bin: bin.to_path_buf(),
            dbpath: dbpath.to_path_buf(),
            source,
        };
        std::fs::create_dir_all(dbpath).map_err(err)?;
        let log = dbpath.join("mongod.log");
        let out = File::create(&log).map_err(err)?;
        // Its working directory is `dbpath`, so a stale one is found via /proc (procs).
        let child = Command::new(bin)
            .args(command_args(dbpath, port))
            .current_dir(dbpath)
            .stdin(Stdio::null())
            .stdout(out.try_clone().map_err(err)?)
            .stderr(out)
            .spawn()
            .map_err(err)?;
        Ok(Self {
            bin: bin.to_path_buf(),
            child,
            port,
            log,
        })
    }

    /// The connection string of this server.
    pub fn uri(&self) -> String {
        format!("mongodb://127.0.0.1:{}/?directConnection=true", self.port)
    }

    /// Waits until the server answers `ping`; fails when it exits or takes too long.
    pub async fn ready(&mut self) -> Result<(), MongodError> {
        let deadline = Instant::now() + READY_TIMEOUT;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(MongodError::Exited {
                    bin: self.bin.clone(),
                    status,
                    log: self.log.clone(),
                });
            }
            if let Ok((client, _)) = mongo_ext::connect(&self.uri()).await {
                client.shutdown().await;
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(MongodError::NotReady {
                    bin: self.bin.clone(),
                    port: self.port,
                    secs: READY_TIMEOUT.as_secs(),
                    log: self.log.clone(),
                });
            }
            tokio::time::sleep(POLL).await;
        }
    }

    fn exited_within(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(POLL);
        }
    }
}

impl Drop for Mongod {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(None)) {
            return;
        }
        let pid = i32::try_from(self.child.id()).map(Pid::from_raw);
        if let Ok(pid) = pid {
            let _ = kill(pid, Signal::SIGTERM);
        }
        if !self.exited_within(STOP_GRACE) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A free port on 127.0.0.1 (bound and released).
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind(("127.0.0.1", 0))?
        .local_addr()?
        .port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_binds_loopback_with_data_in_the_run_dir() {
        let args = command_args(Path::new("/run/x/mongod"), 40123);
        let args: Vec<&str> = args.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            args,
            [
                "--dbpath",
                "/run/x/mongod",
                "--port",
                "40123",
                "--bind_ip",
                "127.0.0.1",
                "--quiet"
            ]
        );
    }

    #[test]
    fn path_lookup_finds_only_executable_files_in_order() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let (a, b, c) = (
            tmp.path().join("a"),
            tmp.path().join("b"),
            tmp.path().join("c"),
        );
        for dir in [&a, &b, &c] {
            std::fs::create_dir(dir).unwrap();
        }
        std::fs::write(a.join("mongod"), "").unwrap(); // not executable
        std::fs::create_dir(b.join("mongod")).unwrap(); // a directory
        std::fs::write(c.join("mongod"), "").unwrap();
        std::fs::set_permissions(c.join("mongod"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = std::env::join_paths([&a, &b, &c]).unwrap();
        assert_eq!(find_on_path("mongod", Some(&path)), Some(c.join("mongod")));
        let without_c = std::env::join_paths([&a, &b]).unwrap();
        assert_eq!(find_on_path("mongod", Some(&without_c)), None);
        assert_eq!(find_on_path("mongod", None), None);
    }

    #[test]
    fn the_lookup_is_off_only_when_asked() {
        assert!(wanted(None));
        assert!(wanted(Some(OsStr::new("on"))));
        assert!(!wanted(Some(OsStr::new("off"))));
        assert!(!wanted(Some(OsStr::new("OFF"))));
    }

    #[test]
    fn a_missing_binary_is_a_clear_spawn_error() {
        let tmp = tempfile::tempdir().unwrap();
        let err = Mongod::spawn(&tmp.path().join("no-mongod"), &tmp.path().join("db"), 1)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no-mongod") && err.contains("db"), "{err}");
    }
}
