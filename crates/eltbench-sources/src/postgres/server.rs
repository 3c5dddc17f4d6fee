//! Running the server programs: `initdb`, the settings file, `pg_ctl start/stop`.
//!
//! Each function runs one program as the server user and turns a failure into an error
//! carrying the program's output and the tail of the server log. Nothing here tracks
//! state; `cluster` owns the lifecycle.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::PgError;
use super::binaries::PgBinaries;
use super::user::ServerUser;

/// The paths of one cluster inside its run directory.
#[derive(Clone, Debug)]
pub struct Layout {
    pub run_dir: PathBuf,
    pub data_dir: PathBuf,
    pub log_file: PathBuf,
}

impl Layout {
    pub fn new(run_dir: &Path) -> Self {
        Self {
            run_dir: run_dir.into(),
            data_dir: run_dir.join("data"),
            log_file: run_dir.join("postgres.log"),
        }
    }
}

/// Runs `program args` as `user` in the run directory and returns its output, or an
/// error naming `what` with stderr, stdout and the server log tail.
fn run(
    bins: &PgBinaries,
    user: Option<&ServerUser>,
    layout: &Layout,
    what: &str,
    program: &str,
    args: &[&str],
) -> Result<String, PgError> {
    let path = bins.program(program);
    let mut cmd = Command::new(&path);
    cmd.args(args)
        .current_dir(&layout.run_dir)
        .stdin(Stdio::null())
        .env("LC_ALL", "C");
    if let Some(user) = user {
        user.apply(&mut cmd);
    }
    let out = cmd.output().map_err(|source| PgError::Spawn {
        program: path.clone(),
        source,
    })?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    if out.status.success() {
        return Ok(text);
    }
    let output = format!(
        "{}\n--- server log {} ---\n{}",
        text.trim_end(),
        layout.log_file.display(),
        log_tail(layout)
    );
    Err(PgError::Command {
        what: what.into(),
        status: out.status.to_string(),
        output,
    })
}

/// The last lines of the server log (empty if there is none yet).
pub fn log_tail(layout: &Layout) -> String {
    let text = std::fs::read_to_string(&layout.log_file).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

/// `initdb`: UTF-8, C locale, trust on the Unix socket, SCRAM passwords on TCP.
pub fn initdb(
    bins: &PgBinaries,
    user: Option<&ServerUser>,
    layout: &Layout,
    superuser: &str,
) -> Result<(), PgError> {
    let data = layout.data_dir.to_string_lossy();
    let args = [
        "-D",
        &data,
        "-U",
        superuser,
        "--auth-local=trust",
        "--auth-host=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C",
        "--no-sync",
        "--no-instructions",
    ];
    run(
        bins,
        user,
        layout,
        &format!("initdb of {data}"),
        "initdb",
        &args,
    )
    .map(drop)
}

/// Appends eltbench's settings: the port, loopback-only TCP, the socket inside the run
/// directory, and durability off (a benchmark source is rebuilt, never recovered).
pub fn write_settings(layout: &Layout, port: u16) -> Result<(), PgError> {
    let socket_dir = layout.run_dir.to_string_lossy().replace('\'', "''");
    let settings = format!(
        "\n# eltbench private cluster\nport = {port}\nlisten_addresses = '127.0.0.1'\n\
         unix_socket_directories = '{socket_dir}'\nfsync = off\nsynchronous_commit = off\n\
         full_page_writes = off\nwal_level = minimal\nmax_wal_senders = 0\nmax_wal_size = '2GB'\n\
         checkpoint_timeout = '30min'\nlogging_collector = off\n"
    );
    let conf = layout.data_dir.join("postgresql.conf");
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new().append(true).open(&conf)?;
        f.write_all(settings.as_bytes())
    };
    write().map_err(|source| PgError::CreateDir {
        path: conf.clone(),
        source,
    })
}

/// `pg_ctl start -w`: returns once the server accepts connections.
pub fn start(
    bins: &PgBinaries,
    user: Option<&ServerUser>,
    layout: &Layout,
    timeout: Duration,
) -> Result<(), PgError> {
    let data = layout.data_dir.to_string_lossy();
    let log = layout.log_file.to_string_lossy();
    let secs = timeout.as_secs().max(1).to_string();
    let args = ["start", "-D", &data, "-l", &log, "-w", "-t", &secs];
    run(
        bins,
        user,
        layout,
        &format!("pg_ctl start of {data}"),
        "pg_ctl",
        &args,
    )
    .map(drop)
}

/// `pg_ctl stop -m <mode> -w`.
pub fn stop(
    bins: &PgBinaries,
    user: Option<&ServerUser>,
    layout: &Layout,
    mode: &str,
    timeout: Duration,
) -> Result<(), PgError> {
    let data = layout.data_dir.to_string_lossy();
    let secs = timeout.as_secs().max(1).to_string();
    let args = ["stop", "-D", &data, "-m", mode, "-w", "-t", &secs];
    run(
        bins,
        user,
        layout,
        &format!("pg_ctl stop -m {mode} of {data}"),
        "pg_ctl",
        &args,
    )
    .map(drop)
}

/// The postmaster pid from `postmaster.pid`, while that file exists.
pub fn postmaster_pid(layout: &Layout) -> Option<i32> {
    let text = std::fs::read_to_string(layout.data_dir.join("postmaster.pid")).ok()?;
    text.lines().next()?.trim().parse().ok()
}

/// Whether the server log says the listen port was taken.
pub fn log_says_port_taken(layout: &Layout) -> bool {
    let text = std::fs::read_to_string(&layout.log_file).unwrap_or_default();
    text.contains("Address already in use") || text.contains("could not create any TCP/IP sockets")
}
