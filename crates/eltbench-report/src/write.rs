//! Reading a job directory (`job.json`, optional; `results.jsonl`) and
//! writing its `report.md` and `report.html` beside them.
//!
//! The suite named by `job.json` (`suite`, absolute or relative to the job
//! directory) gives each table's source kind; without one, kinds show as
//! `unknown`. This module never changes `results.jsonl` or `job.json`.

use std::fs;
use std::path::{Path, PathBuf};

use eltbench_task::Suite;

use crate::aggregate::JobReport;
use crate::error::ReportError;
use crate::html::render_html;
use crate::job::JobInfo;
use crate::markdown::render_markdown;
use crate::record::{TrialRecord, parse_results};
use crate::suite::SuiteInfo;

/// The per-trial results file of a job directory.
pub const RESULTS_FILE: &str = "results.jsonl";
/// The job description file of a job directory.
pub const JOB_FILE: &str = "job.json";
/// The Markdown report written.
pub const MARKDOWN_FILE: &str = "report.md";
/// The HTML report written.
pub const HTML_FILE: &str = "report.html";

/// The files [`write_reports`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// `report.md`.
    pub markdown: PathBuf,
    /// `report.html`.
    pub html: PathBuf,
}

/// Reads `job_dir` and writes `report.md` and `report.html` into it,
/// returning the report for the caller to print.
pub fn write_reports(job_dir: &Path) -> Result<(JobReport, Written), ReportError> {
    let report = load_report(job_dir)?;
    let written = Written {
        markdown: job_dir.join(MARKDOWN_FILE),
        html: job_dir.join(HTML_FILE),
    };
    write(&written.markdown, &render_markdown(&report))?;
    write(&written.html, &render_html(&report))?;
    Ok((report, written))
}

/// Reads `job_dir` into a report without writing anything.
pub fn load_report(job_dir: &Path) -> Result<JobReport, ReportError> {
    let job = read_job(job_dir)?;
    let records = read_records(&job_dir.join(RESULTS_FILE))?;
    let suite = match job.suite_dir(job_dir) {
        Some(dir) => load_suite(&dir, &job_dir.join(JOB_FILE))?,
        None => SuiteInfo::default(),
    };
    let fallback = job_dir
        .file_name()
        .map_or_else(|| "eltbench job".into(), |n| n.to_string_lossy());
    Ok(JobReport::from_records(&records, &suite).with_job(&job, &fallback))
}

/// Reads and parses a `results.jsonl`.
pub fn read_records(path: &Path) -> Result<Vec<TrialRecord>, ReportError> {
    parse_results(&read(path)?, path)
}

fn read_job(job_dir: &Path) -> Result<JobInfo, ReportError> {
    let path = job_dir.join(JOB_FILE);
    if !path.exists() {
        return Ok(JobInfo::default());
    }
    JobInfo::parse(&read(&path)?, &path)
}

fn load_suite(dir: &Path, job: &Path) -> Result<SuiteInfo, ReportError> {
    let suite = Suite::load_lenient(dir).map_err(|source| ReportError::Suite {
        suite: dir.to_path_buf(),
        job: job.to_path_buf(),
        source,
    })?;
    Ok(SuiteInfo::from_suite(&suite))
}

fn read(path: &Path) -> Result<String, ReportError> {
    fs::read_to_string(path).map_err(|source| ReportError::Read {
        path: path.to_path_buf(),
        source,
    })
}

fn write(path: &Path, text: &str) -> Result<(), ReportError> {
    fs::write(path, text).map_err(|source| ReportError::Write {
        path: path.to_path_buf(),
        source,
    })
}
