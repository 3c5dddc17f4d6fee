//! Reading a job directory and writing its reports.

mod common;

use std::fs;
use std::path::Path;

use eltbench_report::{TrialRecord, load_report, write_reports};

fn write_job(dir: &Path, records: &[TrialRecord], job: Option<&str>) {
    let lines: Vec<String> = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
    fs::write(dir.join("results.jsonl"), lines.join("\n") + "\n").unwrap();
    if let Some(job) = job {
        fs::write(dir.join("job.json"), job).unwrap();
    }
}

#[test]
fn writes_markdown_and_html_beside_the_results() {
    let dir = tempfile::tempdir().unwrap();
    write_job(
        dir.path(),
        &common::sample_records(),
        Some(r#"{"name":"nightly & co","k":3}"#),
    );
    let (report, written) = write_reports(dir.path()).unwrap();
    assert_eq!(report.title, "nightly & co");
    assert_eq!(report.trials.total, 10);
    let md = fs::read_to_string(&written.markdown).unwrap();
    assert!(md.starts_with("# nightly &amp; co\n"), "{md}");
    let html = fs::read_to_string(&written.html).unwrap();
    assert!(html.contains("<h1>nightly &amp; co</h1>"));
    // Without a suite in job.json, every table's kind is unknown.
    assert!(
        md.contains("| unknown | 19 | 16 | 1 | 1 | 1 | 84.2% (16/19) |"),
        "{md}"
    );
}

#[test]
fn without_job_json_the_directory_names_the_job() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("job-7");
    fs::create_dir(&dir).unwrap();
    write_job(&dir, &common::sample_records()[..2], None);
    assert_eq!(load_report(&dir).unwrap().title, "job-7");
}

#[test]
fn suite_named_in_job_json_gives_source_kinds() {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench");
    let suite = suite.canonicalize().unwrap();
    let tasks = eltbench_task::Suite::load_lenient(&suite).unwrap();
    let task = tasks.tasks().next().unwrap();
    let tables: Vec<(String, eltbench_score::TableStatus)> = task
        .source_tables()
        .iter()
        .map(|t| (t.name.clone(), common::ok(1)))
        .collect();
    let tables: Vec<(&str, _)> = tables
        .iter()
        .map(|(n, s)| (n.as_str(), s.clone()))
        .collect();
    let score = common::task_score(&task.db, &tables, &[]);
    let dir = tempfile::tempdir().unwrap();
    let job = serde_json::json!({ "job_id": "j", "suite": suite }).to_string();
    write_job(
        dir.path(),
        &[common::record(&task.db, 1, "finished", 3, 0.1, Some(score))],
        Some(&job),
    );
    let report = load_report(dir.path()).unwrap();
    let kinds: Vec<_> = report.by_kind.iter().map(|k| k.kind).collect();
    let expected: std::collections::BTreeSet<_> = task.source_kinds();
    assert_eq!(
        kinds,
        expected
            .into_iter()
            .map(eltbench_report::KindKey::Known)
            .collect::<Vec<_>>()
    );
}

#[test]
fn malformed_line_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    write_job(dir.path(), &common::sample_records()[..2], None);
    let path = dir.path().join("results.jsonl");
    let mut text = fs::read_to_string(&path).unwrap();
    text.push_str("{\"trial_id\": \"x\", \"db\": 7}\n");
    fs::write(&path, text).unwrap();
    let err = write_reports(dir.path()).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{}:3: not a trial record", path.display())),
        "{err}"
    );
    assert!(!dir.path().join("report.md").exists());
}

#[test]
fn missing_results_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let err = write_reports(dir.path()).unwrap_err().to_string();
    assert!(err.contains("results.jsonl"), "{err}");
}
