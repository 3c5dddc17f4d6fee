//! The live progress bar of a job on a terminal: trials done of total,
//! running, SRDEL passes so far, elapsed; each finished trial's line is
//! printed above the bar.
//!
//! Display only; it must never be used when stderr is not a terminal.

use std::io::Write;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};

use crate::progress::{Progress, job_line, trial_line};
use crate::resume::Records;
use crate::{JobSummary, TrialId, TrialRecord};

const TEMPLATE: &str = "{spinner} {elapsed_precise} [{bar:30}] {pos}/{len} {msg}";

/// A bar on stderr.
#[derive(Debug)]
pub struct Bar {
    bar: ProgressBar,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    running: usize,
    passed: usize,
    finished: usize,
}

impl Bar {
    /// A hidden bar until the job starts.
    pub fn new() -> Self {
        let bar = ProgressBar::new(0);
        if let Ok(style) = ProgressStyle::with_template(TEMPLATE) {
            bar.set_style(style.progress_chars("=> "));
        }
        Self {
            bar,
            counts: Mutex::new(Counts::default()),
        }
    }

    fn update(&self, change: impl FnOnce(&mut Counts)) {
        if let Ok(mut counts) = self.counts.lock() {
            change(&mut counts);
            self.bar.set_message(format!(
                "running {} | SRDEL pass {}/{}",
                counts.running, counts.passed, counts.finished
            ));
        }
    }
}

impl Default for Bar {
    fn default() -> Self {
        Self::new()
    }
}

fn passed(record: &TrialRecord) -> bool {
    record.score.as_ref().is_some_and(|s| s.srdel.passed)
}

impl Progress for Bar {
    fn job_started(&self, total: usize, resumed: &Records) {
        self.bar.set_length(total as u64);
        self.bar.set_position(resumed.len() as u64);
        self.bar
            .enable_steady_tick(std::time::Duration::from_millis(200));
        self.update(|c| {
            c.finished = resumed.len();
            c.passed = resumed.values().filter(|r| passed(r)).count();
        });
    }

    fn trial_started(&self, _id: &TrialId) {
        self.update(|c| c.running += 1);
    }

    fn trial_finished(&self, done: usize, total: usize, record: &TrialRecord) {
        self.bar.println(trial_line(done, total, record));
        self.bar.set_position(done as u64);
        self.update(|c| {
            c.running = c.running.saturating_sub(1);
            c.finished += 1;
            c.passed += usize::from(passed(record));
        });
    }

    fn trial_interrupted(&self, _id: &TrialId) {
        self.update(|c| c.running = c.running.saturating_sub(1));
    }

    fn job_finished(&self, summary: &JobSummary) {
        self.bar.finish_and_clear();
        let _ = writeln!(std::io::stderr(), "{}", job_line(summary));
    }
}
