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

mod api;
pub use api::*;
