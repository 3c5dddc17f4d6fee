//! What `result.json` and `results.jsonl` hold for one finished trial: the
//! one record format of eltbench, [`eltbench_report::TrialRecord`] (the
//! full score, every diagnostic), re-exported here for runners.
//!
//! This module only names things; it never writes a record itself.

pub use eltbench_report::{HARNESS_FAILURE, TrialRecord};

use crate::TrialId;

/// The id of the trial a record is about.
pub fn trial_id(record: &TrialRecord) -> TrialId {
    TrialId::new(record.db.clone(), record.index)
}
