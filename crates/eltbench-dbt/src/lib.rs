//! dbt for eltbench: the real dbt-core 1.11 with dbt-duckdb, installed once into
//! a virtualenv under eltbench's home ([`DbtToolchain::ensure`]), a dbt project
//! skeleton for a task workspace whose models land in `<db>.airbyte_schema`
//! ([`write_project`]), and running dbt with its `run_results.json` read back and
//! each failure classified ([`run_dbt`]).
//!
//! DuckDB is 1.5.5 on both sides: the Python package in the virtualenv is pinned
//! to the version of the `libduckdb` the Rust side links, so a warehouse file
//! written by one opens on the other.
//!
//! This crate must never touch a warehouse file itself (dbt does) and never
//! reinstall a toolchain that is already complete.

mod error;
mod home;
mod install;
mod lock;
mod outcome;
mod project;
mod results;
mod run;
mod toolchain;

pub use error::DbtError;
pub use home::{default_home, home_from};
pub use outcome::{DbtOutcome, ErrorKind, Failure};
pub use project::{DEFAULT_SCHEMA, project_name, write_project};
pub use results::{NodeResult, NodeStatus};
pub use run::{RunOptions, run_dbt, run_dbt_with};
pub use toolchain::{DbtToolchain, Progress};

/// The dbt-core requirement pip installs.
pub const DBT_CORE_REQUIREMENT: &str = "dbt-core>=1.11,<1.12";
/// The dbt-duckdb requirement pip installs.
pub const DBT_DUCKDB_REQUIREMENT: &str = "dbt-duckdb>=1.11,<1.12";
/// The DuckDB version on both sides (the Rust crate links libduckdb 1.5.5).
pub const DUCKDB_VERSION: &str = "1.5.5";
/// The dbt-core minor version (`1.11.x`).
pub const DBT_CORE_SERIES: &str = "1.11";
/// The virtualenv's directory name under the home: one per pinned combination.
pub const VENV_NAME: &str = "dbt-1.11-duckdb-1.5.5";
