//! Per-trial limits and failures: timeouts (cooperative and hanging
//! runners), harness failures retried once and kept apart from agent
//! failures, panics, and agent statuses recorded as reported.

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use eltbench_harness::{
    AgentStatus, HarnessError, TrialContext, TrialOutcome, TrialRunner, run_job,
};
use support::{Hang, canned_outcome, result, silent, spec};

#[tokio::test]
async fn a_hanging_trial_is_cancelled_and_recorded_as_timeout_after_the_grace() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let mut spec = spec(&["alpha"], 1, 1);
    spec.timeout = Duration::from_millis(200);
    spec.grace = Duration::from_millis(200);
    let start = Instant::now();
    let summary = run_job(&spec, Arc::new(Hang), &job, silent())
        .await
        .unwrap();
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(400) && took < Duration::from_secs(3),
        "{took:?}"
    );
    let r = result(&job, "alpha__0");
    assert_eq!(r["agent_status"], "timeout");
    assert_eq!(r["agent"], serde_json::json!({"status": "timeout"}));
    assert_eq!(r["score"], serde_json::Value::Null);
    assert_eq!(summary.statuses["timeout"], 1);
    assert_eq!(summary.trials.harness_failures, 0);
    assert_eq!(summary.unscored, ["alpha__0"]);
    assert_eq!(
        (summary.score.srdel.passed, summary.score.srdel.total),
        (0, 1)
    );
}

/// Stops its agent when cancelled and still scores what the agent left.
struct StopsAndScores;

#[async_trait::async_trait]
impl TrialRunner for StopsAndScores {
    async fn run(&self, trial: &TrialContext) -> Result<TrialOutcome, HarnessError> {
        trial.cancel.cancelled().await;
        assert!(tokio::time::Instant::now() >= trial.deadline);
        Ok(canned_outcome(&trial.id))
    }
}

#[tokio::test]
async fn a_cooperative_runner_past_its_deadline_keeps_its_score_as_a_timeout() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let mut spec = spec(&["alpha"], 1, 1);
    spec.timeout = Duration::from_millis(100);
    spec.grace = Duration::from_secs(30);
    let start = Instant::now();
    let summary = run_job(&spec, Arc::new(StopsAndScores), &job, silent())
        .await
        .unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "waited for the whole grace period"
    );
    let r = result(&job, "alpha__0");
    assert_eq!(r["agent_status"], "timeout");
    assert_eq!(r["score"]["srdel"]["passed"], true);
    assert_eq!(summary.score.srdel.passed, 1);
}

/// Fails in the harness on the attempts listed per task.
struct Flaky {
    fail: BTreeMap<&'static str, Vec<u32>>,
    calls: Mutex<Vec<(String, u32)>>,
}

#[async_trait::async_trait]
impl TrialRunner for Flaky {
    async fn run(&self, trial: &TrialContext) -> Result<TrialOutcome, HarnessError> {
        self.calls
            .lock()
            .unwrap()
            .push((trial.id.db.clone(), trial.attempt));
        // Leftovers of a failed attempt must not reach the retry.
        let marker = trial.dir.path().join("attempt-leftover");
        assert!(!marker.exists(), "trial dir not cleared before retry");
        std::fs::write(&marker, "").unwrap();
        let failing = self
            .fail
            .get(trial.db())
            .is_some_and(|a| a.contains(&trial.attempt));
        if failing {
            return Err(HarnessError::Environment(format!(
                "postgres for {} did not start",
                trial.db()
            )));
        }
        Ok(canned_outcome(&trial.id))
    }
}

