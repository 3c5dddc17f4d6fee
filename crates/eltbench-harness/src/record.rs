//! What `result.json` and `results.jsonl` hold for one finished trial.
//!
//! `result.json` carries the full [`TaskScore`] (every diagnostic);
//! `results.jsonl` and everything the harness reads back use a
//! [`ScoreDigest`]: the same JSON shape restricted to what the summary
//! needs, so old result files stay readable as the score grows fields.

use std::collections::BTreeMap;

use eltbench_score::{ModelScore, ModelStatus, TaskScore, WarehouseState};
use serde::{Deserialize, Serialize};

use crate::{AgentStatus, TrialId};

/// The status name of a trial that failed in the harness.
pub const HARNESS_FAILURE: &str = "harness_failure";

/// One finished trial. `S` is [`TaskScore`] when written, [`ScoreDigest`]
/// when read back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialRecord<S> {
    /// `<db>__<index>`.
    pub trial: String,
    /// The task.
    pub db: String,
    /// The index in `0..k`.
    pub index: u32,
    /// The agent status name, or `harness_failure`.
    pub status: String,
    /// How the agent ended (`None` for a harness failure).
    pub agent: Option<AgentStatus>,
    /// Harness attempts made (2 when the first failed in the harness).
    pub attempts: u32,
    /// The error of each failed harness attempt.
    pub harness_errors: Vec<String>,
    /// Agent steps.
    pub steps: u64,
    /// LLM tokens.
    pub tokens: u64,
    /// LLM cost in USD.
    pub cost_usd: f64,
    /// Wall-clock seconds from the first attempt's start to the end.
    pub duration_s: f64,
    /// RFC 3339.
    pub started_at: String,
    /// RFC 3339.
    pub finished_at: String,
    /// The score, `None` for a harness failure or an unscorable warehouse.
    pub score: Option<S>,
}

impl<S> TrialRecord<S> {
    /// The trial id.
    pub fn id(&self) -> TrialId {
        TrialId::new(self.db.clone(), self.index)
    }

    /// Whether the trial failed in the harness (not the agent's failure).
    pub fn is_harness_failure(&self) -> bool {
        self.agent.is_none()
    }

    /// The same record with the score mapped.
    pub fn map_score<T>(&self, f: impl FnOnce(&S) -> T) -> TrialRecord<T> {
        TrialRecord {
            trial: self.trial.clone(),
            db: self.db.clone(),
            index: self.index,
            status: self.status.clone(),
            agent: self.agent.clone(),
            attempts: self.attempts,
            harness_errors: self.harness_errors.clone(),
            steps: self.steps,
            tokens: self.tokens,
            cost_usd: self.cost_usd,
            duration_s: self.duration_s,
            started_at: self.started_at.clone(),
            finished_at: self.finished_at.clone(),
            score: self.score.as_ref().map(f),
        }
    }
}

/// The part of a [`TaskScore`] the summary needs, in the same JSON shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreDigest {
    /// The task.
    pub db: String,
    /// Stage 1.
    pub srdel: Stage1Digest,
    /// Stage 2, per model.
    pub models: BTreeMap<String, ModelDigest>,
}

/// Stage 1 of a [`ScoreDigest`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stage1Digest {
    /// Every source table landed with the exact row count.
    pub passed: bool,
}

/// One model of a [`ScoreDigest`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelDigest {
    /// How it counts (as [`ModelStatus`]).
    pub status: DigestStatus,
    /// Matches ignoring the stage-1 gate.
    pub matched_ungated: bool,
    /// Its ground truth depends on the run date.
    pub run_date_dependent: bool,
    /// Scored without eval keys.
    pub unkeyed: bool,
}

/// [`ModelStatus`], readable back from JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DigestStatus {
    /// [`ModelStatus::Matched`].
    Matched,
    /// [`ModelStatus::Unmatched`].
    Unmatched,
    /// [`ModelStatus::NotScoredStage1Failed`].
    NotScoredStage1Failed,
    /// [`ModelStatus::NoGroundTruth`].
    NoGroundTruth,
}

