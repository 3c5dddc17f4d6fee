//! `eltbench tasks list|show|validate` run as a user would: on the fixture
//! suite (snapshots), on the original 100 tasks, and on broken suites built
//! in a temporary directory (exit code 2, file:line messages, no panic).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../eltbench-task/tests/fixtures")
}

fn elt_bench() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench")
}

/// Runs `eltbench <args>` in `dir`.
fn run(dir: &Path, args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_eltbench"))
        .args(args)
        .current_dir(dir)
        .env_remove("ELTBENCH_SUITE")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "eltbench panicked: {stderr}");
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[test]
fn list_json() {
    let output = run(
        &fixtures(),
        &["--json", "tasks", "list", "--suite", "mini-suite"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn list_text() {
    let output = run(&fixtures(), &["tasks", "list", "--suite", "mini-suite"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn show_json() {
    let output = run(
        &fixtures(),
        &["--json", "tasks", "show", "--suite", "mini-suite", "shop"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn show_text() {
    let output = run(
        &fixtures(),
        &["tasks", "show", "--suite", "mini-suite", "blog"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn validate_json() {
    let output = run(
        &fixtures(),
        &["--json", "tasks", "validate", "--suite", "mini-suite"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn validate_text() {
    let output = run(&fixtures(), &["tasks", "validate", "--suite", "mini-suite"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn show_unknown_task_suggests_near_names() {
    let output = run(
        &fixtures(),
        &["tasks", "show", "--suite", "mini-suite", "shopp"],
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "error: no task `shopp` in suite mini-suite (2 tasks); did you mean: shop?\n"
    );
}

#[test]
fn the_original_suite_validates_with_warnings_only() {
    let suite = elt_bench();
    let output = run(
        &fixtures(),
        &["tasks", "validate", "--suite", suite.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let text = stdout(&output);
    let summary = text.lines().last().unwrap();
    assert!(
        summary.starts_with("100 tasks, 835 source tables, 203 models: 0 errors, "),
        "{summary}"
    );
    assert!(
        text.lines()
            .rev()
            .skip(1)
            .all(|l| l.contains(": warning: ")),
        "{text}"
    );

    let output = run(
        &fixtures(),
        &[
            "--json",
            "tasks",
            "list",
            "--suite",
            suite.to_str().unwrap(),
        ],
    );
    let rows: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 100);
    assert_eq!(
        rows.iter()
            .filter(|r| r["data"] == "yes" && r["ground_truth"] == "yes")
            .count(),
        22
    );
}

#[test]
fn a_missing_suite_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    for action in [&["list"][..], &["show", "x"], &["validate"]] {
        let args: Vec<&str> = ["tasks"]
            .iter()
            .chain(action)
            .chain(&["--suite", "nowhere"])
            .copied()
            .collect();
        let output = run(dir.path(), &args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&output),
            "error: nowhere: not an ELT-Bench suite: no such directory\n"
        );
    }
    let output = run(dir.path(), &["tasks", "validate", "--suite", "."]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("it has no `tasks/` directory"),
        "{}",
        stderr(&output)
    );
}

/// A copy of the fixture suite in a temporary directory, to break.
fn broken_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixtures().join("mini-suite"), &dir.path().join("s"));
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Validates the broken copy: exit 2, and `expected` is one of the
/// problem lines on stdout.
fn assert_invalid(dir: &Path, expected: &str) {
    let output = run(dir, &["tasks", "validate", "--suite", "s"]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    let text = stdout(&output);
    assert!(
        text.lines().any(|l| l == expected),
        "no line {expected:?} in:\n{text}"
    );
    assert!(
        stderr(&output).starts_with("error: suite s has "),
        "{}",
        stderr(&output)
    );
}

#[test]
fn broken_yaml_is_reported_with_its_line() {
    let dir = broken_copy();
    let path = dir.path().join("s/tasks/blog/data_model.yaml");
    std::fs::write(&path, "models:\n  - name: blog__authors\n    columns: [\n").unwrap();
    let output = run(dir.path(), &["tasks", "validate", "--suite", "s"]);
    let line = stdout(&output)
        .lines()
        .find(|l| l.starts_with("s/tasks/blog/data_model.yaml:4: error: invalid YAML"))
        .map(str::to_owned);
    assert!(line.is_some(), "{}", stdout(&output));
    assert_eq!(output.status.code(), Some(2));
    // list skips the broken task with a warning instead of failing.
    let output = run(dir.path(), &["tasks", "list", "--suite", "s"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr(&output)
            .contains("warning: skipped: s/tasks/blog/data_model.yaml:4: error: invalid YAML"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_missing_schema_file_is_reported_on_the_table_line() {
    let dir = broken_copy();
    std::fs::remove_file(dir.path().join("s/tasks/shop/schemas/items.csv")).unwrap();
    assert_invalid(
        dir.path(),
        "s/tasks/shop/config.yaml:12: error: table `items` has no schema file `schemas/items.csv`",
    );
}

#[test]
fn a_ragged_ground_truth_row_is_reported_on_its_line() {
    let dir = broken_copy();
    std::fs::write(
        dir.path().join("s/gt/shop/shop__orders.csv"),
        "order_id,customer_name,total\n1,a,2\n2,b\n",
    )
    .unwrap();
    assert_invalid(
        dir.path(),
        "s/gt/shop/shop__orders.csv:3: error: row has 2 fields, the header has 3",
    );
}

#[test]
fn an_unknown_source_kind_is_reported_on_its_line() {
    let dir = broken_copy();
    let path = dir.path().join("s/tasks/blog/config.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        format!("{text}oracle:\n  config:\n    tables:\n    - posts\n"),
    )
    .unwrap();
    assert_invalid(
        dir.path(),
        "s/tasks/blog/config.yaml:37: error: unknown source kind `oracle` (known: postgres, mongodb, custom_api, aws_s3, flat_files)",
    );
}

#[test]
fn a_duplicate_table_is_reported_on_its_second_line() {
    let dir = broken_copy();
    let path = dir.path().join("s/tasks/shop/config.yaml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("    - customers\n", "    - customers\n    - items\n");
    std::fs::write(&path, text).unwrap();
    assert_invalid(
        dir.path(),
        "s/tasks/shop/config.yaml:24: error: duplicate table `items` (postgres); already listed as `items` (flat_files) at line 12",
    );
}
