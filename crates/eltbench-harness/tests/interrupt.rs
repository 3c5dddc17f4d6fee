//! Interrupting a job in-process (the signal path is in `child.rs`): no
//! result for stopped trials, `job.json` interrupted, exit code 130, and the
//! job resumable; a second interrupt stops waiting for the grace period.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use eltbench_harness::{Interrupt, JobStatus, TrialRunner, read_job_file, run_job_with};
use support::{Hang, Sleeper, all_trials, recorded, result_lines, silent, spec, trial_dirs};

async fn wait_for_started(job: &std::path::Path, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let started = trial_dirs(job)
            .iter()
            .filter(|d| job.join("trials").join(d).join("started").exists())
            .count();
        if started >= n {
            return;
        }
        assert!(Instant::now() < deadline, "trials did not start");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupting_records_nothing_for_running_trials_and_the_job_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let mut spec = spec(&["alpha", "bravo"], 2, 2);
    spec.grace = Duration::from_millis(300);
    let interrupt = Interrupt::new();
    let run = {
        let (spec, job, interrupt) = (spec.clone(), job.clone(), interrupt.clone());
        tokio::spawn(
            async move { run_job_with(&spec, Arc::new(Hang), &job, silent(), interrupt).await },
        )
    };
    wait_for_started(&job, 2).await;
    let start = Instant::now();
    interrupt.request();
    let summary = run.await.unwrap().unwrap();
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(3),
        "{took:?}"
    );
    assert_eq!(summary.status, JobStatus::Interrupted);
    assert_eq!(summary.exit_code(), 130);
    assert_eq!(summary.trials.unfinished, 4);
    assert!(recorded(&job).is_empty());
    assert_eq!(
        trial_dirs(&job).len(),
        2,
        "only the two running trials started"
    );
    assert_eq!(
        read_job_file(&eltbench_harness::JobDir::new(&job))
            .unwrap()
            .status,
        JobStatus::Interrupted
    );

    let runner = Sleeper::new(Duration::ZERO);
    let done = run_job_with(
        &spec,
        runner.clone() as Arc<dyn TrialRunner>,
        &job,
        silent(),
        Interrupt::new(),
    )
    .await
    .unwrap();
    assert_eq!(done.status, JobStatus::Completed);
    assert_eq!(runner.runs().len(), 4);
    assert_eq!(recorded(&job), all_trials(&["alpha", "bravo"], 2));
    assert_eq!(result_lines(&job).len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_interrupt_stops_without_waiting_for_the_grace_period() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let mut spec = spec(&["alpha"], 1, 1);
    spec.grace = Duration::from_secs(60);
    let interrupt = Interrupt::new();
    let run = {
        let (spec, job, interrupt) = (spec.clone(), job.clone(), interrupt.clone());
        tokio::spawn(
            async move { run_job_with(&spec, Arc::new(Hang), &job, silent(), interrupt).await },
        )
    };
    wait_for_started(&job, 1).await;
    let start = Instant::now();
    interrupt.request();
    tokio::time::sleep(Duration::from_millis(100)).await;
    interrupt.request();
    let summary = run.await.unwrap().unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(summary.status, JobStatus::Interrupted);
    assert!(recorded(&job).is_empty());
}
