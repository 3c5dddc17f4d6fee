//! `eltbench report JOB` on a fixture job directory: the terminal summary,
//! `report.md`, `report.html` (charts, taxonomy, sandboxed column, links to
//! trial pages) and each trial's `trajectory.html`; bad input exits 2.

mod report_support;

use std::path::Path;
use std::process::{Command, Output};

fn eltbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eltbench"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn report_writes_markdown_html_and_trial_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let job = tmp.path().join("job");
    let ids = report_support::write_job(&job);
    let out = eltbench(&["report", job.to_str().unwrap()]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.starts_with("fixture-job\n"), "{stdout}");
    assert!(
        stdout.contains("SRDEL") && stdout.contains("50.0% (1/2)"),
        "{stdout}"
    );
    assert!(stdout.contains("harness failures"), "{stdout}");
    assert!(stderr.contains("(3 trial pages)"), "{stderr}");

    let md = std::fs::read_to_string(job.join("report.md")).unwrap();
    assert!(md.contains("## Stage 1 (SRDEL) by source kind"), "{md}");
    assert!(md.contains("missing table") && md.contains("wrong count"));
    assert!(md.contains("missing columns"));
    let html = std::fs::read_to_string(job.join("report.html")).unwrap();
    assert_eq!(html.matches("<svg").count(), 5);
    assert!(!html.contains("unknown</"), "every table has a source kind");
    for id in &ids {
        assert!(
            html.contains(&format!("<a href=\"trials/{id}/trajectory.html\">{id}</a>")),
            "{id}"
        );
    }
    let page =
        std::fs::read_to_string(job.join("trials").join(&ids[0]).join("trajectory.html")).unwrap();
    assert!(page.contains("Steps (2)") && page.contains("action: bash"));
    assert!(page.contains("ls elt &amp;&amp; cat config.yaml"));
    assert!(page.contains("tokens 600 in / 100 out"));
    let failed =
        std::fs::read_to_string(job.join("trials").join(&ids[2]).join("trajectory.html")).unwrap();
    assert!(failed.contains("postgres did not start") && failed.contains("left no trajectory"));
}

#[test]
fn report_json_is_the_job_report() {
    let tmp = tempfile::tempdir().unwrap();
    report_support::write_job(tmp.path());
    let out = eltbench(&["--json", "report", tmp.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["trials"]["total"], 3);
    assert_eq!(json["trials"]["harness_failed"], 1);
    assert_eq!(json["trials"]["sandboxed"], 1);
    assert_eq!(json["rows"][0]["sandboxed"], true);
    assert_eq!(json["rows"][2]["sandboxed"], serde_json::Value::Null);
}

#[test]
fn report_on_a_directory_without_results_is_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let out = eltbench(&["report", tmp.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("has no results.jsonl"));
    let missing = tmp.path().join("nope");
    let out = eltbench(&["view", missing.to_str().unwrap(), "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is not a job directory"));
}

#[test]
fn a_malformed_results_line_names_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    report_support::write_job(tmp.path());
    let results = tmp.path().join("results.jsonl");
    let mut text_in = std::fs::read_to_string(&results).unwrap();
    text_in.push_str("{\"trial_id\": 1}\n");
    std::fs::write(&results, text_in).unwrap();
    let out = eltbench(&["report", tmp.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("results.jsonl:4"), "{stderr}");
    assert!(!Path::new(&tmp.path().join("report.html")).exists());
}
