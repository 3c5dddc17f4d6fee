//! The ELT-Bench suite and task model.
//!
//! A suite is a directory in the layout of `ARCHITECTURE.md` ("Data layout of
//! a suite"): `tasks/<db>/{config.yaml, data_model.yaml, schemas/<table>.csv}`,
//! `source_row_counts.json`, `model_eval_keys.json`, and optionally
//! `data/<db>/<table>.csv`, `gt/<db>/<model>.csv` (+ `gt/_meta.json`) and
//! `gold/<db>/`. This crate reads and validates it; it does no network I/O
//! and never edits a suite.
//!
//! CONTRACT (other crates code against these names; keep them stable):
//! - [`Suite::load`] reads a suite; [`Suite::validate`] returns every problem
//!   found as a [`Problem`] with file and line.
//! - [`Suite::tasks`] iterates tasks sorted by database name; [`Task`] has
//!   `db`, `config`, `models`, `source_tables()`.
//! - [`Suite::expected_rows`] gives stage-1 row counts;
//!   [`Suite::eval_key`] the stage-2 table and ORDER BY keys;
//!   [`Suite::ground_truth`] a parsed `gt/<db>/<model>.csv`;
//!   [`Suite::gt_meta`] the `gt/_meta.json` entry of a model.
//!
//! Table and model names are matched case-insensitively in lookups, as the
//! original did by upper-casing on Snowflake; the original data mixes cases
//! (`airlines` in config.yaml, `Airlines.csv` in schemas/).

mod config;
mod error;
mod eval;
mod ground_truth;
mod lines;
mod model;
mod names;
mod problem;
mod schema;
mod source;
mod suite;
mod task;
mod validate;

pub use config::{
    AirbyteConfig, AwsS3Source, CustomApiSource, FlatFile, FlatFiles, MongodbSource,
    PostgresSource, S3Object, SnowflakeDestination, TaskConfig,
};
pub use error::SuiteError;
pub use eval::{EvalKey, GtMeta};
pub use ground_truth::GroundTruth;
pub use model::{DataModel, ModelColumn};
pub use names::{get_ci, near_names};
pub use problem::{Problem, Severity};
pub use schema::{SCHEMA_HEADER, SchemaColumn, TableSchema};
pub use source::{FileFormat, SourceBlock, SourceKind, SourceTable};
pub use suite::Suite;
pub use task::Task;
