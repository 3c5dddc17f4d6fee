//! `eltbench report JOB`: regenerates a job's reports from its directory:
//! the terminal summary (stdout), `report.md`, the self-contained
//! `report.html` and each trial's `trials/<id>/trajectory.html`.
//!
//! Reads `results.jsonl` (and `job.json`, the suite it names, trajectories);
//! never changes a record. Exit 0 when written, 2 when JOB is not a job
//! directory, 1 when a file cannot be read or written.

use std::path::PathBuf;
use std::process::ExitCode;

use eltbench_report::{RESULTS_FILE, render_terminal, write_reports};

use crate::printer::{BadInput, Printer};

/// Regenerate a job's terminal summary, report.md and report.html.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The job directory (holding `results.jsonl`).
    pub job: PathBuf,
}

pub fn run(args: ReportArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    check_job_dir(&args.job)?;
    let (report, written) = write_reports(&args.job)?;
    if printer.is_json() {
        printer.json_out(&report)?;
    } else {
        printer.out(render_terminal(&report).trim_end());
    }
    printer.info(&format!(
        "wrote {} and {} ({} trial pages)",
        written.markdown.display(),
        written.html.display(),
        written.pages.len()
    ));
    Ok(ExitCode::SUCCESS)
}

/// JOB must be a directory with a `results.jsonl` (bad input otherwise).
pub fn check_job_dir(job: &std::path::Path) -> anyhow::Result<()> {
    if !job.is_dir() {
        return Err(BadInput(format!("{} is not a job directory", job.display())).into());
    }
    if !job.join(RESULTS_FILE).is_file() {
        return Err(BadInput(format!(
            "{} has no {RESULTS_FILE}: not a job directory (or no trial finished yet)",
            job.display()
        ))
        .into());
    }
    Ok(())
}
