//! Job-level aggregation over repeated trials: per task (SRDEL) and per
//! model (SRDT) the number of trials `n` and successes `c`, the mean rates,
//! and pass@k / pass^k averaged over tasks or models.
//!
//! Run-date-dependent models and models without ground truth stay out of the
//! SRDT tallies, as in [`crate::summarize`]. This module never scores a
//! warehouse; it counts [`TaskScore`]s.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::passk::{pass_at_k, pass_hat_k};
use crate::report::{ModelStatus, Rate, TaskScore};

/// Trials and successes of one task or model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Trials `n`.
    pub trials: u64,
    /// Successes `c`.
    pub successes: u64,
}

impl Tally {
    fn add(&mut self, success: bool) {
        self.trials += 1;
        self.successes += u64::from(success);
    }
}

/// pass@k and pass^k for one `k`, each the mean over the units (tasks or
/// models) with at least `k` trials.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PassAtK {
    /// `k`.
    pub k: u64,
    /// SRDEL pass@k over tasks.
    pub srdel_pass_at_k: Option<f64>,
    /// SRDEL pass^k over tasks.
    pub srdel_pass_hat_k: Option<f64>,
    /// SRDT pass@k over models.
    pub srdt_pass_at_k: Option<f64>,
    /// SRDT pass^k over models.
    pub srdt_pass_hat_k: Option<f64>,
}

/// The aggregate over every trial of a job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobScore {
    /// SRDEL over all trials (task-trials passed / task-trials).
    pub srdel: Rate,
    /// SRDT over all trials (model-trials matched / model-trials).
    pub srdt: Rate,
    /// Per task.
    pub tasks: BTreeMap<String, Tally>,
    /// Per model, as `<db>.<model>` (date-independent with ground truth).
    pub models: BTreeMap<String, Tally>,
    /// pass@k and pass^k for each requested `k`.
    pub pass_k: Vec<PassAtK>,
}

/// Aggregates trial results (any number per task, in any order).
pub fn aggregate(trials: &[TaskScore], ks: &[u64]) -> JobScore {
    let mut tasks: BTreeMap<String, Tally> = BTreeMap::new();
    let mut models: BTreeMap<String, Tally> = BTreeMap::new();
    for trial in trials {
        tasks
            .entry(trial.db.clone())
            .or_default()
            .add(trial.srdel.passed);
        let counted = trial
            .models
            .iter()
            .filter(|(_, m)| m.status != ModelStatus::NoGroundTruth && !m.run_date_dependent);
        for (name, model) in counted {
            let key = format!("{}.{name}", trial.db);
            models
                .entry(key)
                .or_default()
                .add(model.status == ModelStatus::Matched);
        }
    }
    let pass_k = ks
        .iter()
        .map(|&k| PassAtK {
            k,
            srdel_pass_at_k: mean(tasks.values(), k, pass_at_k),
            srdel_pass_hat_k: mean(tasks.values(), k, pass_hat_k),
            srdt_pass_at_k: mean(models.values(), k, pass_at_k),
            srdt_pass_hat_k: mean(models.values(), k, pass_hat_k),
        })
        .collect();
    JobScore {
        srdel: total(tasks.values()),
        srdt: total(models.values()),
        tasks,
        models,
        pass_k,
    }
}

fn total<'a>(tallies: impl Iterator<Item = &'a Tally>) -> Rate {
    let (passed, all) = tallies.fold((0, 0), |(p, a), t| (p + t.successes, a + t.trials));
    Rate::new(
        usize::try_from(passed).unwrap_or(usize::MAX),
        usize::try_from(all).unwrap_or(usize::MAX),
    )
}

#[allow(clippy::cast_precision_loss)]
fn mean<'a>(
    tallies: impl Iterator<Item = &'a Tally>,
    k: u64,
    estimator: fn(u64, u64, u64) -> Option<f64>,
) -> Option<f64> {
    let values: Vec<f64> = tallies
        .filter_map(|t| estimator(t.trials, t.successes, k))
        .collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{ModelScore, WarehouseState};
    use crate::stage1::Stage1Score;

    fn trial(db: &str, passed: bool, matched: &[bool]) -> TaskScore {
        let models = matched
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let score = ModelScore {
                    status: if m {
                        ModelStatus::Matched
                    } else {
                        ModelStatus::Unmatched
                    },
                    matched_ungated: m,
                    run_date_dependent: false,
                    unkeyed: false,
                    relation: None,
                    error: None,
                    comparison: None,
                };
                (format!("m{i}"), score)
            })
            .collect();
        TaskScore {
            db: db.into(),
            warehouse: WarehouseState::Read,
            srdel: Stage1Score {
                passed,
                tables: BTreeMap::new(),
            },
            models,
        }
    }

    #[test]
    fn tallies_and_pass_k_over_trials() {
        // Task a: 5 trials, 2 pass stage 1. Task b: 5 trials, all pass.
        let mut trials = Vec::new();
        for i in 0..5 {
            trials.push(trial("a", i < 2, &[i < 2, false]));
            trials.push(trial("b", true, &[true, i == 0]));
        }
        let job = aggregate(&trials, &[1, 2, 5]);
        assert_eq!(
            job.tasks["a"],
            Tally {
                trials: 5,
                successes: 2
            }
        );
        assert_eq!(job.srdel.passed, 7);
        assert_eq!(job.srdel.total, 10);
        assert_eq!(
            job.models["b.m1"],
            Tally {
                trials: 5,
                successes: 1
            }
        );
        assert_eq!(job.srdt.passed, 2 + 5 + 1);
        let k1 = &job.pass_k[0];
        // SRDEL pass@1: mean(2/5, 1) = 0.7; SRDT pass@1: mean(0.4, 0, 1, 0.2) = 0.4.
        assert!((k1.srdel_pass_at_k.unwrap() - 0.7).abs() < 1e-12);
        assert!((k1.srdt_pass_at_k.unwrap() - 0.4).abs() < 1e-12);
        let k2 = &job.pass_k[1];
        // SRDEL pass^2: mean(C(2,2)/C(5,2) = 0.1, 1) = 0.55.
        assert!((k2.srdel_pass_hat_k.unwrap() - 0.55).abs() < 1e-12);
        let k5 = &job.pass_k[2];
        // SRDT pass@5 over models: a.m0 1, a.m1 0, b.m0 1, b.m1 1 → 0.75.
        assert!((k5.srdt_pass_at_k.unwrap() - 0.75).abs() < 1e-12);
        assert_eq!(aggregate(&trials, &[6]).pass_k[0].srdel_pass_at_k, None);
    }
}
