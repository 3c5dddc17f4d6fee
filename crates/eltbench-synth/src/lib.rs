//! Deterministic synthetic source data for ELT-Bench tasks that ship none.
//!
//! Of ELT-Bench's 100 tasks only 22 come with real source data; the other
//! 78 were built from the BIRD databases, which are not available. This
//! crate generates, for any task of a suite, one canonical CSV per source
//! table (`<out>/data/<db>/<table>.csv`, header = the schema file's column
//! order, empty field = NULL) and makes `<out>` a loadable suite
//! (`tasks/<db>` linked, the capped `source_row_counts.json`,
//! `model_eval_keys.json`).
//!
//! - Types come from `postgres_ddl.json` / `rest_api_streams.json` when the
//!   suite has them, else from the name rules of [`rules`].
//! - Row counts are `source_row_counts.json`, capped at
//!   [`SynthOptions::max_rows`] ([`effective_row_counts`]).
//! - Primary keys are unique and inferred foreign keys take the referenced
//!   table's keys (the rules are in the `keys` module).
//! - Output is a pure function of `(seed, db, table)` and the task's
//!   definition: byte-identical whatever else is generated, in any order,
//!   on any thread.
//!
//! It never writes into the source suite and never reads its `data/`.

mod error;
mod generate;
mod hints;
mod keys;
mod plan;
mod rows;
pub mod rules;
mod seed;
mod suite_files;
mod types;
mod values;
mod words;
mod write;

use std::path::{Path, PathBuf};

use eltbench_task::Suite;

pub use error::SynthError;
pub use hints::{ColumnHint, TableHint, TypeHints};
pub use plan::{ColumnPlan, Reference, Source, TablePlan, TaskPlan, plan_task};
pub use rows::effective_row_counts;
pub use rules::Flavor;
pub use types::{ColumnType, Kind};

/// How to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynthOptions {
    /// The seed: same seed, same bytes.
    pub seed: u64,
    /// Cap on rows per table (`None`: the exact counts of
    /// `source_row_counts.json`, up to 129 million rows for one table).
    pub max_rows: Option<u64>,
}

impl Default for SynthOptions {
    fn default() -> Self {
        Self {
            seed: 0,
            max_rows: Some(1000),
        }
    }
}

/// What was generated for one task.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SynthReport {
    /// The task.
    pub db: String,
    /// One entry per source table, in `config.yaml` order.
    pub tables: Vec<TableReport>,
}

/// What was generated for one table.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TableReport {
    /// Table name as `config.yaml` writes it.
    pub table: String,
    /// The CSV written.
    pub path: PathBuf,
    /// Rows written.
    pub rows: u64,
    /// Primary-key columns.
    pub primary_key: Vec<String>,
    /// `(column, referenced table, referenced column)` of inferred foreign keys.
    pub foreign_keys: Vec<(String, String, String)>,
}

impl SynthReport {
    /// Rows written over all tables.
    pub fn total_rows(&self) -> u64 {
        self.tables.iter().map(|t| t.rows).sum()
    }
}

/// A suite with its type hints loaded, ready to generate any of its tasks
/// (share it across threads: generation only reads it).
#[derive(Debug)]
pub struct Synthesizer<'a> {
    suite: &'a Suite,
    hints: TypeHints,
    options: SynthOptions,
}

impl<'a> Synthesizer<'a> {
    /// Loads the type hints of `suite` (from its root directory).
    pub fn new(suite: &'a Suite, options: SynthOptions) -> Result<Self, SynthError> {
        let hints = TypeHints::load(suite.root())?;
        Ok(Self {
            suite,
            hints,
            options,
        })
    }

    /// The plan of task `db`: types, keys and row counts of its tables.
    pub fn plan(&self, db: &str) -> Result<TaskPlan, SynthError> {
        plan_task(self.suite, &self.hints, db, &self.options)
    }

    /// Generates task `db` into the suite directory `out`.
    pub fn synthesize(&self, db: &str, out: &Path) -> Result<SynthReport, SynthError> {
        refuse_suite_itself(self.suite, out)?;
        let plan = self.plan(db)?;
        let dir = out.join("data").join(db);
        std::fs::create_dir_all(&dir).map_err(|e| SynthError::io(&dir, e))?;
        let mut tables = Vec::with_capacity(plan.tables.len());
        for table in &plan.tables {
            let path = dir.join(format!("{}.csv", table.table));
            let rows = write::write_table(&path, table, self.options.seed, db)?;
            tables.push(table_report(table, path, rows));
        }
        let counts = tables.iter().map(|t| (t.table.clone(), t.rows)).collect();
        suite_files::add_task(self.suite, db, &counts, out)?;
        Ok(SynthReport {
            db: db.to_owned(),
            tables,
        })
    }
}

/// Generates task `db` of `suite` into the suite directory `out`.
pub fn synthesize_task(
    suite: &Suite,
    db: &str,
    options: &SynthOptions,
    out: &Path,
) -> Result<SynthReport, SynthError> {
    Synthesizer::new(suite, options.clone())?.synthesize(db, out)
}

fn table_report(table: &TablePlan, path: PathBuf, rows: u64) -> TableReport {
    let foreign_keys = table
        .foreign_keys()
        .into_iter()
        .map(|(column, r)| (column.to_owned(), r.table.clone(), r.column.clone()))
        .collect();
    TableReport {
        table: table.table.clone(),
        path,
        rows,
        primary_key: table.primary_key.clone(),
        foreign_keys,
    }
}

fn refuse_suite_itself(suite: &Suite, out: &Path) -> Result<(), SynthError> {
    let same = match (
        std::fs::canonicalize(suite.root()),
        std::fs::canonicalize(out),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same {
        return Err(SynthError::OutIsSuite {
            out: out.to_path_buf(),
        });
    }
    Ok(())
}
