//! Errors of the PostgreSQL source. Every message names what failed: the program,
//! directory, port, database or table, plus the server's own words where it gave any.

use std::path::PathBuf;

/// What went wrong while running or loading the private PostgreSQL cluster.
#[derive(Debug, thiserror::Error)]
pub enum PgError {
    #[error(
        "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found (looked in: {searched}); \
         install the Debian package `postgresql` (apt-get install -y postgresql) or run scripts/setup"
    )]
    BinariesMissing { searched: String },
    #[error("cannot create PostgreSQL run directory {path}: {source}")]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "PostgreSQL run directory {path} already holds a data directory; use a fresh directory"
    )]
    DataDirExists { path: PathBuf },
    #[error("cannot give {path} to the server user `{user}`: {source}")]
    Chown {
        path: PathBuf,
        user: String,
        source: std::io::Error,
    },
    #[error(
        "the server user `{user}` cannot enter {path} (its permissions block it); use a run directory under /tmp or make the path searchable"
    )]
    NotSearchable { path: PathBuf, user: String },
    #[error(
        "socket path {path} is {len} bytes, over the 107-byte limit of Unix sockets; use a shorter run directory"
    )]
    SocketPathTooLong { path: PathBuf, len: usize },
    #[error("cannot look up the server user `{user}`: {detail}")]
    User { user: String, detail: String },
    #[error("cannot run {program}: {source}")]
    Spawn {
        program: PathBuf,
        source: std::io::Error,
    },
    #[error("{what} failed ({status}):\n{output}")]
    Command {
        what: String,
        status: String,
        output: String,
    },
    #[error("cannot find a free TCP port on 127.0.0.1: {source}")]
    FreePort { source: std::io::Error },
    #[error("port {port} on 127.0.0.1 is already in use; PostgreSQL cannot listen on it")]
    PortInUse { port: u16 },
    #[error("cannot connect to PostgreSQL at {target} as `{user}` (database `{db}`): {detail}")]
    Connect {
        target: String,
        user: String,
        db: String,
        detail: String,
    },
    #[error("{what}: {detail}")]
    Sql { what: String, detail: String },
    #[error("the PostgreSQL server (postmaster pid {pid}) died during {what}: {detail}")]
    ServerDied {
        pid: i32,
        what: String,
        detail: String,
    },
    #[error("COPY into {table} sent {expected} rows but the server stored {copied}")]
    RowCount {
        table: String,
        expected: u64,
        copied: u64,
    },
    #[error("PostgreSQL processes of {data_dir} still running after stop (pids {pids:?})")]
    Leftover { data_dir: PathBuf, pids: Vec<i32> },
}

/// The server's own words for a client error: severity, SQLSTATE, message, detail and
/// context (`COPY t, line 3, column c`) when the server sent them.
pub(crate) fn describe(err: &tokio_postgres::Error) -> String {
    let Some(db) = err.as_db_error() else {
        return err.to_string();
    };
    let mut text = format!("{} {}: {}", db.severity(), db.code().code(), db.message());
    if let Some(detail) = db.detail() {
        text.push_str(&format!("; DETAIL: {detail}"));
    }
    if let Some(context) = db.where_() {
        text.push_str(&format!("; CONTEXT: {context}"));
    }
    text
}
