//! The trials of a job: every task × `0..k`, with deterministic ids and a
//! deterministic order (all tasks' trial 0 first, then trial 1, ..., tasks
//! sorted), so early results cover every task.
//!
//! Planning is pure: it never looks at the job directory (see `resume`).

use std::collections::BTreeSet;
use std::fmt;

use eltbench_task::Suite;
use serde::{Deserialize, Serialize};

use crate::{HarnessError, JobSpec};

/// One trial: a task and its index in `0..k`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TrialId {
    /// The task (database name).
    pub db: String,
    /// The trial index, `0..k`.
    pub index: u32,
}

impl TrialId {
    /// A trial id.
    pub fn new(db: impl Into<String>, index: u32) -> Self {
        Self {
            db: db.into(),
            index,
        }
    }

    /// Its directory name under `trials/`: `<db>__<index>`.
    pub fn dir_name(&self) -> String {
        format!("{}__{}", self.db, self.index)
    }

    /// The trial's seed, derived from the job seed, the task and the index
    /// (FNV-1a, so it is the same on every platform and every run).
    pub fn seed(&self, job_seed: u64) -> u64 {
        const PRIME: u64 = 0x0100_0000_01b3;
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ job_seed;
        let index = self.index.to_le_bytes();
        for b in self.db.bytes().chain([0]).chain(index) {
            h = (h ^ u64::from(b)).wrapping_mul(PRIME);
        }
        h
    }
}

impl fmt::Display for TrialId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.db, self.index)
    }
}

/// The trials of `spec`, in run order.
pub fn plan(spec: &JobSpec) -> Vec<TrialId> {
    let tasks: BTreeSet<&String> = spec.tasks.iter().collect();
    (0..spec.k)
        .flat_map(|i| tasks.iter().map(move |db| TrialId::new(*db, i)))
        .collect()
}

/// Fails on the first task of `spec` that `suite` does not have.
pub fn check_tasks(spec: &JobSpec, suite: &Suite) -> Result<(), HarnessError> {
    match spec.tasks.iter().find(|db| suite.task(db).is_none()) {
        Some(db) => Err(HarnessError::UnknownTask {
            db: db.clone(),
            suite: suite.root().to_path_buf(),
            near: suite.near_task_names(db),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_every_task_k_times_in_a_stable_order() {
        let mut spec = JobSpec::new("/s", "a", vec!["b".into(), "a".into(), "b".into()]);
        spec.k = 2;
        let ids: Vec<String> = plan(&spec).iter().map(TrialId::dir_name).collect();
        assert_eq!(ids, ["a__0", "b__0", "a__1", "b__1"]);
        assert_eq!(plan(&spec)[3].to_string(), "b#1");
    }

    #[test]
    fn seeds_differ_per_trial_and_are_stable() {
        let a0 = TrialId::new("a", 0);
        assert_eq!(a0.seed(7), TrialId::new("a", 0).seed(7));
        assert_ne!(a0.seed(7), TrialId::new("a", 1).seed(7));
        assert_ne!(a0.seed(7), a0.seed(8));
        assert_ne!(TrialId::new("ab", 0).seed(0), TrialId::new("a", 0).seed(0));
    }
}
