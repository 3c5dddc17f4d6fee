//! `job.json`: the spec, the eltbench version, the host and the job's
//! status. Written before any trial starts, so every job directory says what
//! it is; rewritten (atomically) when the job stops.
//!
//! A job directory is only ever reused with the spec it was created with.

use serde::{Deserialize, Serialize};

use crate::layout::{read_json, write_json_atomic};
use crate::{HarnessError, JobDir, JobSpec};

/// Where a job stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    /// A process is running it (or was, and died: resume it).
    Running,
    /// Every trial has a result.
    Completed,
    /// Stopped by Ctrl-C / SIGTERM: resume it.
    Interrupted,
}

/// The contents of `job.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobFile {
    /// The eltbench version that created the job.
    pub eltbench_version: String,
    /// Where the job stands.
    pub status: JobStatus,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339, last status change.
    pub updated_at: String,
    /// How many times a process started on the job (1 + resumes).
    pub runs: u32,
    /// The machine of the last run.
    pub host: HostInfo,
    /// The job.
    pub spec: JobSpec,
}

/// The machine a job ran on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostInfo {
    /// Host name.
    pub hostname: String,
    /// `linux`, `macos`, ...
    pub os: String,
    /// `x86_64`, `aarch64`, ...
    pub arch: String,
    /// Available parallelism.
    pub cpus: usize,
}

impl HostInfo {
    /// This machine.
    pub fn current() -> Self {
        let hostname = nix::unistd::gethostname()
            .ok()
            .and_then(|h| h.into_string().ok())
            .unwrap_or_default();
        Self {
            hostname,
            os: std::env::consts::OS.into(),
            arch: std::env::consts::ARCH.into(),
            cpus: std::thread::available_parallelism().map_or(1, usize::from),
        }
    }
}

/// Reads `job.json` of `dir`.
pub fn read(dir: &JobDir) -> Result<JobFile, HarnessError> {
    let path = dir.job_file();
    if !path.exists() {
        return Err(HarnessError::NotAJob {
            path: dir.root().to_path_buf(),
        });
    }
    read_json(&path)
}

/// Creates `job.json` for `spec`, or reopens the job `dir` holds (which must
/// have the same spec), marking it running.
pub(crate) fn start(dir: &JobDir, spec: &JobSpec) -> Result<JobFile, HarnessError> {
    let now = now();
    let file = if dir.job_file().exists() {
        let mut file = read(dir)?;
        check_same(dir, &file.spec, spec)?;
        file.runs += 1;
        file.status = JobStatus::Running;
        file.updated_at = now;
        file.host = HostInfo::current();
        file
    } else {
        JobFile {
            eltbench_version: env!("CARGO_PKG_VERSION").into(),
            status: JobStatus::Running,
            created_at: now.clone(),
            updated_at: now,
            runs: 1,
            host: HostInfo::current(),
            spec: spec.clone(),
        }
    };
    write_json_atomic(&dir.job_file(), &file)?;
    Ok(file)
}

/// Records the job's new status.
pub(crate) fn finish(
    dir: &JobDir,
    mut file: JobFile,
    status: JobStatus,
) -> Result<JobFile, HarnessError> {
    file.status = status;
    file.updated_at = now();
    write_json_atomic(&dir.job_file(), &file)?;
    Ok(file)
}

fn check_same(dir: &JobDir, old: &JobSpec, new: &JobSpec) -> Result<(), HarnessError> {
    let (Ok(serde_json::Value::Object(old)), Ok(serde_json::Value::Object(new))) =
        (serde_json::to_value(old), serde_json::to_value(new))
    else {
        return Err(HarnessError::InvalidSpec(
            "spec is not a JSON object".into(),
        ));
    };
    match old.iter().find(|(key, value)| new.get(*key) != Some(value)) {
        Some((field, _)) => Err(HarnessError::SpecMismatch {
            path: dir.job_file(),
            field: field.clone(),
        }),
        None => Ok(()),
    }
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reopening_keeps_creation_and_rejects_another_spec() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = JobDir::new(tmp.path());
        let spec = JobSpec::new("/s", "oracle", vec!["a".into()]);
        let first = start(&dir, &spec).unwrap();
        let done = finish(&dir, first.clone(), JobStatus::Interrupted).unwrap();
        assert_eq!(read(&dir).unwrap(), done);
        let again = start(&dir, &spec).unwrap();
        assert_eq!(again.created_at, first.created_at);
        assert_eq!((again.runs, again.status), (2, JobStatus::Running));
        let mut other = spec.clone();
        other.k = 3;
        let err = start(&dir, &other).unwrap_err();
        assert!(err.to_string().contains("different `k`"), "{err}");
    }

    #[test]
    fn a_directory_without_job_json_is_not_a_job() {
        let tmp = tempfile::tempdir().unwrap();
        let err = read(&JobDir::new(tmp.path())).unwrap_err();
        assert!(matches!(err, HarnessError::NotAJob { .. }));
    }
}
