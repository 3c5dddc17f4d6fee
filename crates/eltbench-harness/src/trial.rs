//! One trial, start to record: a fresh directory, up to two harness
//! attempts (a runner error is retried once, then recorded as
//! `harness_failure`), the wall-clock limit (cancel, grace, then `timeout`),
//! and `result.json` written atomically last.
//!
//! A trial stopped by an interrupt is never recorded: its directory stays
//! partial and the trial reruns on resume.

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;

use futures::FutureExt;
use tokio::time::Instant;

use crate::layout::{append_line, create_dir, remove_dir, write_json_atomic};
use crate::record::HARNESS_FAILURE;
use crate::run::Job;
use crate::{
    AgentStatus, HarnessError, TrialContext, TrialDir, TrialId, TrialOutcome, TrialRecord,
};

/// Attempts per trial: the first, and one retry after a harness failure.
pub const HARNESS_ATTEMPTS: u32 = 2;

enum Attempt {
    Ran(TrialOutcome),
    Failed(HarnessError),
    Interrupted,
}

type RunResult = Result<Result<TrialOutcome, HarnessError>, Box<dyn Any + Send>>;

/// Runs trial `id`; `None` when the job was interrupted before it finished.
pub(crate) async fn run_trial(
    job: &Job,
    id: &TrialId,
) -> Result<Option<TrialRecord>, HarnessError> {
    let dir = job.dir.trial(id);
    remove_dir(dir.path())?;
    create_dir(dir.path())?;
    let clock = Clock::start();
    let mut errors = Vec::new();
    for attempt in 1..=HARNESS_ATTEMPTS {
        if attempt > 1 {
            clear_attempt(&dir)?;
        }
        dir.log(&format!("attempt {attempt} started"));
        match run_attempt(job, context(job, id, &dir, attempt)).await {
            Attempt::Ran(outcome) => {
                dir.log(&format!("agent {}", outcome.status.name()));
                let record = clock.record(id, Some(outcome), errors, attempt);
                return save(job, &dir, record);
            }
            Attempt::Failed(e) => {
                dir.log(&format!("harness failure: {e}"));
                errors.push(e.to_string());
            }
            Attempt::Interrupted => return Ok(interrupted(&dir)),
        }
    }
    let record = clock.record(id, None, errors, HARNESS_ATTEMPTS);
    save(job, &dir, record)
}

fn context(job: &Job, id: &TrialId, dir: &TrialDir, attempt: u32) -> TrialContext {
    TrialContext {
        id: id.clone(),
        attempt,
        dir: dir.clone(),
        deadline: Instant::now() + job.spec.timeout,
        cancel: job.cancel.child_token(),
        spec: job.spec.clone(),
    }
}

async fn run_attempt(job: &Job, ctx: TrialContext) -> Attempt {
    let mut run = std::pin::pin!(AssertUnwindSafe(job.runner.run(&ctx)).catch_unwind());
    tokio::select! {
        result = &mut run => match job.cancel.is_cancelled() {
            true => Attempt::Interrupted,
            false => settle(result),
        },
        () = tokio::time::sleep_until(ctx.deadline) => timed_out(job, &ctx, run.as_mut()).await,
        () = job.cancel.cancelled() => {
            ctx.dir.log("interrupted: cancelling");
            let _ = tokio::time::timeout(job.spec.grace, run.as_mut()).await;
            Attempt::Interrupted
        }
    }
}

/// The deadline passed: cancel, give the runner its grace period, and
/// record a timeout (keeping the score if the runner still produced one).
async fn timed_out<F>(job: &Job, ctx: &TrialContext, run: Pin<&mut F>) -> Attempt
where
    F: Future<Output = RunResult>,
{
    ctx.dir.log("timeout: cancelling");
    ctx.cancel.cancel();
    let late = tokio::time::timeout(job.spec.grace, run).await;
    if job.cancel.is_cancelled() {
        return Attempt::Interrupted;
    }
    let mut outcome = match late {
        Ok(Ok(Ok(outcome))) => outcome,
        _ => TrialOutcome::bare(AgentStatus::Timeout),
    };
    outcome.status = AgentStatus::Timeout;
    Attempt::Ran(outcome)
}

fn settle(result: RunResult) -> Attempt {
    match result {
        Ok(Ok(outcome)) => Attempt::Ran(outcome),
        Ok(Err(e)) => Attempt::Failed(e),
        Err(panic) => Attempt::Failed(HarnessError::Panicked(panic_message(&*panic))),
    }
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".into()
    }
}

/// Empties the trial directory for a retry, keeping `trial.log`.
fn clear_attempt(dir: &TrialDir) -> Result<(), HarnessError> {
    let log = dir.trial_log();
    let entries = std::fs::read_dir(dir.path()).map_err(|e| HarnessError::io(dir.path(), e))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path == log {
            continue;
        }
        let removed = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        removed.map_err(|e| HarnessError::io(&path, e))?;
    }
    Ok(())
}

fn interrupted(dir: &TrialDir) -> Option<TrialRecord> {
    dir.log("interrupted: no result recorded");
    None
}

/// Writes `result.json` (unless the job was interrupted meanwhile), then
/// appends the trial's line to `results.jsonl`.
fn save(
    job: &Job,
    dir: &TrialDir,
    record: TrialRecord,
) -> Result<Option<TrialRecord>, HarnessError> {
    if job.cancel.is_cancelled() {
        return Ok(interrupted(dir));
    }
    write_json_atomic(&dir.result(), &record)?;
    dir.log(&format!("recorded {}", record.agent_status));
    let line = serde_json::to_string(&record).map_err(|source| HarnessError::Json {
        path: job.dir.results(),
        source,
    })?;
    let _guard = job.results_lock.lock();
    append_line(&job.dir.results(), &line)?;
    Ok(Some(record))
}

/// When a trial started, for its record.
struct Clock {
    started_at: String,
    started: Instant,
}

impl Clock {
    fn start() -> Self {
        Self {
            started_at: now(),
            started: Instant::now(),
        }
    }

    fn record(
        &self,
        id: &TrialId,
        outcome: Option<TrialOutcome>,
        harness_errors: Vec<String>,
        attempts: u32,
    ) -> TrialRecord {
        let status = outcome
            .as_ref()
            .map_or(HARNESS_FAILURE, |o| o.status.name());
        let bare = TrialOutcome::bare(AgentStatus::Finished);
        let o = outcome.as_ref().unwrap_or(&bare);
        TrialRecord {
            trial_id: id.dir_name(),
            db: id.db.clone(),
            index: id.index,
            agent_status: status.into(),
            agent: outcome.as_ref().map(|o| o.status.clone()),
            harness_attempts: attempts,
            harness_errors,
            steps: o.steps,
            input_tokens: o.input_tokens,
            output_tokens: o.output_tokens,
            cost_usd: o.cost_usd,
            duration_s: self.started.elapsed().as_secs_f64(),
            started_at: self.started_at.clone(),
            finished_at: now(),
            sandboxed: o.sandboxed,
            sandbox_mode: o.sandbox_mode.clone(),
            score: outcome.and_then(|o| o.score),
        }
    }
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
