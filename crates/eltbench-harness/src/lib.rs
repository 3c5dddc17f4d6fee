//! Jobs of ELT-Bench trials: an agent on a set of tasks, `k` trials each,
//! each trial in its own directory and environment, run in parallel under
//! wall-clock limits, resumable after a crash and interruptible with Ctrl-C.
//!
//! The harness owns the job directory, the schedule, limits, retries and
//! records; a [`TrialRunner`] (sources + Airbyte + agent + scorer) does the
//! trial's work. A runner's error is a `harness_failure`, never the agent's.
//!
//! The job machinery never starts services or agents itself and never scores
//! a warehouse: runners do. It never writes `result.json` for a trial that
//! did not finish. The one exception is [`oracle`], the stage-1 oracle: it
//! brings a task's sources and the Airbyte API up, applies a gold `main.tf`
//! generated from the task's config, syncs, and scores SRDEL (it is what a
//! runner for the `oracle` agent will call).

mod bar;
mod error;
mod jobfile;
mod layout;
mod leftovers;
pub mod oracle;
mod plan;
pub mod progress;
mod record;
mod resume;
mod run;
mod runner;
mod signals;
mod spec;
mod summary;
mod trial;

pub use bar::Bar;
pub use error::HarnessError;
pub use jobfile::{HostInfo, JobFile, JobStatus, read as read_job_file};
pub use layout::{JobDir, TrialDir};
pub use plan::{TrialId, check_tasks, plan};
pub use progress::{Lines, Progress, Silent};
pub use record::{HARNESS_FAILURE, TrialRecord, trial_id};
pub use resume::{Records, load as load_records};
pub use run::{resume_job, run_job, run_job_with};
pub use runner::{AgentStatus, TrialContext, TrialOutcome, TrialRunner};
pub use signals::{INTERRUPTED_EXIT_CODE, Interrupt, SignalListener};
pub use spec::{JobSpec, SandboxSettings, ScoreRule};
pub use summary::{JobSummary, Means, TrialCounts, UnitPassK, summarize, summarize_dir};
pub use trial::HARNESS_ATTEMPTS;
