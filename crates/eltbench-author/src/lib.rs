//! Authoring ELT-Bench suites.
//!
//! - [`new_task`] scaffolds a task from a directory of CSV files or a SQLite
//!   file (`eltbench tasks new`): tables dealt over the source kinds
//!   ([`assign`]), `config.yaml` in the original's shape, schema files with
//!   empty descriptions, a `data_model.yaml` skeleton, data and index entries.
//! - [`import`] converts a checkout of the original ELT-Bench repository
//!   (`eltbench suite import elt-bench`).
//! - [`perturb`] derives a renamed, re-valued variant of a suite whose ground
//!   truth is recomputed from its gold (`eltbench suite perturb`).
//!
//! This crate reads and writes suite directories only; it starts no service
//! (running gold for ground truth is left to a callback the caller gives).

pub mod assign;
mod config_yaml;
mod error;
pub mod import;
pub mod indexes;
mod infer;
pub mod perturb;
mod scaffold;
mod sqlite;
mod table;

pub use assign::{Assignment, KIND_ORDER, parse_kinds};
pub use config_yaml::{bucket, config_yaml};
pub use error::AuthorError;
pub use import::{ImportReport, SYNTHETIC_TASKS, import_elt_bench};
pub use infer::{ColumnType, infer_column, infer_types};
pub use perturb::{PerturbReport, perturb_suite};
pub use scaffold::{NewTask, NewTaskReport, TableReport, new_task, placeholder_model};
pub use sqlite::read_sqlite;
pub use table::{RawTable, read_csv_dir};

/// Reads the tables of `--from`: a directory of CSV files or a SQLite file.
pub fn read_tables(from: &std::path::Path) -> Result<Vec<RawTable>, AuthorError> {
    if from.is_dir() {
        read_csv_dir(from)
    } else if from.is_file() {
        read_sqlite(from)
    } else {
        Err(AuthorError::BadInput(format!(
            "--from {}: no such file or directory",
            from.display()
        )))
    }
}
