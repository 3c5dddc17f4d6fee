//! Snapshots of the terminal and Markdown reports of the sample job.

mod common;

use eltbench_report::{JobInfo, JobReport, render_markdown, render_terminal};
use std::path::Path;

fn report() -> JobReport {
    let job = r#"{"job_id":"sample-job","agent":"oracle","model":"-","attempts":3,"suite":"../shared/elt-bench"}"#;
    let job = JobInfo::parse(job, Path::new("job.json")).unwrap();
    JobReport::from_records(&common::sample_records(), &common::suite_info())
        .with_job(&job, "fallback")
}

#[test]
fn terminal_report() {
    insta::assert_snapshot!(render_terminal(&report()));
}

#[test]
fn markdown_report() {
    insta::assert_snapshot!(render_markdown(&report()));
}

#[test]
fn empty_job_renders_without_panicking() {
    let report = JobReport::from_records(&[], &Default::default());
    let text = render_terminal(&report);
    let srdel = text.lines().find(|l| l.starts_with("SRDEL ")).unwrap();
    assert!(srdel.ends_with(" -"), "{srdel}");
    let cost = text.lines().find(|l| l.starts_with("total cost")).unwrap();
    assert!(cost.ends_with(" $0.0000"), "{cost}");
    assert!(text.contains("Trials\n"), "{text}");
    assert!(render_markdown(&report).contains("## Trials\n\n(none)"));
}
