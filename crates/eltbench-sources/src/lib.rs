//! Canonical source tables and the live sources they are loaded into.
//!
//! A suite's `data/<db>/<table>.csv` is the one truth for a source table: `csv_read`
//! turns it into a typed [`Table`] (types from the original DDL where declared, else
//! inferred), and each source kind serves that table in the form it needs: a private
//! PostgreSQL cluster ([`postgres::PgCluster`]), MongoDB documents ([`mongo_load`]),
//! the REST API ([`rest`]), S3 objects ([`s3_load`]) and flat files over HTTP
//! ([`files`]), in the file formats of [`formats`]. [`env::Environment`] brings a
//! whole task up at once. The crate must never alter the canonical data it serves.

pub mod csv_read;
pub mod datetime;
pub mod ddl;
pub mod env;
pub mod files;
pub mod formats;
pub mod http;
mod infer;
mod lines;
pub mod mongo_load;
pub mod postgres;
mod resolve;
pub mod rest;
pub mod s3_load;
pub mod table;
pub mod types;
mod values;

pub use csv_read::{TableError, read_rows, read_suite_table, read_table};
pub use ddl::{DdlCatalog, DdlColumn, DdlError, TableDdl};
pub use env::{EnvError, EnvOptions, Environment};
pub use postgres::{PgCluster, PgClusterOptions, PgError};
pub use table::{Column, Row, Rows, Table, TypeOrigin};
pub use types::{ColumnType, UnknownType};
