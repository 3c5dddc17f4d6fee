//! Job reports for eltbench: the `results.jsonl` line format
//! ([`TrialRecord`]), the aggregate of a job's trials ([`JobReport`]:
//! SRDEL, SRDT, pass@k / pass^k, SRDEL by source kind, per-task SRDT, the
//! paper's error taxonomy, cost and steps), and three renderers: aligned
//! terminal tables, `report.md`, and a self-contained `report.html` with
//! inline SVG charts, plus one page per trial with its trajectory.
//!
//! Output is deterministic: sorted, no clock read. This crate never scores
//! a warehouse (eltbench-score does) and never runs trials (the harness
//! does); it only reads their records and writes reports.

mod aggregate;
mod error;
mod format;
mod html;
mod job;
mod markdown;
pub mod record;
mod stats;
mod suite;
mod tables;
mod taxonomy;
mod terminal;
mod trajectory;
mod write;

pub use aggregate::{HarnessFailure, JobReport, TaskRow, Tokens, TrialCounts, TrialRow};
pub use error::ReportError;
pub use html::{render_html, render_trajectory};
pub use job::JobInfo;
pub use markdown::render_markdown;
pub use record::{AGENT_FINISHED, AgentStatus, HARNESS_FAILURE, TrialRecord, parse_results};
pub use stats::Stats;
pub use suite::SuiteInfo;
pub use taxonomy::{KindKey, KindTables, Stage2Errors};
pub use terminal::render_terminal;
pub use trajectory::{TRAJECTORY_FILES, Trajectory, load_trajectory, trajectory_path};
pub use write::{
    HTML_FILE, JOB_FILE, MARKDOWN_FILE, RESULTS_FILE, TRAJECTORY_PAGE, TRIALS_DIR, Written,
    load_job, load_report, read_records, trial_page, trial_page_html, write_reports,
};
