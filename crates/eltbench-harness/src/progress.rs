//! Where a running job reports: a [`Progress`] sink. On a terminal the
//! live bar ([`crate::bar::Bar`]); otherwise one plain line per finished
//! trial ([`Lines`]), e.g.
//! `[3/10] amplitude#1 finished: SRDEL pass, SRDT 2/3 (41 s)`.
//!
//! Sinks only display: they never decide anything about the job.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};

use crate::resume::Records;
use eltbench_score::TaskScore;

use crate::{JobStatus, JobSummary, TrialId, TrialRecord, trial_id};

/// Receives the events of a job. Every method defaults to doing nothing.
pub trait Progress: Send + Sync {
    /// The job starts: `total` trials, of which `resumed` already finished.
    fn job_started(&self, total: usize, resumed: &Records) {
        let _ = (total, resumed);
    }

    /// A trial starts running.
    fn trial_started(&self, id: &TrialId) {
        let _ = id;
    }

    /// A trial finished and was recorded; `done` of `total` now are.
    fn trial_finished(&self, done: usize, total: usize, record: &TrialRecord) {
        let _ = (done, total, record);
    }

    /// A running trial was stopped by an interrupt (not recorded).
    fn trial_interrupted(&self, id: &TrialId) {
        let _ = id;
    }

    /// The job stopped.
    fn job_finished(&self, summary: &JobSummary) {
        let _ = summary;
    }
}

/// Reports nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Progress for Silent {}

/// The bar on a terminal, plain lines otherwise, on stderr.
pub fn for_stderr() -> Arc<dyn Progress> {
    if std::io::stderr().is_terminal() {
        Arc::new(crate::bar::Bar::new())
    } else {
        Arc::new(Lines::new(std::io::stderr()))
    }
}

/// One plain line per event, to any writer.
#[derive(Debug)]
pub struct Lines<W> {
    out: Mutex<W>,
}

impl<W: Write + Send> Lines<W> {
    /// Lines to `out`.
    pub fn new(out: W) -> Self {
        Self {
            out: Mutex::new(out),
        }
    }

    fn write(&self, line: &str) {
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{line}");
        }
    }
}

impl<W: Write + Send> Progress for Lines<W> {
    fn job_started(&self, total: usize, resumed: &Records) {
        self.write(&format!(
            "job: {total} trials, {} already finished",
            resumed.len()
        ));
    }

    fn trial_finished(&self, done: usize, total: usize, record: &TrialRecord) {
        self.write(&trial_line(done, total, record));
    }

    fn job_finished(&self, summary: &JobSummary) {
        self.write(&job_line(summary));
    }
}

/// `[3/10] amplitude#1 finished: SRDEL pass, SRDT 2/3 (41 s)`.
pub fn trial_line(done: usize, total: usize, record: &TrialRecord) -> String {
    let id = trial_id(record);
    let secs = record.duration_s;
    let verdict = match (&record.agent, &record.score) {
        (None, _) => {
            let last = record.harness_errors.last().map_or("", String::as_str);
            format!(
                "harness failure after {} attempts: {last}",
                record.harness_attempts
            )
        }
        (Some(agent), score) => format!("{}: {}", agent.label(), score_label(score.as_ref())),
    };
    format!("[{done}/{total}] {id} {verdict} ({secs:.0} s)")
}

fn score_label(score: Option<&TaskScore>) -> String {
    match score {
        None => "not scored".into(),
        Some(s) => format!(
            "SRDEL {}, SRDT {}/{}",
            if s.srdel.passed { "pass" } else { "fail" },
            s.matched_models(),
            s.scored_models()
        ),
    }
}

/// The closing line of a job.
pub fn job_line(summary: &JobSummary) -> String {
    let t = &summary.trials;
    let state = match summary.status {
        JobStatus::Completed => "completed",
        JobStatus::Interrupted => "interrupted",
        JobStatus::Running => "stopped",
    };
    format!(
        "job {state}: {}/{} trials recorded, SRDEL {}, SRDT {}, {} harness failures",
        t.recorded,
        t.planned,
        summary.score.srdel.percent(),
        summary.score.srdt.percent(),
        t.harness_failures
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AgentStatus, TrialRecord};
    use eltbench_score::{ModelScore, ModelStatus, Stage1Score, WarehouseState};
    use std::collections::BTreeMap;

    fn record(agent: Option<AgentStatus>, score: Option<TaskScore>) -> TrialRecord {
        TrialRecord {
            trial_id: "amplitude__1".into(),
            db: "amplitude".into(),
            index: 1,
            agent_status: String::new(),
            agent,
            harness_attempts: 2,
            harness_errors: vec!["first".into(), "environment failed to start: pg".into()],
            steps: 0,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
            duration_s: 41.4,
            started_at: String::new(),
            finished_at: String::new(),
            sandboxed: None,
            sandbox_mode: None,
            score,
        }
    }

    fn digest() -> TaskScore {
        let model = |status| ModelScore {
            status,
            matched_ungated: false,
            run_date_dependent: false,
            unkeyed: false,
            relation: None,
            error: None,
            comparison: None,
        };
        let models = [
            ModelStatus::Matched,
            ModelStatus::Matched,
            ModelStatus::Unmatched,
            ModelStatus::NoGroundTruth,
        ];
        TaskScore {
            db: "amplitude".into(),
            warehouse: WarehouseState::Read,
            srdel: Stage1Score {
                passed: true,
                tables: BTreeMap::new(),
            },
            models: (0..4)
                .map(|i| (format!("m{i}"), model(models[i])))
                .collect::<BTreeMap<_, _>>(),
        }
    }

    #[test]
    fn lines_say_status_score_and_time() {
        let ok = record(Some(AgentStatus::Finished), Some(digest()));
        assert_eq!(
            trial_line(3, 10, &ok),
            "[3/10] amplitude#1 finished: SRDEL pass, SRDT 2/3 (41 s)"
        );
        let crashed = record(Some(AgentStatus::Crashed { exit: Some(137) }), None);
        assert_eq!(
            trial_line(4, 10, &crashed),
            "[4/10] amplitude#1 crashed (exit 137): not scored (41 s)"
        );
        let failed = record(None, None);
        assert_eq!(
            trial_line(5, 10, &failed),
            "[5/10] amplitude#1 harness failure after 2 attempts: \
             environment failed to start: pg (41 s)"
        );
    }

    #[test]
    fn long_agent_errors_are_shortened() {
        let long = "x".repeat(200);
        let r = record(Some(AgentStatus::Error { message: long }), None);
        assert!(trial_line(1, 1, &r).contains(&format!("error ({}...)", "x".repeat(80))));
    }
}
