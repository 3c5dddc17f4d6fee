//! Job lifecycle: pending → running → succeeded | failed | cancelled.
//!
//! Creating a job checks for a conflicting pending/running job of the same
//! connection, then a tokio task waits out the start delay, marks the job running,
//! and awaits the [`SyncExecutor`](crate::executor::SyncExecutor) while watching the
//! job's cancellation token. Only this module changes a job's status; it must never
//! read or write any data itself.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::enums::{JobStatus, JobType};
use crate::errors::{ApiProblem, ApiResult};
use crate::executor::{JobContext, LogSink, SharedExecutor, SyncFailure, SyncStats};
use crate::model::{Attempt, Job};
use crate::store::{State, Store};
use crate::timefmt::{log_stamp, now};

/// Creates a pending job for a connection and returns it with the context to run it.
pub fn create(
    store: &Store,
    connection_id: &str,
    job_type: JobType,
) -> ApiResult<(Job, JobContext)> {
    store.write(|state| {
        let connection = state
            .live_connection(connection_id)
            .cloned()
            .ok_or_else(|| ApiProblem::not_found(connection_id))?;
        if state.active_job(connection_id).is_some() {
            return Err(ApiProblem::sync_conflict(connection_id));
        }
        let source = state.sources.get(&connection.source_id).cloned();
        let destination = state.destinations.get(&connection.destination_id).cloned();
        let (Some(source), Some(destination)) = (source, destination) else {
            return Err(ApiProblem::not_found(connection_id));
        };
        let job = new_job(state, &connection.id, &connection.workspace_id, job_type);
        let context = JobContext {
            job_id: job.id,
            job_type,
            attempt: 1,
            source,
            destination,
            streams: connection.configured_streams.clone(),
            connection,
            cancel: CancellationToken::new(),
        };
        Ok((job, context))
    })
}

fn new_job(state: &mut State, connection_id: &str, workspace_id: &str, job_type: JobType) -> Job {
    let id = state.next_job_id;
    state.next_job_id += 1;
    let created_at = now();
    let line = format!(
        "{} platform > Job {id} ({job_type}) created for connection {connection_id}",
        log_stamp(created_at)
    );
    let job = Job {
        id,
        connection_id: connection_id.to_owned(),
        workspace_id: workspace_id.to_owned(),
        job_type,
        status: JobStatus::Pending,
        created_at,
        updated_at: created_at,
        rows_synced: None,
        bytes_synced: None,
        streams: Default::default(),
        attempts: Vec::new(),
        log: vec![line],
    };
    state.jobs.insert(id, job.clone());
    job
}

/// Starts the job's task on the current tokio runtime.
pub fn spawn(store: Store, executor: SharedExecutor, context: JobContext, delay: Duration) {
    store.register_token(context.job_id, context.cancel.clone());
    tokio::spawn(run(store, executor, context, delay));
}

async fn run(store: Store, executor: SharedExecutor, context: JobContext, delay: Duration) {
    let job_id = context.job_id;
    let cancel = context.cancel.clone();
    let log = LogSink::new(store.clone(), job_id);
    let started = tokio::select! {
        () = tokio::time::sleep(delay) => mark_running(&store, job_id),
        () = cancel.cancelled() => false,
    };
    if started {
        announce(&log, &context);
        let outcome = tokio::select! {
            result = executor.run(context, log.clone()) => Some(result),
            () = cancel.cancelled() => None,
        };
        finish(&store, &log, job_id, outcome);
    } else {
        finish(&store, &log, job_id, None);
    }
    store.forget_token(job_id);
}

fn mark_running(store: &Store, job_id: i64) -> bool {
    store.write(|state| {
        let Some(job) = state
            .jobs
            .get_mut(&job_id)
            .filter(|j| j.status == JobStatus::Pending)
        else {
            return false;
        };
        let at = now();
        job.status = JobStatus::Running;
        job.updated_at = at;
        job.attempts.push(Attempt {
            number: 1,
            status: JobStatus::Running,
            started_at: at,
            ended_at: None,
            rows_synced: None,
            bytes_synced: None,
            failure: None,
        });
        true
    })
}

