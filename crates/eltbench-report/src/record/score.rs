//! The `score` field of a `results.jsonl` line: eltbench-score's
//! [`TaskScore`] as it serializes, read back (the scorer's types only
//! serialize). [`ScoreRecord::from_task_score`] writes one; [`ScoreRecord::to_task_score`]
//! turns one back into the scorer's type so its own counting applies.
//!
//! The shape must track eltbench-score's serialization; the round-trip test
//! below fails when the two drift. Diagnostic fields may be absent (a
//! digest that keeps only the counts still reads: tables and errors are
//! then empty). This module never scores anything.

use std::collections::BTreeMap;

use eltbench_score::WarehouseState;
use eltbench_score::{ModelError, ModelScore, ModelStatus, Stage1Score, TableStatus, TaskScore};
use serde::{Deserialize, Serialize};

/// A serialized [`TaskScore`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreRecord {
    /// The task.
    pub db: String,
    /// Whether its warehouse was read (absent: read).
    #[serde(default)]
    pub warehouse: WarehouseRecord,
    /// Stage 1.
    pub srdel: Stage1Record,
    /// Stage 2, per model.
    pub models: BTreeMap<String, ModelRecord>,
}

/// A serialized [`WarehouseState`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum WarehouseRecord {
    /// Read.
    #[default]
    Read,
    /// Not readable.
    Unavailable {
        /// Why.
        reason: String,
    },
}

/// A serialized [`Stage1Score`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stage1Record {
    /// Every table landed with the exact row count.
    pub passed: bool,
    /// Per expected table.
    #[serde(default)]
    pub tables: BTreeMap<String, TableRecord>,
}

/// A serialized [`TableStatus`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum TableRecord {
    /// Landed with the expected rows.
    Ok {
        /// Rows.
        rows: u64,
    },
    /// Absent.
    Missing,
    /// Another row count.
    WrongCount {
        /// Expected rows.
        expected: u64,
        /// Rows found.
        actual: u64,
    },
    /// A view, not a table.
    NotBaseTable,
}

/// A serialized [`ModelScore`]; the comparison is kept as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelRecord {
    /// How it counts ([`ModelStatus`], snake_case).
    pub status: ModelStatusRecord,
    /// Matched ignoring the stage-1 gate.
    pub matched_ungated: bool,
    /// Ground truth depends on the run date.
    pub run_date_dependent: bool,
    /// Scored without eval keys.
    pub unkeyed: bool,
    /// The relation read.
    #[serde(default)]
    pub relation: Option<String>,
    /// The failure category.
    #[serde(default)]
    pub error: Option<ErrorRecord>,
    /// The column-by-column comparison, as the scorer wrote it.
    #[serde(default)]
    pub comparison: Option<serde_json::Value>,
}

/// A serialized [`ModelStatus`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelStatusRecord {
    /// Matched.
    Matched,
    /// Not matched.
    Unmatched,
    /// Its task failed stage 1.
    NotScoredStage1Failed,
    /// No ground truth.
    NoGroundTruth,
}

/// A serialized [`ModelError`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ErrorRecord {
    /// No relation anywhere.
    NotBuilt,
    /// In another schema.
    WrongSchema {
        /// Where.
        found_in: Vec<String>,
    },
    /// Ground-truth columns absent.
    MissingColumns {
        /// Which.
        columns: Vec<String>,
    },
    /// Row count differs.
    WrongSize {
        /// Ground-truth rows.
        expected: usize,
        /// Model rows.
        actual: usize,
    },
    /// Values differ.
    WrongValues {
        /// Which columns.
        columns: Vec<String>,
    },
    /// Unreadable relation.
    QueryFailed {
        /// The warehouse's message.
        message: String,
    },
}

impl ScoreRecord {
    /// The record of a score, as the job runner writes it.
    pub fn from_task_score(score: &TaskScore) -> Result<Self, serde_json::Error> {
        serde_json::to_value(score).and_then(serde_json::from_value)
    }

    /// The scorer's type (without the comparisons, which reports don't use).
    pub fn to_task_score(&self) -> TaskScore {
        TaskScore {
            db: self.db.clone(),
            warehouse: match &self.warehouse {
                WarehouseRecord::Read => WarehouseState::Read,
                WarehouseRecord::Unavailable { reason } => WarehouseState::Unavailable {
                    reason: reason.clone(),
                },
            },
            srdel: self.srdel.to_stage1(),
            models: self
                .models
                .iter()
                .map(|(name, m)| (name.clone(), m.to_model_score()))
                .collect(),
        }
    }
}

