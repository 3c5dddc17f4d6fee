//! Job reports for eltbench: the `results.jsonl` line format
//! ([`TrialRecord`]), the aggregate of a job's trials ([`JobReport`]:
//! SRDEL, SRDT, pass@k / pass^k, SRDEL by source kind, per-task SRDT, the
//! paper's error taxonomy, cost and steps), and three renderers: aligned
//! terminal tables, `report.md`, and a self-contained `report.html` with
//! inline SVG charts.
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
mod write;

pub use aggregate::{HarnessFailure, JobReport, TaskRow, Tokens, TrialCounts, TrialRow};
pub use error::ReportError;
pub use html::render_html;
pub use job::JobInfo;
pub use markdown::render_markdown;
pub use record::{AGENT_FINISHED, ScoreRecord, TrialRecord, parse_results};
pub use stats::Stats;
pub use suite::SuiteInfo;
pub use taxonomy::{KindKey, KindTables, Stage2Errors};
pub use terminal::render_terminal;
pub use write::{
    HTML_FILE, JOB_FILE, MARKDOWN_FILE, RESULTS_FILE, Written, load_report, read_records,
    write_reports,
};
