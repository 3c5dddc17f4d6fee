//! `eltbench synth` run as a user would: tasks of the original suite into a
//! new suite that `eltbench tasks validate` accepts, the same bytes on a
//! rerun, the default task selection, and bad task names (exit 2).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn elt_bench() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench")
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../eltbench-task/tests/fixtures")
}

fn run(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_eltbench"))
        .args(args)
        .env_remove("ELTBENCH_SUITE")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "eltbench panicked: {stderr}");
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn synth(out: &Path, extra: &[&str]) -> Output {
    let suite = elt_bench();
    let mut args = vec![
        "synth",
        "--suite",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn generates_a_suite_that_validates_and_reruns_identically() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let args = ["--tasks", "address,movie_3", "--scale", "20", "--seed", "5"];
    let output = synth(&a, &args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("/2] address: 9 tables, "), "{stderr}");
    assert!(stderr.contains("/2] movie_3: "), "{stderr}");
    let stdout = text(&output.stdout);
    assert!(
        stdout.starts_with("generated 2 tasks, ")
            && stdout.contains("(seed 5, at most 20 rows per table)"),
        "{stdout}"
    );
    let validate = run(&["tasks", "validate", "--suite", a.to_str().unwrap()]);
    assert_eq!(
        validate.status.code(),
        Some(0),
        "{}{}",
        text(&validate.stdout),
        text(&validate.stderr)
    );

    assert_eq!(synth(&b, &args).status.code(), Some(0));
    for table in ["zip_data", "area_code", "CBSA"] {
        let path = format!("data/address/{table}.csv");
        let first = std::fs::read(a.join(&path)).unwrap();
        assert_eq!(first, std::fs::read(b.join(&path)).unwrap(), "{path}");
        assert_eq!(text(&first).lines().count(), 21, "{path}: header + 20 rows");
    }
}

#[test]
fn json_lists_one_report_per_task() {
    let dir = tempfile::tempdir().unwrap();
    let output = synth(
        dir.path(),
        &["--json", "--tasks", "airline", "--scale", "3"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let reports: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let reports = reports.as_array().unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0]["db"], "airline");
    for table in reports[0]["tables"].as_array().unwrap() {
        assert!(table["rows"].as_u64().unwrap() <= 3, "{table}");
    }
}

#[test]
fn by_default_only_tasks_without_data_are_generated() {
    let dir = tempfile::tempdir().unwrap();
    let suite = fixtures().join("mini-suite");
    let out = dir.path().join("out");
    let output = run(&[
        "synth",
        "--suite",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        out.join("data/blog").is_dir(),
        "blog has no data: generated"
    );
    assert!(
        !out.join("data/shop").exists(),
        "shop ships data: left alone"
    );
}

#[test]
fn an_unknown_task_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let output = synth(dir.path(), &["--tasks", "adress"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("no task `adress` in the suite (did you mean address"),
        "{stderr}"
    );
}
