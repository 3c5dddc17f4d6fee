//! The paper's error taxonomy over a job's scored trials.
//!
//! Stage 1, per source kind: of the tables each kind serves, how many
//! landed with the exact row count, were missing, had a wrong count, or
//! were views. Stage 2, per failed date-independent model: an agent
//! runtime error (the model is absent and the agent did not finish), a dbt
//! compilation error (absent or unreadable although the agent finished), or
//! a SQL semantic error (wrong schema, missing columns, wrong size, wrong
//! logic/values). Models of tasks that failed stage 1 are counted apart.
//!
//! This module counts what the scorer found; it never re-scores.

use std::collections::BTreeMap;

use eltbench_score::{ModelError, ModelScore, ModelStatus, Rate, TableStatus, TaskScore};
use eltbench_task::SourceKind;
use serde::Serialize;

use crate::suite::SuiteInfo;

/// The source kind of a table, `Unknown` when the suite does not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KindKey {
    /// A kind of `config.yaml`.
    Known(SourceKind),
    /// Not in the suite info.
    Unknown,
}

impl KindKey {
    /// The display name (`config.yaml` key, or `unknown`).
    pub fn label(self) -> &'static str {
        match self {
            Self::Known(kind) => kind.config_key(),
            Self::Unknown => "unknown",
        }
    }
}

/// Stage-1 outcomes of the tables one source kind serves, over all trials.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct KindTables {
    /// The kind.
    pub kind: KindKey,
    /// Table-trials checked.
    pub tables: usize,
    /// Landed with the exact row count.
    pub landed: usize,
    /// Missing.
    pub missing: usize,
    /// Present with another row count.
    pub wrong_count: usize,
    /// Present as a view.
    pub not_base_table: usize,
}

impl KindTables {
    fn new(kind: KindKey) -> Self {
        Self {
            kind,
            tables: 0,
            landed: 0,
            missing: 0,
            wrong_count: 0,
            not_base_table: 0,
        }
    }

    /// Share of tables landed correctly.
    pub fn rate(&self) -> Rate {
        Rate::new(self.landed, self.tables)
    }

    fn add(&mut self, status: &TableStatus) {
        self.tables += 1;
        match status {
            TableStatus::Ok { .. } => self.landed += 1,
            TableStatus::Missing => self.missing += 1,
            TableStatus::WrongCount { .. } => self.wrong_count += 1,
            TableStatus::NotBaseTable => self.not_base_table += 1,
        }
    }
}

/// Stage-1 outcomes per kind, in kind order (`unknown` last).
pub fn stage1_by_kind(scores: &[&TaskScore], suite: &SuiteInfo) -> Vec<KindTables> {
    let mut kinds: BTreeMap<KindKey, KindTables> = BTreeMap::new();
    for score in scores {
        for (table, status) in &score.srdel.tables {
            let kind = suite
                .kind(&score.db, table)
                .map_or(KindKey::Unknown, KindKey::Known);
            kinds
                .entry(kind)
                .or_insert_with(|| KindTables::new(kind))
                .add(status);
        }
    }
    kinds.into_values().collect()
}

/// Stage-2 failure counts (model-trials).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Stage2Errors {
    /// Model absent and the agent did not finish (limit, crash, LLM error).
    pub agent_runtime_error: usize,
    /// Model absent or unreadable although the agent finished.
    pub dbt_compilation_error: usize,
    /// SQL semantic: built in another schema.
    pub wrong_schema: usize,
    /// SQL semantic: ground-truth columns missing.
    pub missing_columns: usize,
    /// SQL semantic: wrong row count.
    pub wrong_size: usize,
    /// SQL semantic: wrong logic or values.
    pub wrong_values: usize,
    /// Unmatched without a recorded category.
    pub unclassified: usize,
    /// Not scored because the task failed stage 1 (not a stage-2 error).
    pub blocked_by_stage1: usize,
}

impl Stage2Errors {
    /// `(category, subcategory, count)` rows in the paper's order.
    pub fn rows(&self) -> [(&'static str, &'static str, usize); 8] {
        [
            ("agent runtime error", "-", self.agent_runtime_error),
            ("dbt compilation error", "-", self.dbt_compilation_error),
            ("SQL semantic error", "wrong schema", self.wrong_schema),
            (
                "SQL semantic error",
                "missing columns",
                self.missing_columns,
            ),
            ("SQL semantic error", "wrong size", self.wrong_size),
            (
                "SQL semantic error",
                "wrong logic/values",
                self.wrong_values,
            ),
            ("unclassified", "-", self.unclassified),
            ("blocked by stage 1", "-", self.blocked_by_stage1),
        ]
    }

