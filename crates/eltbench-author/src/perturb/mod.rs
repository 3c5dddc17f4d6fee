//! `eltbench suite perturb`: a contamination guard. Derives from a suite a
//! variant whose tables, columns and models carry new names (consistently in
//! config.yaml, schemas, data_model.yaml, data headers, the JSON indexes,
//! the gold SQL and the eval keys) and whose values are regenerated
//! ([`values`]), so a model that memorised the public tasks gains nothing.
//!
//! Ground truth is NOT copied: it must be recomputed by running the
//! variant's gold (the CLI runs `tasks verify --write-gt` per task). This
//! module writes only under the destination and never starts a service.

mod files;
mod index;
mod names;
mod sql;
mod values;

use std::collections::BTreeSet;
use std::path::Path;

use eltbench_task::Suite;

use crate::error::AuthorError;
pub use names::Renames;
pub use sql::rename_sql;
pub use values::Values;

/// What a perturbation wrote.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct PerturbReport {
    pub seed: u64,
    pub tasks: Vec<String>,
    /// Tasks with gold models: their ground truth can be recomputed.
    pub tasks_with_gold: Vec<String>,
    pub renamed_identifiers: usize,
}

/// Writes the perturbed variant of the suite at `src` into `dst`.
pub fn perturb_suite(src: &Path, dst: &Path, seed: u64) -> Result<PerturbReport, AuthorError> {
    let suite = Suite::load(src).map_err(|e| AuthorError::Suite {
        path: src.to_path_buf(),
        message: e.to_string(),
    })?;
    if dst.join("tasks").exists() {
        return Err(AuthorError::BadInput(format!(
            "{} already holds a suite; give a new directory",
            dst.display()
        )));
    }
    let mut taken = files::all_names(&suite)?;
    let mut values = Values::new(seed);
    let mut report = PerturbReport {
        seed,
        ..PerturbReport::default()
    };
    let mut all = Vec::new();
    for task in suite.tasks() {
        let old = files::task_names(&suite, task)?;
        let renames = Renames::new(
            seed ^ names::hash(0, &task.db),
            old.iter().map(String::as_str),
            &mut taken,
        );
        report.renamed_identifiers += old
            .iter()
            .map(|o| o.to_ascii_lowercase())
            .collect::<BTreeSet<_>>()
            .len();
        files::write_task(&suite, task, &renames, &mut values, dst)?;
        if suite.gold_dir(&task.db).is_some() {
            report.tasks_with_gold.push(task.db.clone());
        }
        report.tasks.push(task.db.clone());
        all.push((task.db.clone(), renames));
    }
    index::write_indexes(src, dst, &all)?;
    Ok(report)
}
