//! The PostgreSQL source: a private cluster of the real server (Debian package
//! `postgresql`) per environment, and loading canonical tables into it.
//!
//! Running as root: `initdb` and `postgres` refuse root, so the server programs run as
//! the `postgres` system user (or `nobody`) and the run directory is handed to that
//! user; see `user`. This module never connects to a server it did not start.

mod admin;
pub mod binaries;
mod cluster;
mod copy_text;
mod error;
mod load;
pub mod procs;
mod server;
mod sql;
pub mod user;

pub use binaries::PgBinaries;
pub use cluster::{PgCluster, PgClusterOptions};
pub use error::PgError;
pub use sql::{pg_column_name, qualified, quote_ident};
