//! `eltbench run --agent oracle` on the 22 tasks with real data: every
//! pipeline loads every table with the exact row count (SRDEL 22/22). Those
//! tasks ship no gold SQL, so their models are simply not built.

mod run_support;

use run_support::{REAL_DATA_TASKS, agent_status, results, run, srdel_passed, tempdir, text};

#[test]
fn oracle_passes_stage1_on_every_real_data_task() {
    let tmp = tempdir();
    let job = tmp.path().join("job");
    let output = run(&[
        "--agent",
        "oracle",
        "--tasks",
        REAL_DATA_TASKS,
        "--concurrency",
        "2",
        "--timeout",
        "10m",
        "--job-dir",
        job.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let records = results(&job);
    assert_eq!(records.len(), 22, "{}", text(&output));
    for (trial, record) in &records {
        assert_eq!(agent_status(record), "finished", "{trial}: {record:#}");
        assert!(srdel_passed(record), "{trial}: {record:#}");
    }
    assert!(text(&output).contains("SRDEL 100.0%"), "{}", text(&output));
}
