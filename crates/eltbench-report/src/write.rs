//! Reading a job directory (`job.json`, optional; `results.jsonl`;
//! `trials/<id>/` with trajectories) and writing its `report.md` and
//! `report.html` beside them, and each trial's `trajectory.html`.
//!
//! The suite named by `job.json` (`suite`, absolute or relative to the job
//! directory) gives each table's source kind; without one, kinds show as
//! `unknown`. This module never changes `results.jsonl`, `job.json` or
//! anything an agent left in a trial directory.

use std::fs;
use std::path::{Path, PathBuf};

use eltbench_task::Suite;

use crate::aggregate::JobReport;
use crate::error::ReportError;
use crate::html::{render_html, render_trajectory};
use crate::job::JobInfo;
use crate::markdown::render_markdown;
use crate::record::{TrialRecord, parse_results};
use crate::suite::SuiteInfo;
use crate::trajectory::load_trajectory;

/// The per-trial results file of a job directory.
pub const RESULTS_FILE: &str = "results.jsonl";
/// The job description file of a job directory.
pub const JOB_FILE: &str = "job.json";
/// The Markdown report written.
pub const MARKDOWN_FILE: &str = "report.md";
/// The HTML report written.
pub const HTML_FILE: &str = "report.html";
/// The directory of the trial directories.
pub const TRIALS_DIR: &str = "trials";
/// Each trial's page, written into its directory.
pub const TRAJECTORY_PAGE: &str = "trajectory.html";

/// The page of a trial, relative to the job directory.
pub fn trial_page(trial_id: &str) -> String {
    format!("{TRIALS_DIR}/{trial_id}/{TRAJECTORY_PAGE}")
}

/// The files [`write_reports`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// `report.md`.
    pub markdown: PathBuf,
    /// `report.html`.
    pub html: PathBuf,
    /// Each trial's `trajectory.html` (trials with a directory).
    pub pages: Vec<PathBuf>,
}

/// Reads `job_dir` and writes `report.md` and `report.html` into it,
/// returning the report for the caller to print.
pub fn write_reports(job_dir: &Path) -> Result<(JobReport, Written), ReportError> {
    let (report, records) = load_job(job_dir)?;
    let mut written = Written {
        markdown: job_dir.join(MARKDOWN_FILE),
        html: job_dir.join(HTML_FILE),
        pages: Vec::new(),
    };
    write(&written.markdown, &render_markdown(&report))?;
    write(&written.html, &render_html(&report))?;
    for row in report.rows.iter().filter(|r| r.page.is_some()) {
        if let Some(page) = trial_page_html(job_dir, &records, &row.trial_id)? {
            let path = job_dir.join(trial_page(&row.trial_id));
            write(&path, &page)?;
            written.pages.push(path);
        }
    }
    Ok((report, written))
}

/// The page of trial `trial_id` of the job in `job_dir` (its record from
/// `records` and the trajectory in its directory); `None` when the job has
/// neither a record nor a directory for it, or the id is not a plain name.
pub fn trial_page_html(
    job_dir: &Path,
    records: &[TrialRecord],
    trial_id: &str,
) -> Result<Option<String>, ReportError> {
    if trial_id.is_empty() || trial_id.contains(['/', '\\']) || trial_id.starts_with('.') {
        return Ok(None);
    }
    let record = records.iter().find(|r| r.trial_id == trial_id);
    let dir = job_dir.join(TRIALS_DIR).join(trial_id);
    if record.is_none() && !dir.is_dir() {
        return Ok(None);
    }
    let trajectory = load_trajectory(&dir)?;
    Ok(Some(render_trajectory(
        trial_id,
        record,
        trajectory.as_ref(),
    )))
}

/// Reads `job_dir` into a report without writing anything.
pub fn load_report(job_dir: &Path) -> Result<JobReport, ReportError> {
    load_job(job_dir).map(|(report, _)| report)
}

/// Reads `job_dir` into its report (trial pages linked) and its records.
pub fn load_job(job_dir: &Path) -> Result<(JobReport, Vec<TrialRecord>), ReportError> {
    let job = read_job(job_dir)?;
    let records = read_records(&job_dir.join(RESULTS_FILE))?;
    let suite = match job.suite_dir(job_dir) {
        Some(dir) => load_suite(&dir, &job_dir.join(JOB_FILE))?,
        None => SuiteInfo::default(),
    };
    let fallback = job_dir
        .file_name()
        .map_or_else(|| "eltbench job".into(), |n| n.to_string_lossy());
    let report = JobReport::from_records(&records, &suite)
        .with_job(&job, &fallback)
        .link_pages(job_dir);
    Ok((report, records))
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
