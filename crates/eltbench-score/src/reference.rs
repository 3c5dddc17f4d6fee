//! Reference warehouses: a task's warehouse built straight from the suite's
//! files, as a perfect pipeline would leave it. `data/<db>/<table>.csv` is
//! loaded into `airbyte_schema.<table>` and `gt/<db>/<model>.csv` into the
//! model's relation (DuckDB's CSV reader, types detected). Scoring one must
//! give 100%: the self-check of the suite and the scorer.
//!
//! This module writes only the `<db>.duckdb` file it is asked to build.

use std::path::{Path, PathBuf};

use eltbench_task::{Suite, Task};
use eltbench_warehouse::{Access, DEFAULT_SCHEMA, DuckDbWarehouse, WarehouseError};
use serde::Serialize;

use crate::ScoreError;
use crate::stage2::model_relation;
use crate::task::find_task;

/// What one reference build loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReferenceBuild {
    /// The task.
    pub db: String,
    /// The warehouse file written.
    pub path: PathBuf,
    /// Source tables loaded (`source_row_counts.json` names).
    pub tables: Vec<String>,
    /// Models loaded from ground truth (models without one are left out).
    pub models: Vec<String>,
}

/// Whether task `db` has source data to build a reference from.
pub fn has_reference_data(suite: &Suite, db: &str) -> bool {
    suite.root().join("data").join(db).is_dir()
}

/// Builds `<out_dir>/<db>.duckdb` afresh (an existing file is replaced).
pub fn build_reference(
    suite: &Suite,
    db: &str,
    out_dir: &Path,
) -> Result<ReferenceBuild, ScoreError> {
    let task = find_task(suite, db)?;
    std::fs::create_dir_all(out_dir).map_err(|source| ScoreError::Io {
        path: out_dir.to_path_buf(),
        source,
    })?;
    let path = out_dir.join(format!("{db}.duckdb"));
    remove_stale(&path)?;
    let fail = |source: WarehouseError| ScoreError::Build {
        db: db.to_string(),
        path: path.clone(),
        source,
    };
    let warehouse = DuckDbWarehouse::open(&path, db, Access::ReadWrite).map_err(fail)?;
    let mut build = ReferenceBuild {
        db: db.to_string(),
        path: path.clone(),
        tables: Vec::new(),
        models: Vec::new(),
    };
    for table in suite.expected_rows(db).into_iter().flat_map(|t| t.keys()) {
        let csv = suite
            .data_path(db, table)
            .ok_or_else(|| ScoreError::NoData {
                db: db.to_string(),
                table: table.clone(),
                dir: suite.root().join("data").join(db),
            })?;
        warehouse
            .load_csv(DEFAULT_SCHEMA, table, &csv)
            .map_err(fail)?;
        build.tables.push(table.clone());
    }
    build.models = load_ground_truth(suite, task, &warehouse).map_err(fail)?;
    Ok(build)
}

/// Loads every ground-truth CSV of `task` as the table its eval key names
/// (else `airbyte_schema.<model>`); returns the models loaded.
pub fn load_ground_truth(
    suite: &Suite,
    task: &Task,
    warehouse: &DuckDbWarehouse,
) -> Result<Vec<String>, WarehouseError> {
    let mut models = Vec::new();
    for model in &task.models {
        let Some(csv) = suite.ground_truth_path(&task.db, &model.name) else {
            continue;
        };
        let key = suite.eval_key(&task.db, &model.name);
        let (schema, name) = model_relation(&model.name, key);
        warehouse.load_csv(&schema, &name, &csv)?;
        models.push(model.name.clone());
    }
    Ok(models)
}

/// Removes a previous build and its write-ahead log.
fn remove_stale(path: &Path) -> Result<(), ScoreError> {
    let wal = PathBuf::from(format!("{}.wal", path.display()));
    for file in [path, wal.as_path()] {
        match std::fs::remove_file(file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(ScoreError::Io {
                    path: file.to_path_buf(),
                    source: e,
                });
            }
            _ => {}
        }
    }
    Ok(())
}
