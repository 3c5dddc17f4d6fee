//! The stage-2 oracle: a task's gold dbt models run on a loaded warehouse.
//! [`run_gold_models`] writes a dbt project on the warehouse into a work
//! directory (`eltbench_dbt::write_project`), copies the gold models
//! (`<suite>/gold/<db>/models/*.sql`, plus any `*.yml` beside them) into its
//! `models/`, declares the task's source tables as the dbt source
//! `airbyte_schema` (unless the gold ships its own YAML), and runs `dbt run`.
//!
//! A model that fails is reported with its gold file. This module never reads
//! ground truth and never writes outside the work directory (dbt writes the
//! models into the warehouse).

use std::path::{Path, PathBuf};

use eltbench_dbt::{DEFAULT_SCHEMA, DbtOutcome, DbtToolchain, run_dbt, write_project};
use eltbench_task::Suite;

use super::error::OracleError;

/// The YAML file declaring the loaded tables as the dbt source `airbyte_schema`.
pub const SOURCES_YML: &str = "_eltbench_sources.yml";

/// Runs task `db`'s gold models on `warehouse` (which must be `<db>.duckdb`
/// with the source tables loaded) from a dbt project written in `work_dir`.
/// Returns dbt's outcome when every model was built.
pub fn run_gold_models(
    suite: &Suite,
    db: &str,
    warehouse: &Path,
    work_dir: &Path,
    dbt: &DbtToolchain,
) -> Result<DbtOutcome, OracleError> {
    let gold = gold_models_dir(suite, db)?;
    prepare_project(suite, db, &gold, warehouse, work_dir)?;
    let outcome = run_dbt(dbt, work_dir, &["run"]).map_err(|e| OracleError::Dbt {
        db: db.to_owned(),
        dir: work_dir.to_path_buf(),
        message: e.to_string(),
    })?;
    check_outcome(db, &gold, &outcome)?;
    Ok(outcome)
}

/// `<suite>/gold/<db>/models/`, which must exist.
pub fn gold_models_dir(suite: &Suite, db: &str) -> Result<PathBuf, OracleError> {
    let dir = suite.root().join("gold").join(db).join("models");
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(OracleError::NoGoldModels {
            db: db.to_owned(),
            dir,
        })
    }
}

/// Writes the dbt project in `work_dir` with the gold models and the sources file.
pub fn prepare_project(
    suite: &Suite,
    db: &str,
    gold: &Path,
    warehouse: &Path,
    work_dir: &Path,
) -> Result<(), OracleError> {
    write_project(work_dir, db, warehouse).map_err(|e| OracleError::Dbt {
        db: db.to_owned(),
        dir: work_dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let models = work_dir.join("models");
    let copied = copy_gold_files(gold, &models)?;
    if !copied.iter().any(|f| is_ext(f, "yml") || is_ext(f, "yaml")) {
        let text = sources_yml(suite, db)?;
        let path = models.join(SOURCES_YML);
        std::fs::write(&path, text).map_err(|e| OracleError::io(&path, e))?;
    }
    Ok(())
}

/// Copies `*.sql` and `*.yml` from `gold` into `models`; the names copied, sorted.
fn copy_gold_files(gold: &Path, models: &Path) -> Result<Vec<PathBuf>, OracleError> {
    let entries = std::fs::read_dir(gold).map_err(|e| OracleError::io(gold, e))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| OracleError::io(gold, e))?.path();
        if path.is_file() && ["sql", "yml", "yaml"].iter().any(|x| is_ext(&path, x)) {
            files.push(path);
        }
    }
    files.sort();
    for file in &files {
        let Some(name) = file.file_name() else {
            continue;
        };
        let to = models.join(name);
        std::fs::copy(file, &to).map_err(|e| OracleError::io(file, e))?;
    }
    Ok(files)
}

fn is_ext(path: &Path, ext: &str) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some(ext)
}

/// The dbt sources file: every source table of the task under `airbyte_schema`.
pub fn sources_yml(suite: &Suite, db: &str) -> Result<String, OracleError> {
    let task = suite.task(db).ok_or_else(|| OracleError::Environment {
        db: db.to_owned(),
        message: "no such task in the suite".to_owned(),
    })?;
    let mut tables: Vec<String> = task
        .source_tables()
        .into_iter()
        .map(|t| t.name.to_lowercase())
        .collect();
    tables.sort();
    tables.dedup();
    let mut text = format!(
        "# Written by eltbench: the tables extract-load put in {DEFAULT_SCHEMA}.\n\
         version: 2\nsources:\n  - name: {DEFAULT_SCHEMA}\n    schema: {DEFAULT_SCHEMA}\n    tables:\n"
    );
    for table in tables {
        text.push_str(&format!("      - name: {table}\n"));
    }
    Ok(text)
}

/// An error naming the gold file of the failed model, if dbt failed.
fn check_outcome(db: &str, gold: &Path, outcome: &DbtOutcome) -> Result<(), OracleError> {
    let Some(failure) = &outcome.failure else {
        return Ok(());
    };
    let file = match &failure.node {
        Some(node) => gold.join(format!("{node}.sql")),
        None => gold.to_path_buf(),
    };
    Err(OracleError::GoldModel {
        db: db.to_owned(),
        file,
        kind: format!("{:?}", failure.kind).to_lowercase(),
        message: failure.message.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_node_names_its_gold_file() {
        let outcome = DbtOutcome {
            args: vec!["run".into()],
            exit_code: Some(2),
            stdout: String::new(),
            stderr: String::new(),
            duration: std::time::Duration::ZERO,
            timed_out: false,
            run_results_written: false,
            results: Vec::new(),
            failure: Some(eltbench_dbt::Failure {
                kind: eltbench_dbt::ErrorKind::Compilation,
                node: Some("daily_rides".into()),
                message: "'foo' is undefined".into(),
            }),
        };
        let err = check_outcome("bikes", Path::new("/s/gold/bikes/models"), &outcome).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("/s/gold/bikes/models/daily_rides.sql"),
            "{text}"
        );
        assert!(text.contains("'foo' is undefined"), "{text}");
    }

    #[test]
    fn successful_outcome_passes() {
        let outcome = DbtOutcome {
            args: vec!["run".into()],
            exit_code: Some(0),
            stdout: String::new(),
            stderr: String::new(),
            duration: std::time::Duration::ZERO,
            timed_out: false,
            run_results_written: true,
            results: Vec::new(),
            failure: None,
        };
        assert!(check_outcome("bikes", Path::new("/g"), &outcome).is_ok());
    }
}