impl From<ModelStatus> for DigestStatus {
    fn from(s: ModelStatus) -> Self {
        match s {
            ModelStatus::Matched => Self::Matched,
            ModelStatus::Unmatched => Self::Unmatched,
            ModelStatus::NotScoredStage1Failed => Self::NotScoredStage1Failed,
            ModelStatus::NoGroundTruth => Self::NoGroundTruth,
        }
    }
}

impl From<DigestStatus> for ModelStatus {
    fn from(s: DigestStatus) -> Self {
        match s {
            DigestStatus::Matched => Self::Matched,
            DigestStatus::Unmatched => Self::Unmatched,
            DigestStatus::NotScoredStage1Failed => Self::NotScoredStage1Failed,
            DigestStatus::NoGroundTruth => Self::NoGroundTruth,
        }
    }
}

impl From<&TaskScore> for ScoreDigest {
    fn from(score: &TaskScore) -> Self {
        let models = score.models.iter().map(|(name, m)| {
            let digest = ModelDigest {
                status: m.status.into(),
                matched_ungated: m.matched_ungated,
                run_date_dependent: m.run_date_dependent,
                unkeyed: m.unkeyed,
            };
            (name.clone(), digest)
        });
        Self {
            db: score.db.clone(),
            srdel: Stage1Digest {
                passed: score.srdel.passed,
            },
            models: models.collect(),
        }
    }
}

impl ScoreDigest {
    /// Models that count as matched.
    pub fn matched_models(&self) -> usize {
        self.count(|s| s == DigestStatus::Matched)
    }

    /// Models with ground truth.
    pub fn scored_models(&self) -> usize {
        self.count(|s| s != DigestStatus::NoGroundTruth)
    }

    fn count(&self, keep: impl Fn(DigestStatus) -> bool) -> usize {
        self.models.values().filter(|m| keep(m.status)).count()
    }

    /// A [`TaskScore`] with the digest's verdicts (no diagnostics), for
    /// [`eltbench_score::trials::aggregate`].
    pub fn to_task_score(&self) -> TaskScore {
        let models = self.models.iter().map(|(name, m)| {
            let score = ModelScore {
                status: m.status.into(),
                matched_ungated: m.matched_ungated,
                run_date_dependent: m.run_date_dependent,
                unkeyed: m.unkeyed,
                relation: None,
                error: None,
                comparison: None,
            };
            (name.clone(), score)
        });
        TaskScore {
            db: self.db.clone(),
            warehouse: WarehouseState::Read,
            srdel: eltbench_score::Stage1Score {
                passed: self.srdel.passed,
                tables: BTreeMap::new(),
            },
            models: models.collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eltbench_score::Stage1Score;

    fn score() -> TaskScore {
        let model = ModelScore {
            status: ModelStatus::Matched,
            matched_ungated: true,
            run_date_dependent: false,
            unkeyed: true,
            relation: Some("main.m".into()),
            error: None,
            comparison: None,
        };
        TaskScore {
            db: "a".into(),
            warehouse: WarehouseState::Unavailable { reason: "x".into() },
            srdel: Stage1Score {
                passed: true,
                tables: BTreeMap::new(),
            },
            models: BTreeMap::from([("m".to_string(), model)]),
        }
    }

    #[test]
    fn digest_reads_the_full_score_json() {
        let json = serde_json::to_string(&score()).unwrap();
        let digest: ScoreDigest = serde_json::from_str(&json).unwrap();
        assert_eq!(digest, ScoreDigest::from(&score()));
        assert_eq!((digest.matched_models(), digest.scored_models()), (1, 1));
        let back = digest.to_task_score();
        assert_eq!(back.models["m"].status, ModelStatus::Matched);
        assert!(back.srdel.passed);
    }
}
