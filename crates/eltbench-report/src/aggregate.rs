//! [`JobReport`]: everything the renderers show about one job, computed
//! once from its trial records.
//!
//! Rates count scored trials without a harness failure; those failures are
//! listed apart, unscored trials too. SRDEL, SRDT (with the run-date
//! dependent bucket and the ungated diagnostic) and pass@k / pass^k come
//! from eltbench-score's own counting. Cost, steps and duration cover every
//! trial, since every trial spent them. Everything is sorted; nothing here
//! reads a clock or a file.

use std::collections::BTreeMap;

use eltbench_score::trials::{PassAtK, aggregate};
use eltbench_score::{Compat, Rate, TaskScore, summarize};
use serde::Serialize;

use crate::job::JobInfo;
use crate::record::{AgentStatus, TrialRecord};
use crate::stats::Stats;
use crate::suite::SuiteInfo;
use crate::taxonomy::{KindTables, Stage2Errors, stage1_by_kind};

/// The report of one job.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobReport {
    /// The job's title.
    pub title: String,
    /// `job.json` fields, in file order.
    pub job: Vec<(String, String)>,
    /// Trial counts.
    pub trials: TrialCounts,
    /// SRDEL over counted trials (task-trials whose every table landed).
    pub srdel: Rate,
    /// SRDT over date-independent model-trials (stage-1 gate applied).
    pub srdt: Rate,
    /// SRDT of models whose ground truth depends on the run date.
    pub srdt_run_date_dependent: Rate,
    /// SRDT ignoring the stage-1 gate (diagnostic).
    pub srdt_ungated: Rate,
    /// pass@k and pass^k for k = 1..=most trials of one task.
    pub pass_k: Vec<PassAtK>,
    /// Stage-1 tables per source kind.
    pub by_kind: Vec<KindTables>,
    /// Per task, sorted by database name.
    pub tasks: Vec<TaskRow>,
    /// Stage-2 failures.
    pub stage2_errors: Stage2Errors,
    /// Trials whose warehouse could not be read.
    pub warehouses_unavailable: usize,
    /// Cost in US dollars per trial.
    pub cost_usd: Stats,
    /// Steps per trial.
    pub steps: Stats,
    /// Duration in seconds per trial.
    pub duration_s: Stats,
    /// Tokens over all trials.
    pub tokens: Tokens,
    /// Trials per agent status.
    pub agent_status: BTreeMap<String, usize>,
    /// Trials the harness failed (left out of the rates).
    pub harness_failures: Vec<HarnessFailure>,
    /// Every trial, by task then index then id.
    pub rows: Vec<TrialRow>,
}

/// How many trials of each sort.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TrialCounts {
    /// All records.
    pub total: usize,
    /// Scored without a harness failure: the rates' denominator.
    pub counted: usize,
    /// With a harness failure.
    pub harness_failed: usize,
    /// Without a score and without a harness failure.
    pub unscored: usize,
    /// Run in a real sandbox.
    pub sandboxed: usize,
    /// Run outside a sandbox (sandbox fallback or none asked for).
    pub unsandboxed: usize,
    /// Tasks.
    pub tasks: usize,
}

/// One task's rates over its counted trials.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskRow {
    /// The task.
    pub db: String,
    /// Counted trials.
    pub trials: usize,
    /// SRDEL.
    pub srdel: Rate,
    /// SRDT (date-independent, gated).
    pub srdt: Rate,
    /// SRDT of run-date-dependent models.
    pub srdt_run_date_dependent: Rate,
}

/// Token totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tokens {
    /// Input tokens.
    pub input: u64,
    /// Output tokens.
    pub output: u64,
}

/// A trial the harness failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HarnessFailure {
    /// The trial.
    pub trial_id: String,
    /// Its task.
    pub db: String,
    /// Its index in `0..k`.
    pub index: u32,
    /// Harness attempts made.
    pub attempts: u32,
    /// What failed.
    pub message: String,
}

