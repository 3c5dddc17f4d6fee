//! The job summary, computed from the recorded trials only: SRDEL and SRDT
//! over trials, pass@k and pass^k per task and per data model
//! (eltbench-score's `trials` and `passk`), mean steps, cost and time, the
//! count of each agent status, and harness failures apart.
//!
//! Harness failures never count for or against the agent: they are left
//! out of every rate. An agent trial without a score counts as failed:
//! SRDEL fail, and each model its task has in other trials not matched.

use std::collections::BTreeMap;

use eltbench_score::passk::{pass_at_k, pass_hat_k};
use eltbench_score::trials::{JobScore, Tally, aggregate};
use eltbench_score::{ModelScore, ModelStatus, Stage1Score, TaskScore, WarehouseState};
use serde::Serialize;

use crate::resume::Records;
use crate::signals::INTERRUPTED_EXIT_CODE;
use crate::{HarnessError, JobDir, JobSpec, JobStatus, jobfile, plan, resume};

/// Everything a job reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobSummary {
    /// Where the job stands.
    pub status: JobStatus,
    /// The agent.
    pub agent: String,
    /// Trial counts.
    pub trials: TrialCounts,
    /// Agent trials per agent status (`finished`, `timeout`, ...).
    pub statuses: BTreeMap<String, u64>,
    /// Trials that failed in the harness (`<db>__<i>`), not counted in any rate.
    pub harness_failures: Vec<String>,
    /// Agent trials recorded without a score (counted as failed).
    pub unscored: Vec<String>,
    /// SRDEL and SRDT over trials, tallies, and pass@k / pass^k means.
    pub score: JobScore,
    /// pass@k and pass^k per task.
    pub tasks: BTreeMap<String, UnitPassK>,
    /// pass@k and pass^k per data model (`<db>.<model>`).
    pub models: BTreeMap<String, UnitPassK>,
    /// Means over agent trials.
    pub means: Means,
    /// Total LLM cost in USD.
    pub total_cost_usd: f64,
}

/// How many trials are where.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TrialCounts {
    /// Tasks × k.
    pub planned: usize,
    /// With `result.json`.
    pub recorded: usize,
    /// Recorded with an agent status.
    pub agent: usize,
    /// Recorded as `harness_failure`.
    pub harness_failures: usize,
    /// Not recorded yet (the job was interrupted).
    pub unfinished: usize,
}

/// One task's or model's successes and estimators for `k = 1..=K`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitPassK {
    /// Trials.
    pub trials: u64,
    /// Successes.
    pub successes: u64,
    /// pass@k by `k` (`None` when fewer than `k` trials).
    pub pass_at_k: BTreeMap<u64, Option<f64>>,
    /// pass^k by `k`.
    pub pass_hat_k: BTreeMap<u64, Option<f64>>,
}

/// Means over agent trials (`None` when there are none).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Means {
    /// Agent steps.
    pub steps: Option<f64>,
    /// LLM tokens.
    pub tokens: Option<f64>,
    /// LLM cost in USD.
    pub cost_usd: Option<f64>,
    /// Wall-clock seconds.
    pub duration_s: Option<f64>,
}

impl JobSummary {
    /// The process exit code for this job: 130 when interrupted, else 0.
    pub fn exit_code(&self) -> u8 {
        match self.status {
            JobStatus::Interrupted => INTERRUPTED_EXIT_CODE,
            _ => 0,
        }
    }
}

/// The summary of the job in `dir`, from its `job.json` and result files.
pub fn summarize_dir(dir: &JobDir) -> Result<JobSummary, HarnessError> {
    let file = jobfile::read(dir)?;
    let records = resume::load(dir, &plan(&file.spec))?;
    Ok(summarize(&file.spec, file.status, &records))
}

/// The summary of `records`, the recorded trials of `spec`.
pub fn summarize(spec: &JobSpec, status: JobStatus, records: &Records) -> JobSummary {
    let agent: Vec<_> = records
        .values()
        .filter(|r| !r.is_harness_failure())
        .collect();
    let ks = spec.ks();
    let score = aggregate(&scores(&agent), &ks);
    let mut statuses = BTreeMap::new();
    for r in &agent {
        *statuses.entry(r.agent_status.clone()).or_insert(0) += 1;
    }
    let harness_failures: Vec<String> = records
        .values()
        .filter(|r| r.is_harness_failure())
        .map(|r| r.trial_id.clone())
        .collect();
    let planned = plan(spec).len();
    JobSummary {
        status,
        agent: spec.agent.clone(),
        trials: TrialCounts {
            planned,
            recorded: records.len(),
            agent: agent.len(),
            harness_failures: harness_failures.len(),
            unfinished: planned.saturating_sub(records.len()),
        },
        statuses,
        harness_failures,
        unscored: agent
            .iter()
            .filter(|r| r.score.is_none())
            .map(|r| r.trial_id.clone())
            .collect(),
        tasks: units(&score.tasks, &ks),
        models: units(&score.models, &ks),
        score,
        means: means(&agent),
        total_cost_usd: agent.iter().map(|r| r.cost_usd).sum(),
    }
}

type Record = crate::TrialRecord;

/// The score of every agent trial, a failing one where none was recorded.
fn scores(agent: &[&Record]) -> Vec<TaskScore> {
    let mut known: BTreeMap<&str, BTreeMap<String, ModelScore>> = BTreeMap::new();
    for score in agent.iter().filter_map(|r| r.score.as_ref()) {
        known
            .entry(&score.db)
            .or_default()
            .extend(score.models.clone());
    }
    agent
        .iter()
        .map(|r| match &r.score {
            Some(score) => score.clone(),
            None => failed(&r.db, known.get(r.db.as_str())),
        })
        .collect()
}

