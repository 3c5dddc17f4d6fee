//! `eltbench tasks verify`: a task's gold run end to end — sources up, the
//! stage-1 oracle (gold `main.tf` generated from config.yaml, one sync per
//! connection), the gold dbt models, optionally the ground truth rewritten
//! from them, the score against the ground truth, and the testing queries of
//! `verify/<db>.yaml`. Writes inside `work_dir`, and under `<suite>/gt/` only
//! when asked to.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eltbench_dbt::DbtToolchain;
use eltbench_score::{Compat, ModelScore, ModelStatus, TaskScore, score_task_file};
use eltbench_task::Suite;

use super::checks::{CheckResult, load_checks, run_checks};
use super::error::OracleError;
use super::gt_export::export_ground_truth;
use super::models::run_gold_models;
use super::run::OracleRun;

/// What `verify_task` did.
#[derive(Debug)]
pub struct Verification {
    pub db: String,
    /// The final score (stage 1 and stage 2 against the ground truth).
    pub score: TaskScore,
    pub checks: Vec<CheckResult>,
    /// Ground-truth files written (only with `write_gt`).
    pub gt_written: Vec<PathBuf>,
    /// The warehouse the gold ran on.
    pub warehouse: PathBuf,
    pub elapsed: Duration,
}

impl Verification {
    /// One line per problem: tables with a wrong row count, models that do
    /// not match the ground truth (with the columns), failed checks.
    pub fn problems(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .score
            .srdel
            .problems()
            .map(|(t, s)| format!("table {t}: {s:?}"))
            .collect();
        for (model, score) in &self.score.models {
            if score.status != ModelStatus::Matched {
                out.push(format!("model {model}: {}", model_problem(score)));
            }
        }
        out.extend(
            self.checks
                .iter()
                .filter(|c| !c.passed())
                .map(CheckResult::describe),
        );
        out
    }

    /// `(matched, scored)` models.
    pub fn srdt(&self) -> (usize, usize) {
        (self.score.matched_models(), self.score.scored_models())
    }
}

fn model_problem(score: &ModelScore) -> String {
    let mut parts = vec![format!("{:?}", score.status)];
    if let Some(e) = &score.error {
        parts.push(format!("{e:?}"));
    }
    if let Some(c) = &score.comparison {
        parts.extend(
            c.missing_columns
                .iter()
                .map(|m| format!("column {m} missing")),
        );
        parts.extend(c.unmatched_columns.iter().map(|m| {
            format!(
                "column {} differs in {} rows (first: {:?})",
                m.column, m.rows_differing, m.first_diff
            )
        }));
    }
    parts.join("; ")
}

/// Runs task `db`'s gold end to end in `work_dir`.
pub fn verify_task(
    suite_root: &Path,
    db: &str,
    work_dir: &Path,
    dbt: &DbtToolchain,
    write_gt: bool,
) -> Result<Verification, OracleError> {
    let started = Instant::now();
    let load = |root: &Path| {
        Suite::load(root).map_err(|e| OracleError::Config {
            path: root.to_path_buf(),
            message: e.to_string(),
        })
    };
    let suite = load(suite_root)?;
    let run = OracleRun::start(&suite, db, &work_dir.join("run"))?;
    run.sync_all()?;
    let warehouse = run.warehouse().to_path_buf();
    run.score(&suite)?;
    run_gold_models(&suite, db, &warehouse, &work_dir.join("dbt"), dbt)?;
    let gt_written = if write_gt {
        export_ground_truth(&suite, db, &warehouse)?
    } else {
        Vec::new()
    };
    let suite = load(suite_root)?;
    let score =
        score_task_file(&suite, db, &warehouse, Compat::Fixed).map_err(|e| OracleError::Score {
            db: db.to_owned(),
            path: warehouse.clone(),
            message: e.to_string(),
        })?;
    let checks = run_checks(&warehouse, &load_checks(suite_root, db)?)?;
    Ok(Verification {
        db: db.to_owned(),
        score,
        checks,
        gt_written,
        warehouse,
        elapsed: started.elapsed(),
    })
}
