//! The serializable results of scoring: per task, per model, and the
//! summary over a set of tasks. Field order is the output order; maps are
//! `BTreeMap`s so output is sorted and stable.
//!
//! These are plain data, serialized by `eltbench score` and the job runner
//! and read back by reports (missing diagnostic fields default, so a record
//! that kept only the verdicts still reads): this module never scores anything.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::compare::FrameComparison;
use crate::compat::Compat;
use crate::stage1::Stage1Score;
use crate::taxonomy::ModelError;

/// Whether a task's warehouse could be read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum WarehouseState {
    /// Opened (read-only) and read (the default when a record omits it).
    #[default]
    Read,
    /// Missing, locked or unreadable: the task scores 0.
    Unavailable {
        /// Why.
        reason: String,
    },
}

/// How a model counts towards SRDT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelStatus {
    /// Its task passed stage 1 and it matches the ground truth.
    Matched,
    /// Its task passed stage 1 and it does not match.
    Unmatched,
    /// Its task failed stage 1, so (as in the original) it is not scored and
    /// counts as not matched.
    NotScoredStage1Failed,
    /// No ground truth: not scored and not counted.
    NoGroundTruth,
}

/// One model's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelScore {
    /// How it counts.
    pub status: ModelStatus,
    /// Whether it matches regardless of the stage-1 gate (diagnostic).
    pub matched_ungated: bool,
    /// Its ground truth depends on the run date: counted in its own bucket.
    pub run_date_dependent: bool,
    /// It has no eval keys: rows aligned on whole rows (fixed rule) or in the
    /// warehouse's order (original rule).
    pub unkeyed: bool,
    /// The relation read (`schema.table`).
    pub relation: Option<String>,
    /// The failure category.
    pub error: Option<ModelError>,
    /// The column-by-column comparison.
    pub comparison: Option<FrameComparison>,
}

/// One task's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskScore {
    /// The task (its database name).
    pub db: String,
    /// Whether its warehouse was read.
    #[serde(default)]
    pub warehouse: WarehouseState,
    /// Stage 1.
    pub srdel: Stage1Score,
    /// Stage 2, per model.
    pub models: BTreeMap<String, ModelScore>,
}

impl TaskScore {
    /// Models that count as matched (stage-1 gate applied).
    pub fn matched_models(&self) -> usize {
        self.models
            .values()
            .filter(|m| m.status == ModelStatus::Matched)
            .count()
    }

    /// Models with ground truth.
    pub fn scored_models(&self) -> usize {
        self.models
            .values()
            .filter(|m| m.status != ModelStatus::NoGroundTruth)
            .count()
    }
}

/// A share of successes (`rate` is `None` when nothing was counted).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Successes.
    pub passed: usize,
    /// Trials counted.
    pub total: usize,
    /// `passed / total`.
    pub rate: Option<f64>,
}

impl Rate {
    /// `passed` out of `total`.
    #[allow(clippy::cast_precision_loss)]
    pub fn new(passed: usize, total: usize) -> Self {
        let rate = (total > 0).then(|| passed as f64 / total as f64);
        Self {
            passed,
            total,
            rate,
        }
    }

    /// The rate as a percentage for display (`-` when undefined).
    pub fn percent(&self) -> String {
        match self.rate {
            Some(r) => format!("{:.1}%", r * 100.0),
            None => "-".to_string(),
        }
    }
}

/// The summary over the scored tasks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The stage-2 rule.
    pub rule: Compat,
    /// What the rule is.
    pub rule_description: String,
    /// Tasks whose every source table landed with the exact row count.
    pub srdel: Rate,
    /// Date-independent models matched (stage-1 gate applied).
    pub srdt: Rate,
    /// Models whose ground truth depends on the run date, counted apart.
    pub srdt_run_date_dependent: Rate,
    /// Date-independent models matched ignoring the stage-1 gate (diagnostic).
    pub srdt_ungated: Rate,
    /// Models without ground truth (not scored).
    pub models_without_ground_truth: Vec<String>,
    /// Models scored without eval keys (`<db>.<model>`).
    pub models_unkeyed: Vec<String>,
    /// Tasks whose warehouse could not be read.
    pub tasks_unavailable: Vec<String>,
    /// How to read the numbers.
    pub note: String,
}

/// Everything `eltbench score` reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreReport {
    /// The totals.
    pub summary: Summary,
    /// Per task, sorted by database name.
    pub tasks: Vec<TaskScore>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{Alignment, ColumnMismatch, KeyValue, RowDiff};
    use crate::stage1::TableStatus;

    fn model(error: Option<ModelError>, comparison: Option<FrameComparison>) -> ModelScore {
        ModelScore {
            status: ModelStatus::Unmatched,
            matched_ungated: false,
            run_date_dependent: true,
            unkeyed: false,
            relation: Some("airbyte_schema.m".into()),
            error,
            comparison,
        }
    }

    fn comparison() -> FrameComparison {
        let diff = RowDiff {
            row: 2,
            key: vec![KeyValue {
                column: "id".into(),
                value: None,
            }],
            expected: Some("1".into()),
            actual: None,
        };
        FrameComparison {
            alignment: Alignment::EvalKeys {
                keys: vec!["id".into()],
            },
            rows_expected: 3,
            rows_actual: 3,
            matched_columns: vec!["id".into()],
            unmatched_columns: vec![ColumnMismatch {
                column: "v".into(),
                rows_differing: 1,
                first_diff: Some(diff),
            }],
            missing_columns: vec![],
            skipped_columns: vec!["s".into()],
        }
    }

    #[test]
    fn a_task_score_round_trips_through_json() {
        let errors = [
            ModelError::NotBuilt,
            ModelError::WrongSchema {
                found_in: vec!["main".into()],
            },
            ModelError::WrongSize {
                expected: 1,
                actual: 2,
            },
            ModelError::QueryFailed {
                message: "x".into(),
            },
        ];
        let mut models: BTreeMap<String, ModelScore> = errors
            .into_iter()
            .enumerate()
            .map(|(i, e)| (format!("m{i}"), model(Some(e), None)))
            .collect();
        models.insert("c".into(), model(None, Some(comparison())));
        let score = TaskScore {
            db: "t".into(),
            warehouse: WarehouseState::Unavailable {
                reason: "locked".into(),
            },
            srdel: Stage1Score {
                passed: false,
                tables: [
                    ("a".to_string(), TableStatus::Missing),
                    (
                        "b".to_string(),
                        TableStatus::WrongCount {
                            expected: 1,
                            actual: 2,
                        },
                    ),
                ]
                .into(),
            },
            models,
        };
        let json = serde_json::to_string(&score).unwrap();
        let back: TaskScore = serde_json::from_str(&json).unwrap();
        assert_eq!(back, score);
    }

    #[test]
    fn a_verdict_only_record_reads_with_defaults() {
        let json = r#"{"db":"t","srdel":{"passed":true},"models":{"m":{"status":"matched","matched_ungated":true,"run_date_dependent":false,"unkeyed":false}}}"#;
        let score: TaskScore = serde_json::from_str(json).unwrap();
        assert_eq!(score.warehouse, WarehouseState::Read);
        assert!(score.srdel.passed && score.srdel.tables.is_empty());
        assert_eq!((score.matched_models(), score.scored_models()), (1, 1));
        assert_eq!(score.models["m"].error, None);
    }
}