/// One trial's line in the per-trial table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrialRow {
    /// The trial.
    pub trial_id: String,
    /// Its task.
    pub db: String,
    /// Its index in `0..k`.
    pub index: u32,
    /// How the agent ended (with detail: exit code, message).
    pub agent_status: String,
    /// Stage 1 passed (`None`: not counted).
    pub srdel: Option<bool>,
    /// Date-independent models matched / scored (`None`: not counted).
    pub srdt: Option<Rate>,
    /// Steps.
    pub steps: u64,
    /// Cost in US dollars.
    pub cost_usd: f64,
    /// Duration in seconds.
    pub duration_s: f64,
    /// Run in a real sandbox (`None`: not reported).
    pub sandboxed: Option<bool>,
    /// `bubblewrap` or `none: <reason>` (`None`: not reported).
    pub sandbox_mode: Option<String>,
    /// Its page relative to the job directory (set by [`JobReport::link_pages`]).
    pub page: Option<String>,
}

impl JobReport {
    /// Aggregates `records` (any order); `suite` maps tables to source kinds.
    pub fn from_records(records: &[TrialRecord], suite: &SuiteInfo) -> Self {
        let mut sorted: Vec<&TrialRecord> = records.iter().collect();
        sorted.sort_by(|a, b| (&a.db, a.index, &a.trial_id).cmp(&(&b.db, b.index, &b.trial_id)));
        let counted: Vec<(&TrialRecord, TaskScore)> = sorted
            .iter()
            .filter(|r| r.counted())
            .filter_map(|r| r.score.as_ref().map(|s| (*r, s.clone())))
            .collect();
        let scores: Vec<TaskScore> = counted.iter().map(|(_, s)| s.clone()).collect();
        let summary = summarize(&scores, Compat::Fixed);
        let rows: Vec<TrialRow> = sorted.iter().map(|r| trial_row(r)).collect();
        Self {
            title: String::from("eltbench job"),
            job: Vec::new(),
            trials: trial_counts(&sorted),
            srdel: summary.srdel,
            srdt: summary.srdt,
            srdt_run_date_dependent: summary.srdt_run_date_dependent,
            srdt_ungated: summary.srdt_ungated,
            pass_k: pass_k(&scores),
            by_kind: stage1_by_kind(&scores.iter().collect::<Vec<_>>(), suite),
            tasks: task_rows(&scores),
            stage2_errors: stage2_errors(&counted),
            warehouses_unavailable: summary.tasks_unavailable.len(),
            cost_usd: Stats::of(sorted.iter().map(|r| r.cost_usd)),
            steps: Stats::of(sorted.iter().map(|r| as_f64(r.steps))),
            duration_s: Stats::of(sorted.iter().map(|r| r.duration_s)),
            tokens: tokens(&sorted),
            agent_status: agent_status(&sorted),
            harness_failures: harness_failures(&sorted),
            rows,
        }
    }

    /// Links each trial whose directory `trials/<trial_id>` exists under
    /// `job_dir` to its page `trials/<trial_id>/trajectory.html`.
    #[must_use]
    pub fn link_pages(mut self, job_dir: &std::path::Path) -> Self {
        for row in &mut self.rows {
            let dir = job_dir.join(crate::write::TRIALS_DIR).join(&row.trial_id);
            if dir.is_dir() && !row.trial_id.contains(['/', '\\']) && row.trial_id != ".." {
                row.page = Some(crate::write::trial_page(&row.trial_id));
            }
        }
        self
    }

    /// Sets the title and header from `job.json` (title: its `name`,
    /// `job_id` or `id`, else `fallback`).
    #[must_use]
    pub fn with_job(mut self, job: &JobInfo, fallback: &str) -> Self {
        self.title = job.title().unwrap_or(fallback).to_owned();
        self.job.clone_from(&job.fields);
        self
    }
}

