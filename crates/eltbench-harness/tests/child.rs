//! Jobs in a child process, killed with SIGKILL or interrupted with SIGINT
//! midway, then resumed in this process. The child is this test binary
//! re-run on `child_job_process` (ignored: it is the child's entry point,
//! not a test) with the job described in environment variables.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use eltbench_harness::{JobDir, JobStatus, read_job_file, resume_job};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use support::{Sleeper, all_trials, recorded, result_lines, silent, spec, trial_dirs};

const TASKS: [&str; 3] = ["alpha", "bravo", "charlie"];
const JOB_VAR: &str = "ELTBENCH_HARNESS_TEST_CHILD_JOB";
const DELAY_VAR: &str = "ELTBENCH_HARNESS_TEST_CHILD_DELAY_MS";
/// Long, so that a quick exit proves the runners stopped when told to.
const GRACE: Duration = Duration::from_secs(15);

/// The child's entry point: runs the job named in the environment and exits
/// with the job's exit code.
#[test]
#[ignore = "entry point of the child process started by the other tests of this file"]
fn child_job_process() {
    let job = std::env::var(JOB_VAR).expect("run only as the child of the tests in child.rs");
    let delay: u64 = std::env::var(DELAY_VAR).unwrap().parse().unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let summary = rt.block_on(async {
        let runner = Sleeper::new(Duration::from_millis(delay));
        let mut spec = spec(&TASKS, 3, 2);
        spec.grace = GRACE;
        eltbench_harness::run_job(&spec, runner, Path::new(&job), silent()).await
    });
    std::process::exit(i32::from(summary.unwrap().exit_code()));
}

fn start_child(job: &Path, delay_ms: u64) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "child_job_process", "--nocapture"])
        .env(JOB_VAR, job)
        .env(DELAY_VAR, delay_ms.to_string())
        .spawn()
        .unwrap()
}

/// Waits until `ready` holds on the job directory.
fn wait_until(job: &Path, what: &str, ready: impl Fn(&Path) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ready(job) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Trial directories with a `started` marker and no result.
fn running(job: &Path) -> Vec<String> {
    let trials = job.join("trials");
    trial_dirs(job)
        .into_iter()
        .filter(|d| trials.join(d).join("started").exists())
        .filter(|d| !trials.join(d).join("result.json").exists())
        .collect()
}

fn results_bytes(job: &Path) -> BTreeMap<String, Vec<u8>> {
    recorded(job)
        .into_iter()
        .map(|t| {
            let bytes = std::fs::read(job.join("trials").join(&t).join("result.json")).unwrap();
            (t, bytes)
        })
        .collect()
}

fn wait_exit(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("child did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Resumes the job in-process with an instant runner; returns the trials it ran.
fn resume(job: &Path) -> Vec<String> {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let runner = Sleeper::new(Duration::ZERO);
    let summary = rt
        .block_on(resume_job(job, runner.clone(), silent()))
        .unwrap();
    assert_eq!(summary.status, JobStatus::Completed);
    assert_eq!(summary.trials.recorded, 9);
    // Canned scores: trials 0 and 2 of each task pass stage 1.
    assert_eq!(
        (summary.score.srdel.passed, summary.score.srdel.total),
        (6, 9)
    );
    runner.runs().iter().map(|id| id.dir_name()).collect()
}

fn assert_complete_without_duplicates(job: &Path) {
    assert_eq!(recorded(job), all_trials(&TASKS, 3));
    let mut lines = result_lines(job);
    assert_eq!(lines.len(), 9, "{lines:?}");
    lines.sort();
    lines.dedup();
    assert_eq!(lines.len(), 9, "duplicated trial in results.jsonl");
    assert_eq!(
        read_job_file(&JobDir::new(job)).unwrap().status,
        JobStatus::Completed
    );
}

#[test]
fn a_job_killed_midway_resumes_to_the_same_results_without_duplicates() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let mut child = start_child(&job, 300);
    wait_until(&job, "3 results and a running trial", |j| {
        recorded(j).len() >= 3 && !running(j).is_empty()
    });
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), None, "killed by a signal");

    let before = results_bytes(&job);
    let interrupted = running(&job);
    assert!(!interrupted.is_empty() && before.len() < 9);
    assert_eq!(
        read_job_file(&JobDir::new(&job)).unwrap().status,
        JobStatus::Running
    );

    let ran = resume(&job);
    // The resume ran exactly the trials without a result, once each.
    let mut expected: Vec<String> = all_trials(&TASKS, 3)
        .into_iter()
        .filter(|t| !before.contains_key(t))
        .collect();
    let mut ran_sorted = ran.clone();
    ran_sorted.sort();
    expected.sort();
    assert_eq!(ran_sorted, expected);
    for t in &interrupted {
        assert!(ran.contains(t), "interrupted trial {t} was not rerun");
    }
    // Finished trials were kept byte for byte.
    let after = results_bytes(&job);
    for (trial, bytes) in &before {
        assert_eq!(&after[trial], bytes, "{trial} was rewritten");
    }
    assert_complete_without_duplicates(&job);
}

#[test]
fn sigint_stops_a_child_job_with_130_and_no_result_for_running_trials() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let mut child = start_child(&job, 20_000);
    wait_until(&job, "two running trials", |j| running(j).len() >= 2);
    let stopped = running(&job);
    let sent = Instant::now();
    kill(
        Pid::from_raw(i32::try_from(child.id()).unwrap()),
        Signal::SIGINT,
    )
    .unwrap();
    let status = wait_exit(&mut child, Duration::from_secs(20));
    let took = sent.elapsed();
    assert_eq!(status.code(), Some(130));
    // The runners were told to stop and did, well within the grace period.
    assert!(took < GRACE / 3, "{took:?}");
    eprintln!("SIGINT to exit: {took:?}");
    for t in &stopped {
        let dir = job.join("trials").join(t);
        assert!(dir.join("cancelled").exists(), "{t} was not cancelled");
        assert!(!dir.join("result.json").exists(), "{t} has a result");
        let log = std::fs::read_to_string(dir.join("trial.log")).unwrap();
        assert!(log.contains("interrupted: no result recorded"), "{log}");
    }
    assert!(recorded(&job).is_empty());
    assert_eq!(result_lines(&job).len(), 0);
    let file = read_job_file(&JobDir::new(&job)).unwrap();
    assert_eq!(file.status, JobStatus::Interrupted);

    let ran = resume(&job);
    assert_eq!(ran.len(), 9);
    assert_complete_without_duplicates(&job);
    assert_eq!(read_job_file(&JobDir::new(&job)).unwrap().runs, 2);
}
