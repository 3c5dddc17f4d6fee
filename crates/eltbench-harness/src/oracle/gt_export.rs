//! Ground truth from a warehouse the gold models ran on: each model of a task
//! read in its eval-key order and written as `gt/<db>/<model>.csv` (header =
//! the `data_model.yaml` columns, NULL = empty field, values as DuckDB prints
//! them), plus the task's entry of `gt/_meta.json`. Writes only under
//! `<suite>/gt/`; only `eltbench tasks verify --write-gt` calls it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use eltbench_task::{DataModel, Suite};
use eltbench_warehouse::{Access, DEFAULT_SCHEMA, DuckDbWarehouse, Warehouse};
use serde_json::{Value, json};

use super::error::OracleError;

/// Writes the ground truth of every model of task `db` from `warehouse`;
/// the files written, sorted.
pub fn export_ground_truth(
    suite: &Suite,
    db: &str,
    warehouse: &Path,
) -> Result<Vec<PathBuf>, OracleError> {
    let task = suite.task(db).ok_or_else(|| OracleError::Environment {
        db: db.to_owned(),
        message: "no such task in the suite".to_owned(),
    })?;
    let wh = DuckDbWarehouse::open(warehouse, db, Access::ReadOnly)
        .map_err(|e| gt_err(db, warehouse, e))?;
    let dir = suite.root().join("gt").join(db);
    std::fs::create_dir_all(&dir).map_err(|e| OracleError::io(&dir, e))?;
    let mut written = Vec::new();
    let mut meta = serde_json::Map::new();
    meta.insert(
        "_computed".into(),
        json!({"by": "the task's gold dbt models (gold/<db>/models) run by `eltbench tasks verify --write-gt`"}),
    );
    for model in &task.models {
        let order_by = suite
            .eval_key(db, &model.name)
            .and_then(|k| k.order_by.clone())
            .unwrap_or_default();
        let rows = model_rows(&wh, db, model, &order_by, warehouse)?;
        let path = dir.join(format!("{}.csv", model.name));
        write_csv(&path, model, &rows)?;
        meta.insert(
            model.name.clone(),
            json!({"depends_on_run_date": false, "order_by": order_by, "rows": rows.len()}),
        );
        written.push(path);
    }
    write_meta(suite.root(), db, Value::Object(meta))?;
    Ok(written)
}

fn gt_err(db: &str, path: &Path, e: impl std::fmt::Display) -> OracleError {
    OracleError::Score {
        db: db.to_owned(),
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The model's rows in `order_by` order, projected on the data model's columns.
fn model_rows(
    wh: &DuckDbWarehouse,
    db: &str,
    model: &DataModel,
    order_by: &[String],
    path: &Path,
) -> Result<Vec<Vec<Option<String>>>, OracleError> {
    let table = wh
        .find_table(DEFAULT_SCHEMA, &model.name)
        .map_err(|e| gt_err(db, path, e))?
        .ok_or_else(|| {
            gt_err(
                db,
                path,
                format!("the gold did not build model {}", model.name),
            )
        })?;
    let frame = wh
        .read_table(&table, order_by)
        .map_err(|e| gt_err(db, path, e))?;
    let mut index = Vec::new();
    for column in &model.columns {
        let i = frame.column_index(&column.name).ok_or_else(|| {
            gt_err(
                db,
                path,
                format!("model {} has no column {}", model.name, column.name),
            )
        })?;
        index.push(i);
    }
    Ok(frame
        .rows
        .iter()
        .map(|row| index.iter().map(|&i| row[i].clone()).collect())
        .collect())
}

fn write_csv(
    path: &Path,
    model: &DataModel,
    rows: &[Vec<Option<String>>],
) -> Result<(), OracleError> {
    let mut out = csv::Writer::from_writer(Vec::new());
    let header: Vec<&str> = model.columns.iter().map(|c| c.name.as_str()).collect();
    let csv_err = |e: csv::Error| OracleError::io(path, std::io::Error::other(e));
    out.write_record(&header).map_err(csv_err)?;
    for row in rows {
        out.write_record(row.iter().map(|v| v.as_deref().unwrap_or("")))
            .map_err(csv_err)?;
    }
    let bytes = out
        .into_inner()
        .map_err(|e| OracleError::io(path, std::io::Error::other(e.to_string())))?;
    std::fs::write(path, bytes).map_err(|e| OracleError::io(path, e))
}

/// Replaces task `db`'s entry of `gt/_meta.json`, keeping the others.
fn write_meta(root: &Path, db: &str, entry: Value) -> Result<(), OracleError> {
    let path = root.join("gt").join("_meta.json");
    let mut all: BTreeMap<String, Value> = match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| OracleError::Config {
            path: path.clone(),
            message: e.to_string(),
        })?,
        Err(_) => BTreeMap::new(),
    };
    all.insert(db.to_owned(), entry);
    let text = serde_json::to_string_pretty(&all).unwrap_or_default() + "\n";
    std::fs::write(&path, text).map_err(|e| OracleError::io(&path, e))
}