#[allow(clippy::cast_precision_loss)]
fn as_f64(n: u64) -> f64 {
    n as f64
}

fn trial_counts(records: &[&TrialRecord]) -> TrialCounts {
    let count = |f: fn(&TrialRecord) -> bool| records.iter().filter(|r| f(r)).count();
    let mut dbs: Vec<&str> = records.iter().map(|r| r.db.as_str()).collect();
    dbs.dedup();
    TrialCounts {
        total: records.len(),
        counted: count(TrialRecord::counted),
        harness_failed: count(TrialRecord::is_harness_failure),
        unscored: count(|r| !r.is_harness_failure() && r.score.is_none()),
        sandboxed: count(|r| r.sandboxed == Some(true)),
        unsandboxed: count(|r| r.sandboxed == Some(false)),
        tasks: dbs.len(),
    }
}

fn pass_k(scores: &[TaskScore]) -> Vec<PassAtK> {
    let mut per_task: BTreeMap<&str, u64> = BTreeMap::new();
    for score in scores {
        *per_task.entry(score.db.as_str()).or_default() += 1;
    }
    let max = per_task.values().copied().max().unwrap_or(0);
    aggregate(scores, &(1..=max).collect::<Vec<_>>()).pass_k
}

fn task_rows(scores: &[TaskScore]) -> Vec<TaskRow> {
    let mut by_db: BTreeMap<&str, Vec<TaskScore>> = BTreeMap::new();
    for score in scores {
        by_db
            .entry(score.db.as_str())
            .or_default()
            .push(score.clone());
    }
    let row = |(db, group): (&str, Vec<TaskScore>)| {
        let summary = summarize(&group, Compat::Fixed);
        TaskRow {
            db: db.to_owned(),
            trials: group.len(),
            srdel: summary.srdel,
            srdt: summary.srdt,
            srdt_run_date_dependent: summary.srdt_run_date_dependent,
        }
    };
    by_db.into_iter().map(row).collect()
}

fn stage2_errors(counted: &[(&TrialRecord, TaskScore)]) -> Stage2Errors {
    let mut errors = Stage2Errors::default();
    for (record, score) in counted {
        errors.add_trial(score, record.agent_finished());
    }
    errors
}

fn tokens(records: &[&TrialRecord]) -> Tokens {
    records.iter().fold(Tokens::default(), |t, r| Tokens {
        input: t.input.saturating_add(r.input_tokens),
        output: t.output.saturating_add(r.output_tokens),
    })
}

fn agent_status(records: &[&TrialRecord]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for record in records {
        *counts.entry(record.agent_status.clone()).or_default() += 1;
    }
    counts
}

fn harness_failures(records: &[&TrialRecord]) -> Vec<HarnessFailure> {
    let failed = records.iter().filter_map(|r| {
        let message = r.harness_failure()?.to_owned();
        Some(HarnessFailure {
            trial_id: r.trial_id.clone(),
            db: r.db.clone(),
            index: r.index,
            attempts: r.harness_attempts,
            message,
        })
    });
    failed.collect()
}

fn trial_row(record: &TrialRecord) -> TrialRow {
    let score = record.score.as_ref().filter(|_| record.counted());
    let srdt = score
        .as_ref()
        .map(|s| summarize(std::slice::from_ref(*s), Compat::Fixed).srdt);
    TrialRow {
        trial_id: record.trial_id.clone(),
        db: record.db.clone(),
        index: record.index,
        agent_status: record
            .agent
            .as_ref()
            .map_or_else(|| record.agent_status.clone(), AgentStatus::label),
        srdel: score.as_ref().map(|s| s.srdel.passed),
        srdt,
        steps: record.steps,
        cost_usd: record.cost_usd,
        duration_s: record.duration_s,
        sandboxed: record.sandboxed,
        sandbox_mode: record.sandbox_mode.clone(),
        page: None,
    }
}