impl Stage1Record {
    fn to_stage1(&self) -> Stage1Score {
        let tables = self
            .tables
            .iter()
            .map(|(name, t)| (name.clone(), t.to_status()));
        Stage1Score {
            passed: self.passed,
            tables: tables.collect(),
        }
    }
}

impl TableRecord {
    /// The scorer's type.
    pub fn to_status(&self) -> TableStatus {
        match *self {
            Self::Ok { rows } => TableStatus::Ok { rows },
            Self::Missing => TableStatus::Missing,
            Self::WrongCount { expected, actual } => TableStatus::WrongCount { expected, actual },
            Self::NotBaseTable => TableStatus::NotBaseTable,
        }
    }
}

impl ModelRecord {
    fn to_model_score(&self) -> ModelScore {
        ModelScore {
            status: match self.status {
                ModelStatusRecord::Matched => ModelStatus::Matched,
                ModelStatusRecord::Unmatched => ModelStatus::Unmatched,
                ModelStatusRecord::NotScoredStage1Failed => ModelStatus::NotScoredStage1Failed,
                ModelStatusRecord::NoGroundTruth => ModelStatus::NoGroundTruth,
            },
            matched_ungated: self.matched_ungated,
            run_date_dependent: self.run_date_dependent,
            unkeyed: self.unkeyed,
            relation: self.relation.clone(),
            error: self.error.as_ref().map(ErrorRecord::to_error),
            comparison: None,
        }
    }
}

impl ErrorRecord {
    /// The scorer's type.
    pub fn to_error(&self) -> ModelError {
        match self.clone() {
            Self::NotBuilt => ModelError::NotBuilt,
            Self::WrongSchema { found_in } => ModelError::WrongSchema { found_in },
            Self::MissingColumns { columns } => ModelError::MissingColumns { columns },
            Self::WrongSize { expected, actual } => ModelError::WrongSize { expected, actual },
            Self::WrongValues { columns } => ModelError::WrongValues { columns },
            Self::QueryFailed { message } => ModelError::QueryFailed { message },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(status: ModelStatus, error: Option<ModelError>) -> ModelScore {
        ModelScore {
            status,
            matched_ungated: status == ModelStatus::Matched,
            run_date_dependent: false,
            unkeyed: true,
            relation: Some("airbyte_schema.m".into()),
            error,
            comparison: None,
        }
    }

    fn every_variant() -> TaskScore {
        let tables = [
            ("a", TableStatus::Ok { rows: 3 }),
            ("b", TableStatus::Missing),
            (
                "c",
                TableStatus::WrongCount {
                    expected: 1,
                    actual: 2,
                },
            ),
            ("d", TableStatus::NotBaseTable),
        ];
        let errors = [
            ModelError::NotBuilt,
            ModelError::WrongSchema {
                found_in: vec!["main".into()],
            },
            ModelError::MissingColumns {
                columns: vec!["x".into()],
            },
            ModelError::WrongSize {
                expected: 1,
                actual: 2,
            },
            ModelError::WrongValues {
                columns: vec!["y".into()],
            },
            ModelError::QueryFailed {
                message: "boom".into(),
            },
        ];
        let mut models: BTreeMap<String, ModelScore> = errors
            .into_iter()
            .enumerate()
            .map(|(i, e)| (format!("e{i}"), model(ModelStatus::Unmatched, Some(e))))
            .collect();
        models.insert("ok".into(), model(ModelStatus::Matched, None));
        models.insert(
            "gate".into(),
            model(ModelStatus::NotScoredStage1Failed, None),
        );
        models.insert("nogt".into(), model(ModelStatus::NoGroundTruth, None));
        TaskScore {
            db: "t".into(),
            warehouse: WarehouseState::Unavailable {
                reason: "locked".into(),
            },
            srdel: Stage1Score {
                passed: false,
                tables: tables
                    .into_iter()
                    .map(|(n, s)| (n.to_string(), s))
                    .collect(),
            },
            models,
        }
    }

    #[test]
    fn every_variant_round_trips_through_the_record() {
        let score = every_variant();
        let record = ScoreRecord::from_task_score(&score).unwrap();
        assert_eq!(record.to_task_score(), score);
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(json, serde_json::to_value(&score).unwrap());
    }

    #[test]
    fn a_digest_without_diagnostics_still_reads() {
        let json = r#"{"db":"t","srdel":{"passed":true},"models":{"m":{"status":"matched","matched_ungated":true,"run_date_dependent":false,"unkeyed":false}}}"#;
        let record: ScoreRecord = serde_json::from_str(json).unwrap();
        let score = record.to_task_score();
        assert!(score.srdel.passed && score.srdel.tables.is_empty());
        assert_eq!(score.matched_models(), 1);
        assert_eq!(score.warehouse, WarehouseState::Read);
    }
}