fn announce(log: &LogSink, context: &JobContext) {
    log.platform(&format!(
        "Starting attempt {} of job {}",
        context.attempt, context.job_id
    ));
    let (s, d) = (&context.source, &context.destination);
    log.platform(&format!(
        "Executing {}: source {} ({}) → destination {} ({}), {} stream(s)",
        context.job_type,
        s.name,
        s.type_name,
        d.name,
        d.type_name,
        context.streams.len()
    ));
}

/// Records the outcome; `None` means the job was cancelled (or the server stopped).
fn finish(
    store: &Store,
    log: &LogSink,
    job_id: i64,
    outcome: Option<Result<SyncStats, SyncFailure>>,
) {
    match &outcome {
        Some(Ok(stats)) => log.orchestrator(&format!(
            "Sync completed: {} records ({} bytes) committed",
            stats.rows_synced, stats.bytes_synced
        )),
        Some(Err(failure)) => log.platform(&format!("Failure: {failure}")),
        None => {}
    }
    store.write(|state| {
        let Some(job) = state
            .jobs
            .get_mut(&job_id)
            .filter(|j| !j.status.is_terminal())
        else {
            return;
        };
        match outcome {
            Some(Ok(stats)) => succeed(job, stats),
            Some(Err(failure)) => fail(job, failure),
            None => cancel_in_place(job, "Job was cancelled because the server stopped"),
        }
    });
}

fn close_attempt(job: &mut Job, status: JobStatus) -> i64 {
    let at = now();
    job.status = status;
    job.updated_at = at;
    if let Some(attempt) = job.attempts.last_mut() {
        attempt.status = status;
        attempt.ended_at = Some(at);
    }
    at
}

fn succeed(job: &mut Job, stats: SyncStats) {
    close_attempt(job, JobStatus::Succeeded);
    job.rows_synced = Some(stats.rows_synced);
    job.bytes_synced = Some(stats.bytes_synced);
    if let Some(attempt) = job.attempts.last_mut() {
        attempt.rows_synced = Some(stats.rows_synced);
        attempt.bytes_synced = Some(stats.bytes_synced);
    }
    job.streams = stats.streams;
}

fn fail(job: &mut Job, failure: SyncFailure) {
    close_attempt(job, JobStatus::Failed);
    job.rows_synced = Some(0);
    job.bytes_synced = Some(0);
    if let Some(attempt) = job.attempts.last_mut() {
        attempt.failure = Some(failure);
    }
}

/// Marks a non-terminal job cancelled, with a log line saying why.
pub fn cancel_in_place(job: &mut Job, reason: &str) {
    let at = close_attempt(job, JobStatus::Cancelled);
    job.log
        .push(format!("{} platform > {reason}", log_stamp(at)));
}

/// `DELETE /jobs/{id}`: cancels a pending or running job.
pub fn cancel(store: &Store, job_id: i64) -> ApiResult<Job> {
    let job = store.write(|state| {
        let job = state
            .jobs
            .get_mut(&job_id)
            .ok_or_else(|| ApiProblem::not_found(&job_id.to_string()))?;
        if job.status.is_terminal() {
            return Err(ApiProblem::state_conflict(format!(
                "Job {job_id} has already finished with status {} and cannot be cancelled",
                job.status
            )));
        }
        cancel_in_place(job, "Job was cancelled by a user request");
        Ok(job.clone())
    })?;
    store.cancel_token(job_id);
    Ok(job)
}

/// Cancels every pending or running job whose connection matches (for deletions);
/// returns their ids so the caller can fire their tokens once the lock is released.
pub fn cancel_where(state: &mut State, matches: impl Fn(&str) -> bool, reason: &str) -> Vec<i64> {
    state
        .jobs
        .values_mut()
        .filter(|j| !j.status.is_terminal() && matches(&j.connection_id))
        .map(|job| {
            cancel_in_place(job, reason);
            job.id
        })
        .collect()
}