#[tokio::test]
async fn harness_failures_are_retried_once_and_kept_apart_from_agent_results() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let runner = Arc::new(Flaky {
        fail: BTreeMap::from([("alpha", vec![1]), ("bravo", vec![1, 2])]),
        calls: Mutex::new(Vec::new()),
    });
    let summary = run_job(
        &spec(&["alpha", "bravo", "charlie"], 1, 1),
        runner.clone(),
        &job,
        silent(),
    )
    .await
    .unwrap();
    let calls = runner.calls.lock().unwrap().clone();
    let count = |db: &str| calls.iter().filter(|(d, _)| d == db).count();
    assert_eq!(
        (count("alpha"), count("bravo"), count("charlie")),
        (2, 2, 1)
    );

    let alpha = result(&job, "alpha__0");
    assert_eq!(alpha["agent_status"], "finished");
    assert_eq!(alpha["harness_attempts"], 2);
    assert_eq!(
        alpha["harness_errors"],
        serde_json::json!(["environment failed to start: postgres for alpha did not start"])
    );
    let bravo = result(&job, "bravo__0");
    assert_eq!(bravo["agent_status"], "harness_failure");
    assert_eq!(bravo["agent"], serde_json::Value::Null);
    assert_eq!(bravo["harness_attempts"], 2);
    assert_eq!(bravo["harness_errors"].as_array().unwrap().len(), 2);

    assert_eq!(summary.harness_failures, ["bravo__0"]);
    assert_eq!(summary.trials.harness_failures, 1);
    assert_eq!(summary.trials.agent, 2);
    assert!(!summary.statuses.contains_key("harness_failure"));
    // Only the two agent trials count; both are index 0 and pass stage 1.
    assert_eq!(
        (summary.score.srdel.passed, summary.score.srdel.total),
        (2, 2)
    );
    assert!(!summary.score.tasks.contains_key("bravo"));
}

struct Panics;

#[async_trait::async_trait]
impl TrialRunner for Panics {
    async fn run(&self, _trial: &TrialContext) -> Result<TrialOutcome, HarnessError> {
        panic!("sync engine bug");
    }
}

#[tokio::test]
async fn a_panicking_runner_is_a_harness_failure_not_a_crash_of_the_job() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let summary = run_job(&spec(&["alpha"], 1, 1), Arc::new(Panics), &job, silent())
        .await
        .unwrap();
    let r = result(&job, "alpha__0");
    assert_eq!(r["agent_status"], "harness_failure");
    assert_eq!(
        r["harness_errors"][1],
        "trial runner panicked: sync engine bug"
    );
    assert_eq!(summary.trials.harness_failures, 1);
}

/// Reports the agent status given per task.
struct Reports(BTreeMap<&'static str, AgentStatus>);

#[async_trait::async_trait]
impl TrialRunner for Reports {
    async fn run(&self, trial: &TrialContext) -> Result<TrialOutcome, HarnessError> {
        let mut outcome = canned_outcome(&trial.id);
        outcome.status = self.0[trial.db()].clone();
        if matches!(outcome.status, AgentStatus::Crashed { .. }) {
            outcome.score = None;
        }
        Ok(outcome)
    }
}

#[tokio::test]
async fn agent_failures_are_recorded_as_the_agent_status() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let runner = Reports(BTreeMap::from([
        ("alpha", AgentStatus::StepLimit),
        ("bravo", AgentStatus::CostLimit),
        ("charlie", AgentStatus::Crashed { exit: Some(137) }),
        (
            "delta",
            AgentStatus::Error {
                message: "HTTP 429".into(),
            },
        ),
    ]));
    let tasks = ["alpha", "bravo", "charlie", "delta"];
    let summary = run_job(&spec(&tasks, 1, 4), Arc::new(runner), &job, silent())
        .await
        .unwrap();
    let statuses: Vec<(&str, u64)> = summary
        .statuses
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(
        statuses,
        [
            ("cost_limit", 1),
            ("crashed", 1),
            ("error", 1),
            ("step_limit", 1)
        ]
    );
    assert_eq!(
        result(&job, "charlie__0")["agent"],
        serde_json::json!({"status": "crashed", "exit": 137})
    );
    assert_eq!(summary.trials.harness_failures, 0);
    // The crashed trial has no score: it fails SRDEL, and its task's models
    // (unknown from other trials here) add nothing to SRDT.
    assert_eq!(
        (summary.score.srdel.passed, summary.score.srdel.total),
        (3, 4)
    );
    assert_eq!(summary.unscored, ["charlie__0"]);
}
