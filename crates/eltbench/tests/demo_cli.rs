//! `eltbench demo`, the README's first command: the oracle on the built-in
//! suite through `eltbench run`, reports written, 100% / 100% or exit 1.

mod run_support;

use run_support::{eltbench, repo, tempdir};

/// One built-in task end to end: gold pipeline, gold dbt models, scores,
/// reports. (`task_verify.rs` runs every built-in task's gold.)
#[test]
fn demo_on_one_builtin_task_reads_100_percent_and_writes_the_report() {
    let dir = tempdir();
    let out = dir.path().join("demo");
    let output = eltbench()
        .current_dir(repo())
        .args(["demo", "--tasks", "clinic", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("demo passed: SRDEL 100.0% (1/1 tasks), SRDT 100.0% (2/2 models)"),
        "{stdout}\n{stderr}"
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("clinic"), "the report names the task");
    assert!(stdout.contains("report.html"), "{stdout}");
}

/// A wrong gold model is not hidden: the demo exits 1 and says so.
#[test]
fn demo_with_a_broken_gold_model_fails() {
    let dir = tempdir();
    let suite = dir.path().join("suite");
    copy_dir(&repo().join("suites/builtin"), &suite);
    let model = suite.join("gold/clinic/models");
    let first = std::fs::read_dir(&model)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "sql"))
        .unwrap();
    std::fs::write(&first, "select 1 as nothing_useful\n").unwrap();
    let output = eltbench()
        .args(["demo", "--tasks", "clinic", "--suite"])
        .arg(&suite)
        .arg("--out")
        .arg(dir.path().join("demo"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("demo FAILED"), "{stderr}");
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
