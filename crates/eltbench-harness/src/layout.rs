//! The job directory on disk:
//!
//! ```text
//! <job>/job.json                 spec, version, host, status (written first)
//! <job>/job.lock                 held while a process runs the job
//! <job>/results.jsonl            one line per finished trial
//! <job>/trials/<db>__<i>/result.json   written last, atomically, only when the trial finished
//! <job>/trials/<db>__<i>/trial.log     the harness's own log of the trial
//! <job>/trials/<db>__<i>/{trajectory.jsonl, agent.log, dbt.log, sync.log, workspace/}
//! ```
//!
//! Files that others read while a job runs are replaced atomically (temp
//! file + rename), never rewritten in place.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use nix::fcntl::{Flock, FlockArg};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{HarnessError, TrialId};

/// A job directory.
#[derive(Debug, Clone)]
pub struct JobDir {
    root: PathBuf,
}

impl JobDir {
    /// The job directory at `root` (nothing is created).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// Its root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `job.json`.
    pub fn job_file(&self) -> PathBuf {
        self.root.join("job.json")
    }

    /// `results.jsonl`.
    pub fn results(&self) -> PathBuf {
        self.root.join("results.jsonl")
    }

    /// `trials/`.
    pub fn trials(&self) -> PathBuf {
        self.root.join("trials")
    }

    /// The directory of one trial.
    pub fn trial(&self, id: &TrialId) -> TrialDir {
        TrialDir {
            root: self.trials().join(id.dir_name()),
        }
    }

    /// Takes the job's lock (released when the guard drops, or by the OS when
    /// the process dies), failing if another process holds it.
    pub fn lock(&self) -> Result<Flock<File>, HarnessError> {
        let path = self.root.join("job.lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| HarnessError::io(&path, e))?;
        Flock::lock(file, FlockArg::LockExclusiveNonblock).map_err(|_| HarnessError::Busy { path })
    }
}

/// The directory of one trial.
#[derive(Debug, Clone)]
pub struct TrialDir {
    root: PathBuf,
}

impl TrialDir {
    /// Its root.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// `result.json`: exists only when the trial finished.
    pub fn result(&self) -> PathBuf {
        self.root.join("result.json")
    }

    /// `trial.log`: the harness's log of the trial.
    pub fn trial_log(&self) -> PathBuf {
        self.root.join("trial.log")
    }

    /// `trajectory.jsonl`: the agent's steps.
    pub fn trajectory(&self) -> PathBuf {
        self.root.join("trajectory.jsonl")
    }

    /// `agent.log`: the agent's own output.
    pub fn agent_log(&self) -> PathBuf {
        self.root.join("agent.log")
    }

    /// `dbt.log`.
    pub fn dbt_log(&self) -> PathBuf {
        self.root.join("dbt.log")
    }

    /// `sync.log`: the Airbyte sync engine's log.
    pub fn sync_log(&self) -> PathBuf {
        self.root.join("sync.log")
    }

    /// `workspace/`: the agent's working directory.
    pub fn workspace(&self) -> PathBuf {
        self.root.join("workspace")
    }

    /// Appends one line to `trial.log` (best effort: a log line is never
    /// worth failing a trial for).
    pub fn log(&self, line: &str) {
        let stamp = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.3fZ");
        let _ = append_line(&self.trial_log(), &format!("{stamp} {line}"));
    }
}

/// Writes `value` as pretty JSON to `path` atomically: a temp file beside
/// it, flushed to disk, then renamed over it.
pub(crate) fn write_json_atomic(path: &Path, value: &impl Serialize) -> Result<(), HarnessError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|source| HarnessError::Json {
        path: path.to_path_buf(),
        source,
    })?;
    bytes.push(b'\n');
    write_atomic(path, &bytes)
}

/// Writes `bytes` to `path` atomically.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), HarnessError> {
    let tmp = path.with_extension("tmp");
    let io = |e| HarnessError::io(path, e);
    let mut file = File::create(&tmp).map_err(io)?;
    file.write_all(bytes).map_err(io)?;
    file.sync_all().map_err(io)?;
    fs::rename(&tmp, path).map_err(io)
}

/// Reads a JSON file the harness wrote.
pub(crate) fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, HarnessError> {
    let text = fs::read_to_string(path).map_err(|e| HarnessError::io(path, e))?;
    serde_json::from_str(&text).map_err(|source| HarnessError::Json {
        path: path.to_path_buf(),
        source,
    })
}

/// Appends `line` and a newline to `path` in one write.
pub(crate) fn append_line(path: &Path, line: &str) -> Result<(), HarnessError> {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| HarnessError::io(path, e))?;
    file.write_all(format!("{line}\n").as_bytes())
        .map_err(|e| HarnessError::io(path, e))
}

/// Creates `path` and its parents.
pub(crate) fn create_dir(path: &Path) -> Result<(), HarnessError> {
    fs::create_dir_all(path).map_err(|e| HarnessError::io(path, e))
}

/// Removes `path` and everything in it, if it exists. A process that was
/// still writing there as it went (a server shutting down) makes the removal
/// fail with "directory not empty": it is tried again a few times.
pub(crate) fn remove_dir(path: &Path) -> Result<(), HarnessError> {
    let mut tries = 0;
    loop {
        match fs::remove_dir_all(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::DirectoryNotEmpty && tries < 10 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            Err(e) => return Err(HarnessError::io(path, e)),
            Ok(()) => return Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("result.json");
        write_json_atomic(&path, &serde_json::json!({"a": 1})).unwrap();
        write_json_atomic(&path, &serde_json::json!({"a": 2})).unwrap();
        let back: serde_json::Value = read_json(&path).unwrap();
        assert_eq!(back["a"], 2);
        let names: Vec<_> = fs::read_dir(tmp.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn second_lock_on_a_job_fails() {
        let tmp = tempfile::tempdir().unwrap();
        let job = JobDir::new(tmp.path());
        let held = job.lock().unwrap();
        assert!(matches!(job.lock(), Err(HarnessError::Busy { .. })));
        drop(held);
        assert!(job.lock().is_ok());
    }
}