    /// Counts the failed date-independent models of one trial.
    pub fn add_trial(&mut self, score: &TaskScore, agent_finished: bool) {
        let dated = score.models.values().filter(|m| !m.run_date_dependent);
        for model in dated {
            self.add_model(model, agent_finished);
        }
    }

    fn add_model(&mut self, model: &ModelScore, agent_finished: bool) {
        match model.status {
            ModelStatus::Matched | ModelStatus::NoGroundTruth => {}
            ModelStatus::NotScoredStage1Failed => self.blocked_by_stage1 += 1,
            ModelStatus::Unmatched => *self.slot(model.error.as_ref(), agent_finished) += 1,
        }
    }

    fn slot(&mut self, error: Option<&ModelError>, agent_finished: bool) -> &mut usize {
        match error {
            Some(ModelError::NotBuilt | ModelError::QueryFailed { .. }) if !agent_finished => {
                &mut self.agent_runtime_error
            }
            Some(ModelError::NotBuilt | ModelError::QueryFailed { .. }) => {
                &mut self.dbt_compilation_error
            }
            Some(ModelError::WrongSchema { .. }) => &mut self.wrong_schema,
            Some(ModelError::MissingColumns { .. }) => &mut self.missing_columns,
            Some(ModelError::WrongSize { .. }) => &mut self.wrong_size,
            Some(ModelError::WrongValues { .. }) => &mut self.wrong_values,
            None => &mut self.unclassified,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eltbench_score::{Stage1Score, WarehouseState};

    fn model(status: ModelStatus, error: Option<ModelError>) -> ModelScore {
        ModelScore {
            status,
            matched_ungated: false,
            run_date_dependent: false,
            unkeyed: false,
            relation: None,
            error,
            comparison: None,
        }
    }

    fn score(tables: &[(&str, TableStatus)], models: Vec<ModelScore>) -> TaskScore {
        TaskScore {
            db: "t".into(),
            warehouse: WarehouseState::Read,
            srdel: Stage1Score {
                passed: false,
                tables: tables
                    .iter()
                    .map(|(n, s)| ((*n).to_string(), s.clone()))
                    .collect(),
            },
            models: models
                .into_iter()
                .enumerate()
                .map(|(i, m)| (format!("m{i}"), m))
                .collect(),
        }
    }

    #[test]
    fn stage1_groups_tables_by_kind_with_unknown_last() {
        let mut suite = SuiteInfo::default();
        suite.insert("t", "a", SourceKind::AwsS3);
        suite.insert("t", "b", SourceKind::Postgres);
        let s = score(
            &[
                ("A", TableStatus::Ok { rows: 1 }),
                ("b", TableStatus::Missing),
                (
                    "c",
                    TableStatus::WrongCount {
                        expected: 1,
                        actual: 2,
                    },
                ),
            ],
            vec![],
        );
        let kinds = stage1_by_kind(&[&s, &s], &suite);
        let labels: Vec<_> = kinds.iter().map(|k| k.kind.label()).collect();
        assert_eq!(labels, ["postgres", "aws_s3", "unknown"]);
        assert_eq!((kinds[0].tables, kinds[0].missing), (2, 2));
        assert_eq!(kinds[1].rate().passed, 2);
        assert_eq!(kinds[2].wrong_count, 2);
    }

    #[test]
    fn stage2_splits_absent_models_by_agent_outcome() {
        let mut dated = model(ModelStatus::Unmatched, Some(ModelError::NotBuilt));
        dated.run_date_dependent = true;
        let models = vec![
            model(ModelStatus::Unmatched, Some(ModelError::NotBuilt)),
            model(
                ModelStatus::Unmatched,
                Some(ModelError::WrongSize {
                    expected: 1,
                    actual: 0,
                }),
            ),
            model(ModelStatus::NotScoredStage1Failed, None),
            model(ModelStatus::Matched, None),
            dated,
        ];
        let s = score(&[], models);
        let mut errors = Stage2Errors::default();
        errors.add_trial(&s, false);
        errors.add_trial(&s, true);
        assert_eq!(errors.agent_runtime_error, 1);
        assert_eq!(errors.dbt_compilation_error, 1);
        assert_eq!(errors.wrong_size, 2);
        assert_eq!(errors.blocked_by_stage1, 2);
        assert_eq!(errors.rows().iter().map(|r| r.2).sum::<usize>(), 6);
    }
}
