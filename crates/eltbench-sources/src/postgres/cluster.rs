//! The `PgCluster` guard: a private PostgreSQL cluster in a run directory, started on a
//! free loopback port and stopped (never left behind) when the guard is stopped or
//! dropped.
//!
//! Layout: `<run>/data` (the data directory), `<run>/postgres.log`, and the Unix socket
//! `<run>/.s.PGSQL.<port>`. The guard never touches files outside its run directory and
//! never signals processes other than its own server's.

use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::PgError;
use super::binaries::PgBinaries;
use super::procs;
use super::server::{self, Layout};
use super::user::ServerUser;

/// Longest Unix socket path the kernel takes (`sun_path` is 108 bytes with the NUL).
const MAX_SOCKET_PATH: usize = 107;
/// Tries at finding a free port when none was asked for (another process may take
/// the port between our probe and the server's bind).
const PORT_ATTEMPTS: usize = 3;

/// How to start a cluster.
#[derive(Clone, Debug)]
pub struct PgClusterOptions {
    /// A fixed TCP port; `None` picks a free one.
    pub port: Option<u16>,
    /// The bootstrap superuser `initdb` creates (reachable without password on the socket).
    pub superuser: String,
    pub start_timeout: Duration,
    pub stop_timeout: Duration,
}

impl Default for PgClusterOptions {
    fn default() -> Self {
        Self {
            port: None,
            superuser: "postgres".into(),
            start_timeout: Duration::from_secs(60),
            stop_timeout: Duration::from_secs(10),
        }
    }
}

/// A running private PostgreSQL cluster; stopping or dropping it stops the server.
#[derive(Debug)]
pub struct PgCluster {
    pub(super) bins: PgBinaries,
    pub(super) user: Option<ServerUser>,
    pub(super) layout: Layout,
    pub(super) port: u16,
    pub(super) superuser: String,
    pub(super) pid: Option<i32>,
    running: bool,
    stop_timeout: Duration,
}

impl PgCluster {
    /// Creates `run_dir` (which must not hold a data directory yet), runs `initdb` and
    /// starts the server. Blocking: call from `spawn_blocking` in async code that cares.
    pub fn start(run_dir: &Path, options: PgClusterOptions) -> Result<Self, PgError> {
        let bins = PgBinaries::locate()?;
        let user = ServerUser::for_this_process()?;
        let layout = prepare_run_dir(run_dir, user.as_ref())?;
        server::initdb(&bins, user.as_ref(), &layout, &options.superuser)?;
        let mut cluster = Self {
            bins,
            user,
            layout,
            port: 0,
            superuser: options.superuser.clone(),
            pid: None,
            running: false,
            stop_timeout: options.stop_timeout,
        };
        cluster.launch(&options)?;
        Ok(cluster)
    }

    fn launch(&mut self, options: &PgClusterOptions) -> Result<(), PgError> {
        let attempts = if options.port.is_some() {
            1
        } else {
            PORT_ATTEMPTS
        };
        for attempt in 1..=attempts {
            let port = match options.port {
                Some(port) if !port_is_free(port) => return Err(PgError::PortInUse { port }),
                Some(port) => port,
                None => free_port()?,
            };
            server::write_settings(&self.layout, port)?;
            truncate_log(&self.layout);
            self.running = true;
            match server::start(
                &self.bins,
                self.user.as_ref(),
                &self.layout,
                options.start_timeout,
            ) {
                Ok(()) => {
                    self.port = port;
                    self.pid = server::postmaster_pid(&self.layout);
                    return Ok(());
                }
                Err(err) => {
                    let port_taken = server::log_says_port_taken(&self.layout);
                    let _ = self.shutdown();
                    match (port_taken, options.port.is_some() || attempt == attempts) {
                        (true, true) => return Err(PgError::PortInUse { port }),
                        (true, false) => continue,
                        (false, _) => return Err(err),
                    }
                }
            }
        }
        Err(PgError::PortInUse {
            port: options.port.unwrap_or(0),
        })
    }

    /// The TCP port (on 127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The directory holding the Unix socket (`host` for socket connections).
    pub fn socket_dir(&self) -> &Path {
        &self.layout.run_dir
    }

    /// The data directory (canonical path).
    pub fn data_dir(&self) -> &Path {
        &self.layout.data_dir
    }

    /// The server log file.
    pub fn log_file(&self) -> &Path {
        &self.layout.log_file
    }

    /// The bootstrap superuser's name.
    pub fn superuser(&self) -> &str {
        &self.superuser
    }

    /// The postmaster's pid as it was when the server became ready.
    pub fn postmaster_pid(&self) -> Option<i32> {
        self.pid
    }

    /// Whether the postmaster is still running.
    pub fn is_running(&self) -> bool {
        self.pid.is_some_and(procs::is_alive)
    }

    /// Stops the server: `pg_ctl stop -m fast`, then `-m immediate`, then SIGKILL to
    /// any process left in the data directory. Errors only if a process survives.
    pub fn stop(mut self) -> Result<(), PgError> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> Result<(), PgError> {
        if !std::mem::take(&mut self.running) {
            return Ok(());
        }
        let user = self.user.as_ref();
        let fast = server::stop(&self.bins, user, &self.layout, "fast", self.stop_timeout);
        if fast.is_err() && !procs::pids_in_dir(&self.layout.data_dir).is_empty() {
            let _ = server::stop(
                &self.bins,
                user,
                &self.layout,
                "immediate",
                Duration::from_secs(5),
            );
        }
        let pids = procs::kill_all_in_dir(&self.layout.data_dir, Duration::from_secs(5));
        if pids.is_empty() {
            Ok(())
        } else {
            Err(PgError::Leftover {
                data_dir: self.layout.data_dir.clone(),
                pids,
            })
        }
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

/// Creates the run directory, checks it suits a cluster and gives it to the server user.
fn prepare_run_dir(run_dir: &Path, user: Option<&ServerUser>) -> Result<Layout, PgError> {
    let create_err = |source| PgError::CreateDir {
        path: run_dir.into(),
        source,
    };
    std::fs::create_dir_all(run_dir).map_err(create_err)?;
    let canonical = run_dir.canonicalize().map_err(create_err)?;
    let layout = Layout::new(&canonical);
    if layout.data_dir.exists() {
        return Err(PgError::DataDirExists {
            path: layout.data_dir,
        });
    }
    let socket: PathBuf = canonical.join(".s.PGSQL.65535");
    let len = socket.as_os_str().len();
    if len > MAX_SOCKET_PATH {
        return Err(PgError::SocketPathTooLong { path: socket, len });
    }
    if let Some(user) = user {
        user.check_searchable(&canonical)?;
        user.own(&canonical)?;
    }
    Ok(layout)
}

fn port_is_free(port: u16) -> bool {
    TcpListener::bind((Ipv4Addr::LOCALHOST, port)).is_ok()
}

fn free_port() -> Result<u16, PgError> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .map_err(|source| PgError::FreePort { source })?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|source| PgError::FreePort { source })
}

/// Empties the log of an earlier attempt (without creating it: the server user must own it).
fn truncate_log(layout: &Layout) {
    let _ = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&layout.log_file);
}
