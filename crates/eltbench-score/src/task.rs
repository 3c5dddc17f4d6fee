//! Scoring one task of a suite against its warehouse: stage 1, then every
//! data model of `data_model.yaml` through stage 2, with the suite's eval
//! keys and ground-truth metadata, and the original's stage-1 gate.
//!
//! Warehouse files are only ever opened read-only here; a missing, locked or
//! unreadable one is reported in the result (the task scores 0), never raised.

use std::collections::BTreeMap;
use std::path::Path;

use eltbench_task::{Suite, Task};
use eltbench_warehouse::{Access, DuckDbWarehouse, Warehouse};

use crate::ScoreError;
use crate::compat::Compat;
use crate::report::{ModelScore, ModelStatus, TaskScore, WarehouseState};
use crate::stage1::{Stage1Score, score_stage1};
use crate::stage2::{ModelOutcome, score_model};
use crate::taxonomy::ModelError;

/// Looks a task up, with "did you mean" suggestions when it is unknown.
pub fn find_task<'a>(suite: &'a Suite, db: &str) -> Result<&'a Task, ScoreError> {
    suite.task(db).ok_or_else(|| ScoreError::UnknownTask {
        db: db.to_string(),
        suite: suite.root().to_path_buf(),
        near: suite.near_task_names(db),
    })
}

/// Opens `path` read-only as the warehouse of task `db` and scores it.
pub fn score_task_file(
    suite: &Suite,
    db: &str,
    path: &Path,
    compat: Compat,
) -> Result<TaskScore, ScoreError> {
    match DuckDbWarehouse::open(path, db, Access::ReadOnly) {
        Ok(warehouse) => score_task(suite, db, &warehouse, compat),
        Err(e) => unavailable(suite, db, e.to_string()),
    }
}

/// Scores task `db` against an open warehouse.
pub fn score_task(
    suite: &Suite,
    db: &str,
    warehouse: &dyn Warehouse,
    compat: Compat,
) -> Result<TaskScore, ScoreError> {
    let task = find_task(suite, db)?;
    let empty = BTreeMap::new();
    let expected = suite.expected_rows(db).unwrap_or(&empty);
    let srdel = match score_stage1(warehouse, expected) {
        Ok(srdel) => srdel,
        Err(e) => return unavailable(suite, db, e.to_string()),
    };
    let mut models = BTreeMap::new();
    for model in &task.models {
        let score = score_one(suite, db, &model.name, warehouse, srdel.passed, compat)?;
        models.insert(model.name.clone(), score);
    }
    Ok(TaskScore {
        db: db.to_string(),
        warehouse: WarehouseState::Read,
        srdel,
        models,
    })
}

fn score_one(
    suite: &Suite,
    db: &str,
    model: &str,
    warehouse: &dyn Warehouse,
    stage1_passed: bool,
    compat: Compat,
) -> Result<ModelScore, ScoreError> {
    let meta = suite.gt_meta(db, model).cloned().unwrap_or_default();
    let key = suite.eval_key(db, model);
    let mut score = ModelScore {
        status: ModelStatus::NoGroundTruth,
        matched_ungated: false,
        run_date_dependent: meta.depends_on_run_date,
        unkeyed: key.is_none_or(|k| k.order_by.is_none()),
        relation: None,
        error: None,
        comparison: None,
    };
    let Some(gt) = suite.ground_truth(db, model)? else {
        return Ok(score);
    };
    let outcome = score_model(warehouse, model, key, &gt, &meta.columns_left_empty, compat)
        .unwrap_or_else(|e| ModelOutcome {
            relation: None,
            error: Some(ModelError::QueryFailed {
                message: e.to_string(),
            }),
            comparison: None,
        });
    score.matched_ungated = outcome.matched();
    score.status = match (stage1_passed, score.matched_ungated) {
        (false, _) => ModelStatus::NotScoredStage1Failed,
        (true, true) => ModelStatus::Matched,
        (true, false) => ModelStatus::Unmatched,
    };
    score.relation = outcome.relation;
    score.error = outcome.error;
    score.comparison = outcome.comparison;
    Ok(score)
}

/// The result for a task whose warehouse could not be read: stage 1 fails,
/// every model with ground truth counts as not matched.
fn unavailable(suite: &Suite, db: &str, reason: String) -> Result<TaskScore, ScoreError> {
    let task = find_task(suite, db)?;
    let models = task
        .models
        .iter()
        .map(|m| {
            let has_gt = suite.ground_truth_path(db, &m.name).is_some();
            let meta = suite.gt_meta(db, &m.name);
            let key = suite.eval_key(db, &m.name);
            let score = ModelScore {
                status: if has_gt {
                    ModelStatus::NotScoredStage1Failed
                } else {
                    ModelStatus::NoGroundTruth
                },
                matched_ungated: false,
                run_date_dependent: meta.is_some_and(|m| m.depends_on_run_date),
                unkeyed: key.is_none_or(|k| k.order_by.is_none()),
                relation: None,
                error: None,
                comparison: None,
            };
            (m.name.clone(), score)
        })
        .collect();
    Ok(TaskScore {
        db: db.to_string(),
        warehouse: WarehouseState::Unavailable { reason },
        srdel: Stage1Score::unavailable(),
        models,
    })
}
