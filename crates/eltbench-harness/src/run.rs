//! Running a job: plan the trials, pick up what a previous run finished,
//! run the rest at most `concurrency` at a time, stop cleanly on Ctrl-C /
//! SIGTERM, and summarize from the result files.
//!
//! An interrupted job writes no result for the trials it stopped and marks
//! `job.json` `interrupted`; running it again (same spec) finishes it.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::progress::Progress;
use crate::signals::{Interrupt, SignalListener};
use crate::{
    HarnessError, JobDir, JobSpec, JobStatus, JobSummary, TrialId, TrialRunner, jobfile, plan,
    resume, summarize, trial,
};

/// What every trial of a running job shares.
pub(crate) struct Job {
    pub spec: Arc<JobSpec>,
    pub runner: Arc<dyn TrialRunner>,
    pub dir: JobDir,
    /// Fires on interrupt; every trial's token is a child of it.
    pub cancel: CancellationToken,
    /// Serializes appends to `results.jsonl`.
    pub results_lock: Mutex<()>,
    progress: Arc<dyn Progress>,
    slots: Arc<Semaphore>,
    done: AtomicUsize,
    total: usize,
}

/// Runs (or resumes) the job `spec` in `job_dir`, stopping gracefully on
/// SIGINT / SIGTERM.
pub async fn run_job(
    spec: &JobSpec,
    runner: Arc<dyn TrialRunner>,
    job_dir: &Path,
    progress: Arc<dyn Progress>,
) -> Result<JobSummary, HarnessError> {
    let interrupt = Interrupt::new();
    let _listener = SignalListener::start(interrupt.clone())?;
    run_job_with(spec, runner, job_dir, progress, interrupt).await
}

/// Resumes the job in `job_dir` with the spec of its `job.json`.
pub async fn resume_job(
    job_dir: &Path,
    runner: Arc<dyn TrialRunner>,
    progress: Arc<dyn Progress>,
) -> Result<JobSummary, HarnessError> {
    let spec = jobfile::read(&JobDir::new(job_dir))?.spec;
    run_job(&spec, runner, job_dir, progress).await
}

/// [`run_job`] with the interrupt supplied by the caller instead of signals.
pub async fn run_job_with(
    spec: &JobSpec,
    runner: Arc<dyn TrialRunner>,
    job_dir: &Path,
    progress: Arc<dyn Progress>,
    interrupt: Interrupt,
) -> Result<JobSummary, HarnessError> {
    spec.validate()?;
    let dir = JobDir::new(job_dir);
    crate::layout::create_dir(dir.root())?;
    let _lock = dir.lock()?;
    let file = jobfile::start(&dir, spec)?;
    let planned = plan(spec);
    let resumed = resume::prepare(&dir, &planned)?;
    progress.job_started(planned.len(), &resumed);
    let job = Arc::new(Job {
        spec: Arc::new(spec.clone()),
        runner,
        dir: dir.clone(),
        cancel: CancellationToken::new(),
        results_lock: Mutex::new(()),
        progress: progress.clone(),
        slots: Arc::new(Semaphore::new(spec.concurrency)),
        done: AtomicUsize::new(resumed.len()),
        total: planned.len(),
    });
    let pending = planned.into_iter().filter(|id| !resumed.contains_key(id));
    let failure = drive(&job, pending, &interrupt).await;
    let status = match job.cancel.is_cancelled() {
        true => JobStatus::Interrupted,
        false => JobStatus::Completed,
    };
    jobfile::finish(&dir, file, status)?;
    if let Some(e) = failure {
        return Err(e);
    }
    let records = resume::load(&dir, &plan(spec))?;
    let summary = summarize(spec, status, &records);
    progress.job_finished(&summary);
    Ok(summary)
}

/// Starts the pending trials in plan order as slots free up, until all are
/// done or the job is interrupted; returns the first failure of the harness
/// itself (which also stops the job).
async fn drive(
    job: &Arc<Job>,
    pending: impl Iterator<Item = TrialId>,
    interrupt: &Interrupt,
) -> Option<HarnessError> {
    let mut pending = pending.peekable();
    let mut set = JoinSet::new();
    let mut failure = None;
    let mut aborted = false;
    loop {
        let starting = pending.peek().is_some() && !job.cancel.is_cancelled();
        if !starting && set.is_empty() {
            break;
        }
        tokio::select! {
            biased;
            () = interrupt.requested().cancelled(), if !job.cancel.is_cancelled() => {
                job.cancel.cancel();
            }
            () = interrupt.forced().cancelled(), if !aborted => {
                aborted = true;
                set.abort_all();
            }
            joined = set.join_next(), if !set.is_empty() => match joined {
                Some(Ok(Ok(()))) | None => {}
                Some(Ok(Err(e))) => stop(job, &mut failure, e),
                Some(Err(e)) if e.is_cancelled() => {}
                Some(Err(e)) => stop(job, &mut failure, HarnessError::Task(e.to_string())),
            },
            Ok(permit) = job.slots.clone().acquire_owned(), if starting => {
                if let Some(id) = pending.next() {
                    set.spawn(slot(job.clone(), id, permit));
                }
            }
        }
    }
    failure
}

/// A harness failure (not a trial's): keep the first, stop the job.
fn stop(job: &Job, failure: &mut Option<HarnessError>, e: HarnessError) {
    job.cancel.cancel();
    failure.get_or_insert(e);
}

/// Runs trial `id` in the slot `_permit` holds.
async fn slot(
    job: Arc<Job>,
    id: TrialId,
    _permit: OwnedSemaphorePermit,
) -> Result<(), HarnessError> {
    job.progress.trial_started(&id);
    match trial::run_trial(&job, &id).await? {
        Some(record) => {
            let done = job.done.fetch_add(1, Ordering::SeqCst) + 1;
            job.progress.trial_finished(done, job.total, &record);
        }
        None => job.progress.trial_interrupted(&id),
    }
    Ok(())
}
