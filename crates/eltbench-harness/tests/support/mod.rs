//! Trial runners and helpers shared by the integration tests: runners that
//! sleep, hang, fail or panic, and return canned scores built from
//! eltbench-score's own types.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use eltbench_harness::{
    AgentStatus, HarnessError, JobSpec, Progress, TrialContext, TrialId, TrialOutcome, TrialRecord,
    TrialRunner,
};
use eltbench_score::{ModelScore, ModelStatus, Stage1Score, TaskScore, WarehouseState};

/// A spec for tasks `a`, `b`, ... with `k` trials and `concurrency`.
pub fn spec(tasks: &[&str], k: u32, concurrency: usize) -> JobSpec {
    let mut spec = JobSpec::new(
        "/nonexistent/suite",
        "test-agent",
        tasks.iter().map(|t| t.to_string()).collect(),
    );
    spec.k = k;
    spec.concurrency = concurrency;
    spec.timeout = Duration::from_secs(60);
    spec.grace = Duration::from_millis(500);
    spec
}

/// The canned score of a trial: stage 1 passes on even indices; model `m0`
/// matches when it passes, `m1` never does, `m2` has no ground truth.
pub fn canned_score(id: &TrialId) -> TaskScore {
    let passed = id.index.is_multiple_of(2);
    let model = |status| ModelScore {
        status,
        matched_ungated: status == ModelStatus::Matched,
        run_date_dependent: false,
        unkeyed: false,
        relation: None,
        error: None,
        comparison: None,
    };
    let gated = |s| {
        if passed {
            s
        } else {
            ModelStatus::NotScoredStage1Failed
        }
    };
    let models = BTreeMap::from([
        ("m0".to_string(), model(gated(ModelStatus::Matched))),
        ("m1".to_string(), model(gated(ModelStatus::Unmatched))),
        ("m2".to_string(), model(ModelStatus::NoGroundTruth)),
    ]);
    TaskScore {
        db: id.db.clone(),
        warehouse: WarehouseState::Read,
        srdel: Stage1Score {
            passed,
            tables: BTreeMap::new(),
        },
        models,
    }
}

/// The canned outcome of a trial.
pub fn canned_outcome(id: &TrialId) -> TrialOutcome {
    TrialOutcome {
        status: AgentStatus::Finished,
        steps: 10 + u64::from(id.index),
        input_tokens: 900,
        output_tokens: 100,
        cost_usd: 0.25,
        sandboxed: Some(id.index.is_multiple_of(2)),
        sandbox_mode: None,
        score: Some(canned_score(id)),
    }
}

/// Sleeps `delay` (stopping early when cancelled), then returns the canned
/// outcome; counts runs and the most trials running at once. Leaves a
/// `started` marker in the trial directory, and `cancelled` when cancelled.
#[derive(Default)]
pub struct Sleeper {
    pub delay: Duration,
    pub running: AtomicUsize,
    pub max_running: AtomicUsize,
    pub runs: Mutex<Vec<TrialId>>,
}

impl Sleeper {
    pub fn new(delay: Duration) -> Arc<Self> {
        Arc::new(Self {
            delay,
            ..Self::default()
        })
    }

    pub fn runs(&self) -> Vec<TrialId> {
        self.runs.lock().unwrap().clone()
    }
}

#[async_trait::async_trait]
impl TrialRunner for Sleeper {
    async fn run(&self, trial: &TrialContext) -> Result<TrialOutcome, HarnessError> {
        self.runs.lock().unwrap().push(trial.id.clone());
        let now = self.running.fetch_add(1, Ordering::SeqCst) + 1;
        self.max_running.fetch_max(now, Ordering::SeqCst);
        std::fs::write(trial.dir.path().join("started"), "").unwrap();
        let cancelled = tokio::select! {
            () = tokio::time::sleep(self.delay) => false,
            () = trial.cancel.cancelled() => true,
        };
        self.running.fetch_sub(1, Ordering::SeqCst);
        if cancelled {
            std::fs::write(trial.dir.path().join("cancelled"), "").unwrap();
            return Err(HarnessError::Runner("cancelled".into()));
        }
        std::fs::write(trial.dir.agent_log(), "agent output\n").unwrap();
        Ok(canned_outcome(&trial.id))
    }
}

/// Never returns and ignores cancellation.
pub struct Hang;

#[async_trait::async_trait]
impl TrialRunner for Hang {
    async fn run(&self, trial: &TrialContext) -> Result<TrialOutcome, HarnessError> {
        std::fs::write(trial.dir.path().join("started"), "").unwrap();
        std::future::pending().await
    }
}

/// Collects progress lines in memory.
#[derive(Default, Clone)]
pub struct SharedBuf(pub Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuf {
    pub fn lines(&self) -> Vec<String> {
        let bytes = self.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }
}

/// No progress output.
pub fn silent() -> Arc<dyn Progress> {
    Arc::new(eltbench_harness::Silent)
}

/// The trial ids in `results.jsonl`, asserting every line parses.
pub fn result_lines(job: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(job.join("results.jsonl")).unwrap();
    text.lines()
        .map(|line| {
            let record: TrialRecord = serde_json::from_str(line).unwrap();
            record.trial_id
        })
        .collect()
}

/// The trial directories with a `result.json`.
pub fn recorded(job: &Path) -> BTreeSet<String> {
    trial_dirs(job)
        .into_iter()
        .filter(|d| job.join("trials").join(d).join("result.json").exists())
        .collect()
}

/// Every trial directory.
pub fn trial_dirs(job: &Path) -> BTreeSet<String> {
    match std::fs::read_dir(job.join("trials")) {
        Ok(entries) => entries
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => BTreeSet::new(),
    }
}

/// Reads `trials/<trial>/result.json`.
pub fn result(job: &Path, trial: &str) -> serde_json::Value {
    let path = job.join("trials").join(trial).join("result.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `<db>__<i>` for every planned trial of tasks × k.
pub fn all_trials(tasks: &[&str], k: u32) -> BTreeSet<String> {
    tasks
        .iter()
        .flat_map(|t| (0..k).map(move |i| format!("{t}__{i}")))
        .collect()
}
