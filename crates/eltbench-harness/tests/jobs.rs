//! Whole jobs in-process: every trial run once, concurrency respected,
//! records and summary, progress lines, re-running a finished job.

mod support;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use eltbench_harness::{HarnessError, JobStatus, Lines, run_job, summarize_dir};
use support::{SharedBuf, Sleeper, all_trials, recorded, result_lines, silent, spec};

const TASKS: [&str; 4] = ["delta", "alpha", "charlie", "bravo"];

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn k3_concurrency2_runs_every_trial_once_with_at_most_two_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let runner = Sleeper::new(Duration::from_millis(60));
    let out = SharedBuf::default();
    let progress = Arc::new(Lines::new(out.clone()));
    let summary = run_job(&spec(&TASKS, 3, 2), runner.clone(), &job, progress)
        .await
        .unwrap();

    assert_eq!(runner.max_running.load(Ordering::SeqCst), 2);
    let runs = runner.runs();
    assert_eq!(runs.len(), 12);
    let unique: BTreeSet<String> = runs.iter().map(|id| id.dir_name()).collect();
    assert_eq!(unique, all_trials(&TASKS, 3));
    // Every task's trial 0 runs before any trial 1.
    assert!(runs[..4].iter().all(|id| id.index == 0), "{runs:?}");

    assert_eq!(recorded(&job), all_trials(&TASKS, 3));
    let lines = result_lines(&job);
    assert_eq!(lines.len(), 12);
    assert_eq!(lines.iter().collect::<BTreeSet<_>>().len(), 12);

    assert_eq!(summary.status, JobStatus::Completed);
    assert_eq!(summary.exit_code(), 0);
    assert_eq!(summary.trials.recorded, 12);
    assert_eq!(summary.statuses["finished"], 12);
    // Even indices pass stage 1: trials 0 and 2 of each task.
    assert_eq!(
        (summary.score.srdel.passed, summary.score.srdel.total),
        (8, 12)
    );
    // m0 matches when stage 1 passes, m1 never, m2 has no ground truth.
    assert_eq!(
        (summary.score.srdt.passed, summary.score.srdt.total),
        (8, 24)
    );
    let alpha = &summary.tasks["alpha"];
    assert_eq!((alpha.trials, alpha.successes), (3, 2));
    assert!((alpha.pass_at_k[&1].unwrap() - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(alpha.pass_at_k[&3], Some(1.0));
    assert!((alpha.pass_hat_k[&2].unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(alpha.pass_hat_k[&3], Some(0.0));
    assert_eq!(summary.models["alpha.m1"].pass_at_k[&3], Some(0.0));
    assert!(!summary.models.contains_key("alpha.m2"));
    assert!((summary.means.steps.unwrap() - 11.0).abs() < 1e-12);
    assert!((summary.total_cost_usd - 3.0).abs() < 1e-9);

    let lines = out.lines();
    assert_eq!(lines[0], "job: 12 trials, 0 already finished");
    for n in 1..=12 {
        let prefix = format!("[{n}/12] ");
        assert_eq!(lines.iter().filter(|l| l.starts_with(&prefix)).count(), 1);
    }
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" alpha#0 finished: SRDEL pass, SRDT 1/2 ("))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" alpha#1 finished: SRDEL fail, SRDT 0/2 ("))
    );
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("job completed: 12/12 trials recorded, SRDEL 66.7%")
    );
}

#[tokio::test]
async fn the_job_directory_records_spec_logs_and_results() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let spec = spec(&["alpha"], 1, 1);
    run_job(&spec, Sleeper::new(Duration::ZERO), &job, silent())
        .await
        .unwrap();
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(job.join("job.json")).unwrap()).unwrap();
    assert_eq!(file["status"], "completed");
    assert_eq!(file["spec"]["tasks"], serde_json::json!(["alpha"]));
    assert_eq!(file["eltbench_version"], env!("CARGO_PKG_VERSION"));
    assert!(file["host"]["cpus"].as_u64().unwrap() >= 1);
    let trial = job.join("trials/alpha__0");
    let result = support::result(&job, "alpha__0");
    assert_eq!(result["agent_status"], "finished");
    assert_eq!(result["harness_attempts"], 1);
    assert_eq!(result["sandboxed"], true);
    assert_eq!(result["input_tokens"], 900);
    // results.jsonl holds the same record, one format for the harness and reports.
    let lines = eltbench_report::read_records(&job.join("results.jsonl")).unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(serde_json::to_value(&lines[0]).unwrap(), result);
    // result.json keeps the full score, diagnostics included.
    assert_eq!(result["score"]["warehouse"]["state"], "read");
    assert_eq!(result["score"]["models"]["m0"]["status"], "matched");
    let log = std::fs::read_to_string(trial.join("trial.log")).unwrap();
    assert!(
        log.contains("attempt 1 started") && log.contains("recorded finished"),
        "{log}"
    );
    assert!(trial.join("agent.log").exists());
    assert_eq!(
        summarize_dir(&eltbench_harness::JobDir::new(&job))
            .unwrap()
            .trials
            .recorded,
        1
    );
}

#[tokio::test]
async fn rerunning_a_finished_job_runs_nothing_and_another_spec_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let spec = spec(&["alpha", "bravo"], 2, 2);
    let first = run_job(&spec, Sleeper::new(Duration::ZERO), &job, silent())
        .await
        .unwrap();
    let again = Sleeper::new(Duration::ZERO);
    let second = run_job(&spec, again.clone(), &job, silent()).await.unwrap();
    assert!(again.runs().is_empty());
    assert_eq!(second, first);
    assert_eq!(result_lines(&job).len(), 4);

    let mut other = spec.clone();
    other.agent = "other-agent".into();
    let err = run_job(&other, again, &job, silent()).await.unwrap_err();
    assert!(
        matches!(err, HarnessError::SpecMismatch { ref field, .. } if field == "agent"),
        "{err}"
    );
    assert!(err.is_bad_input());
}
