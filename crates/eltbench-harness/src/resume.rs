//! Picking a job up where it stopped: a trial with `result.json` is done
//! and kept; a trial directory without one was interrupted and is deleted
//! (after stopping whatever the killed run left working in it) so the trial
//! reruns from scratch; `results.jsonl` is rebuilt from the
//! `result.json` files so it never holds a duplicate or a torn line.
//!
//! Only planned trial directories are touched; anything else in `trials/`
//! is left alone.

use std::collections::BTreeMap;

use crate::layout::{create_dir, read_json, remove_dir, write_atomic};
use crate::leftovers::stop_leftovers;

/// How long leftovers of an interrupted trial get to shut down before SIGKILL.
const LEFTOVER_GRACE: std::time::Duration = std::time::Duration::from_secs(5);
use crate::{HarnessError, JobDir, TrialId, TrialRecord};

/// The finished trials of a job, by id.
pub type Records = BTreeMap<TrialId, TrialRecord>;

/// Reads the finished trials, deletes interrupted ones and rebuilds
/// `results.jsonl`.
pub(crate) fn prepare(dir: &JobDir, planned: &[TrialId]) -> Result<Records, HarnessError> {
    create_dir(&dir.trials())?;
    let records = load(dir, planned)?;
    for id in planned.iter().filter(|id| !records.contains_key(id)) {
        let trial = dir.trial(id);
        // a killed run may have left its PostgreSQL server (or dbt, or the
        // agent) working in there: stop it before the directory goes
        stop_leftovers(trial.path(), LEFTOVER_GRACE);
        remove_dir(trial.path())?;
    }
    rebuild_results(dir, &records)?;
    Ok(records)
}

/// Reads the `result.json` of every planned trial that has one.
pub fn load(dir: &JobDir, planned: &[TrialId]) -> Result<Records, HarnessError> {
    let mut records = Records::new();
    for id in planned {
        let path = dir.trial(id).result();
        if path.exists() {
            let record: TrialRecord = read_json(&path)?;
            records.insert(id.clone(), record);
        }
    }
    Ok(records)
}

/// Rewrites `results.jsonl` with one line per record, sorted by trial.
fn rebuild_results(dir: &JobDir, records: &Records) -> Result<(), HarnessError> {
    let path = dir.results();
    let mut text = String::new();
    for record in records.values() {
        let line = serde_json::to_string(record).map_err(|source| HarnessError::Json {
            path: path.clone(),
            source,
        })?;
        text.push_str(&line);
        text.push('\n');
    }
    write_atomic(&path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{append_line, write_json_atomic};

    fn record(id: &TrialId) -> TrialRecord {
        TrialRecord {
            trial_id: id.dir_name(),
            db: id.db.clone(),
            index: id.index,
            agent_status: "finished".into(),
            agent: Some(crate::AgentStatus::Finished),
            harness_attempts: 1,
            harness_errors: Vec::new(),
            steps: 1,
            input_tokens: 2,
            output_tokens: 1,
            cost_usd: 0.5,
            duration_s: 1.0,
            started_at: String::new(),
            finished_at: String::new(),
            sandboxed: Some(false),
            sandbox_mode: None,
            score: None,
        }
    }

    #[test]
    fn keeps_finished_deletes_partial_and_dedups_results() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = JobDir::new(tmp.path());
        let planned = [TrialId::new("a", 0), TrialId::new("a", 1)];
        let done = dir.trial(&planned[0]);
        create_dir(done.path()).unwrap();
        write_json_atomic(&done.result(), &record(&planned[0])).unwrap();
        let partial = dir.trial(&planned[1]);
        create_dir(partial.path()).unwrap();
        std::fs::write(partial.trial_log(), "started\n").unwrap();
        // A duplicated line and a torn one, as a kill -9 can leave them.
        let line = serde_json::to_string(&record(&planned[0])).unwrap();
        append_line(&dir.results(), &line).unwrap();
        append_line(&dir.results(), &line).unwrap();
        append_line(&dir.results(), "{\"trial\": \"a__1\", \"db").unwrap();

        let records = prepare(&dir, &planned).unwrap();
        assert_eq!(records.keys().collect::<Vec<_>>(), [&planned[0]]);
        assert!(!partial.path().exists());
        assert!(done.result().exists());
        let text = std::fs::read_to_string(dir.results()).unwrap();
        assert_eq!(text, format!("{line}\n"));
    }
}
