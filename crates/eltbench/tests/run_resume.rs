//! `-k 3 --concurrency 2` on two small tasks, the eltbench process killed
//! (SIGKILL) mid-job, then `--resume`: the job finishes with every trial
//! recorded once and the same verdicts as an uninterrupted run.

mod run_support;

use std::time::{Duration, Instant};

use run_support::{agent_status, eltbench, results, run, srdel_passed, tempdir, text};

#[test]
fn killed_job_resumes_to_the_same_results_without_duplicates() {
    let tmp = tempdir();
    let job = tmp.path().join("job");
    let job_arg = job.to_str().unwrap();
    let mut child = eltbench()
        .args([
            "run",
            "--agent",
            "oracle",
            "--tasks",
            "amplitude,twilio",
            "-k",
            "3",
        ])
        .args(["--concurrency", "2", "--job-dir", job_arg])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while results(&job).len() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no trial finished"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the job ended too early"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = results(&job).len();
    assert!(before < 6, "the job finished before it was killed");

    let output = run(&["--resume", job_arg]);
    assert!(output.status.success(), "{}", text(&output));
    let records = results(&job);
    let names: Vec<&str> = records.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "amplitude__0",
            "amplitude__1",
            "amplitude__2",
            "twilio__0",
            "twilio__1",
            "twilio__2"
        ]
    );
    for (trial, record) in &records {
        assert_eq!(agent_status(record), "finished", "{trial}");
        assert!(srdel_passed(record), "{trial}: {record:#}");
    }
    let lines = std::fs::read_to_string(job.join("results.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 6, "{lines}");
}