/// A task that failed every stage, with the models it is known to have.
fn failed(db: &str, models: Option<&BTreeMap<String, ModelScore>>) -> TaskScore {
    let fail = |m: &ModelScore| ModelScore {
        status: match m.status {
            ModelStatus::NoGroundTruth => ModelStatus::NoGroundTruth,
            _ => ModelStatus::NotScoredStage1Failed,
        },
        matched_ungated: false,
        run_date_dependent: m.run_date_dependent,
        unkeyed: m.unkeyed,
        relation: None,
        error: None,
        comparison: None,
    };
    TaskScore {
        db: db.to_string(),
        warehouse: WarehouseState::Read,
        srdel: Stage1Score::unavailable(),
        models: models
            .into_iter()
            .flatten()
            .map(|(name, m)| (name.clone(), fail(m)))
            .collect(),
    }
}

fn units(tallies: &BTreeMap<String, Tally>, ks: &[u64]) -> BTreeMap<String, UnitPassK> {
    let unit = |t: &Tally| UnitPassK {
        trials: t.trials,
        successes: t.successes,
        pass_at_k: ks
            .iter()
            .map(|&k| (k, pass_at_k(t.trials, t.successes, k)))
            .collect(),
        pass_hat_k: ks
            .iter()
            .map(|&k| (k, pass_hat_k(t.trials, t.successes, k)))
            .collect(),
    };
    tallies
        .iter()
        .map(|(name, t)| (name.clone(), unit(t)))
        .collect()
}

#[allow(clippy::cast_precision_loss)]
fn means(agent: &[&Record]) -> Means {
    let mean = |f: &dyn Fn(&Record) -> f64| {
        (!agent.is_empty()).then(|| agent.iter().map(|r| f(r)).sum::<f64>() / agent.len() as f64)
    };
    Means {
        steps: mean(&|r| r.steps as f64),
        tokens: mean(&|r| r.tokens() as f64),
        cost_usd: mean(&|r| r.cost_usd),
        duration_s: mean(&|r| r.duration_s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AgentStatus, TrialId, TrialRecord};

    fn model(status: ModelStatus) -> ModelScore {
        ModelScore {
            status,
            matched_ungated: status == ModelStatus::Matched,
            run_date_dependent: false,
            unkeyed: false,
            relation: None,
            error: None,
            comparison: None,
        }
    }

    fn record(index: u32, agent: Option<AgentStatus>, passed: Option<bool>) -> Record {
        let score = passed.map(|passed| TaskScore {
            db: "a".into(),
            warehouse: WarehouseState::Read,
            srdel: Stage1Score {
                passed,
                tables: BTreeMap::new(),
            },
            models: BTreeMap::from([
                (
                    "m".to_string(),
                    model(if passed {
                        ModelStatus::Matched
                    } else {
                        ModelStatus::Unmatched
                    }),
                ),
                ("n".to_string(), model(ModelStatus::NoGroundTruth)),
            ]),
        });
        TrialRecord {
            trial_id: TrialId::new("a", index).dir_name(),
            db: "a".into(),
            index,
            agent_status: agent
                .as_ref()
                .map_or("harness_failure", AgentStatus::name)
                .into(),
            agent,
            harness_attempts: 1,
            harness_errors: Vec::new(),
            steps: u64::from(index),
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 1.0,
            duration_s: 2.0,
            started_at: String::new(),
            finished_at: String::new(),
            sandboxed: None,
            sandbox_mode: None,
            score,
        }
    }

    #[test]
    fn unscored_trials_fail_with_the_models_of_their_task_and_harness_failures_do_not_count() {
        let mut spec = JobSpec::new("/s", "x", vec!["a".into()]);
        spec.k = 4;
        let records: Records = [
            record(0, Some(AgentStatus::Finished), Some(true)),
            record(1, Some(AgentStatus::Crashed { exit: Some(1) }), None),
            record(2, None, None),
        ]
        .into_iter()
        .map(|r| (crate::trial_id(&r), r))
        .collect();
        let s = summarize(&spec, JobStatus::Interrupted, &records);
        assert_eq!((s.score.srdel.passed, s.score.srdel.total), (1, 2));
        // Model `m` is known from trial 0: the crashed trial counts it unmatched.
        assert_eq!((s.score.srdt.passed, s.score.srdt.total), (1, 2));
        assert_eq!(s.unscored, ["a__1"]);
        assert_eq!(s.harness_failures, ["a__2"]);
        assert_eq!(
            s.trials,
            TrialCounts {
                planned: 4,
                recorded: 3,
                agent: 2,
                harness_failures: 1,
                unfinished: 1
            }
        );
        assert_eq!(s.means.steps, Some(0.5));
        assert!((s.total_cost_usd - 2.0).abs() < 1e-12);
        assert_eq!(s.tasks["a"].pass_at_k[&2], Some(1.0));
        assert_eq!(s.tasks["a"].pass_at_k[&3], None);
        assert_eq!(s.exit_code(), 130);
        let json = serde_json::to_string(&s).unwrap();
        assert!(
            json.starts_with("{\"status\":\"interrupted\",\"agent\":\"x\",\"trials\":"),
            "{json}"
        );
    }
}
