//! What a job is: the suite, the agent, the tasks, `k` trials per task,
//! the concurrency and the per-trial limits. Stored verbatim in `job.json`
//! so that `--resume` runs exactly the same job.
//!
//! This module validates and serializes; it never touches the file system.

use std::path::PathBuf;
use std::time::Duration;

use eltbench_score::Compat;
use serde::{Deserialize, Serialize};

use crate::HarnessError;

/// The spec of one job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobSpec {
    /// The suite directory.
    pub suite: PathBuf,
    /// The agent, as given on the command line (`oracle`, `command:...`, ...).
    pub agent: String,
    /// The tasks (database names); run in sorted order, duplicates ignored.
    pub tasks: Vec<String>,
    /// Trials per task.
    pub k: u32,
    /// Trials running at once.
    pub concurrency: usize,
    /// Wall-clock limit of one trial (seconds in JSON).
    #[serde(rename = "timeout_s", with = "seconds")]
    pub timeout: Duration,
    /// How long a cancelled trial may take to stop its agent and services.
    #[serde(rename = "grace_s", with = "seconds")]
    pub grace: Duration,
    /// Step limit handed to the agent.
    pub max_steps: Option<u32>,
    /// Cost limit (USD) handed to the agent.
    pub max_cost_usd: Option<f64>,
    /// The stage-2 scoring rule.
    pub compat: ScoreRule,
    /// The job seed; each trial derives its own (see [`crate::TrialContext::seed`]).
    pub seed: u64,
    /// The agents' sandbox and resource limits (`None` in a `job.json` written
    /// before they were stored: the flags given at resume time apply).
    #[serde(default)]
    pub sandbox: Option<SandboxSettings>,
}

/// The sandbox flags of `eltbench run`, kept so that `--resume` runs the
/// remaining trials under the same isolation and limits. The wall limit is
/// the job's `timeout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxSettings {
    /// `false`: `--no-sandbox`.
    pub enabled: bool,
    /// Memory of one trial's agent processes together.
    pub memory_bytes: u64,
    /// CPU time of one trial's agent processes together.
    pub cpu_seconds: u64,
    /// Processes and threads at once.
    pub max_processes: u64,
    /// Disk the agent may write.
    pub disk_write_bytes: u64,
}

/// The stage-2 rule, as stored in `job.json`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreRule {
    /// [`Compat::Fixed`].
    #[default]
    Fixed,
    /// [`Compat::Original`].
    Original,
}

impl From<ScoreRule> for Compat {
    fn from(rule: ScoreRule) -> Self {
        match rule {
            ScoreRule::Fixed => Compat::Fixed,
            ScoreRule::Original => Compat::Original,
        }
    }
}

impl JobSpec {
    /// A spec with one trial per task, one at a time, a 1-hour limit and a
    /// 10-second grace period.
    pub fn new(suite: impl Into<PathBuf>, agent: impl Into<String>, tasks: Vec<String>) -> Self {
        Self {
            suite: suite.into(),
            agent: agent.into(),
            tasks,
            k: 1,
            concurrency: 1,
            timeout: Duration::from_secs(3600),
            grace: Duration::from_secs(10),
            max_steps: None,
            max_cost_usd: None,
            compat: ScoreRule::Fixed,
            seed: 0,
            sandbox: None,
        }
    }

    /// Checks what the harness relies on.
    pub fn validate(&self) -> Result<(), HarnessError> {
        let bad = |msg: String| Err(HarnessError::InvalidSpec(msg));
        if self.tasks.is_empty() {
            return bad("no tasks".into());
        }
        if let Some(db) = self.tasks.iter().find(|db| !safe_name(db)) {
            return bad(format!(
                "task name `{db}` is not a plain name (letters, digits, `_`, `-`, `.`)"
            ));
        }
        if self.k == 0 {
            return bad("k must be at least 1".into());
        }
        if self.concurrency == 0 {
            return bad("concurrency must be at least 1".into());
        }
        if self.timeout.is_zero() {
            return bad("timeout must be positive".into());
        }
        if self.max_cost_usd.is_some_and(|c| !c.is_finite() || c < 0.0) {
            return bad("max cost must be a non-negative number".into());
        }
        Ok(())
    }

    /// The `k`s pass@k and pass^k are reported for: `1..=k`.
    pub fn ks(&self) -> Vec<u64> {
        (1..=u64::from(self.k)).collect()
    }
}

/// A name that is safe as a directory name component.
fn safe_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// `Duration` as fractional seconds.
mod seconds {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let secs = f64::deserialize(d)?;
        Duration::try_from_secs_f64(secs).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> JobSpec {
        JobSpec::new("/suite", "oracle", vec!["amplitude".into()])
    }

    #[test]
    fn round_trips_through_json() {
        let mut s = spec();
        s.timeout = Duration::from_millis(1500);
        s.compat = ScoreRule::Original;
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["timeout_s"], 1.5);
        assert_eq!(json["compat"], "original");
        let back: JobSpec = serde_json::from_value(json).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn sandbox_settings_round_trip_and_old_job_files_read() {
        let mut s = spec();
        s.sandbox = Some(SandboxSettings {
            enabled: false,
            memory_bytes: 300 << 20,
            cpu_seconds: 90,
            max_processes: 64,
            disk_write_bytes: 1 << 30,
        });
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["sandbox"]["memory_bytes"], 300 << 20);
        assert_eq!(serde_json::from_value::<JobSpec>(json).unwrap(), s);
        let old = serde_json::json!({
            "suite": "/s", "agent": "a", "tasks": ["t"], "k": 1, "concurrency": 1,
            "timeout_s": 60.0, "grace_s": 1.0, "max_steps": null, "max_cost_usd": null,
            "compat": "fixed", "seed": 0
        });
        assert_eq!(
            serde_json::from_value::<JobSpec>(old).unwrap().sandbox,
            None
        );
    }

    #[test]
    fn rejects_unusable_specs() {
        let mut s = spec();
        s.k = 0;
        assert!(s.validate().unwrap_err().to_string().contains("k must be"));
        let mut s = spec();
        s.tasks = vec!["../etc".into()];
        assert!(s.validate().unwrap_err().to_string().contains("../etc"));
        let mut s = spec();
        s.concurrency = 0;
        assert!(s.validate().is_err());
        assert!(spec().validate().is_ok());
        let bad: Result<JobSpec, _> = serde_json::from_value(serde_json::json!({
            "suite": "/s", "agent": "a", "tasks": ["t"], "k": 1, "concurrency": 1,
            "timeout_s": -1.0, "grace_s": 1.0, "max_steps": null, "max_cost_usd": null,
            "compat": "fixed", "seed": 0
        }));
        assert!(bad.is_err());
    }
}
