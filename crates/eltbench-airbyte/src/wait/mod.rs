//! Waiting for sync jobs as an agent does after triggering them: for each
//! connection, poll its latest job (`GET /jobs?connectionId=&orderBy=createdAt|DESC&limit=1`)
//! until it is finished (`succeeded`, `failed`, `cancelled`, `incomplete`) or an
//! overall deadline passes. Blocking HTTP (reqwest's blocking client): call it outside
//! any tokio runtime. It only reads jobs; it never starts, cancels or changes one.

mod script;
mod tfstate;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use reqwest::blocking::{Client, RequestBuilder};
use serde::Serialize;
use serde_json::Value;

pub use script::CHECK_JOB_STATUS;
pub use tfstate::connections_in_state;

/// Job statuses after which a job never changes again.
pub const FINISHED: &[&str] = &["succeeded", "failed", "cancelled", "incomplete"];

/// Exit code of a wait that ran out of time (as `timeout(1)`).
pub const EXIT_TIMEOUT: u8 = 124;

/// Why waiting could not be done at all.
#[derive(Debug, thiserror::Error)]
pub enum WaitError {
    #[error("{path}: {message}")]
    State { path: PathBuf, message: String },
    #[error("Airbyte API {url}: {message}")]
    Api { url: String, message: String },
}

/// One connection to wait for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WaitTarget {
    /// Its Terraform address (`airbyte_connection.pg`).
    pub name: String,
    pub connection_id: String,
}

/// How to reach the API and how long to wait.
#[derive(Debug, Clone)]
pub struct WaitOptions {
    /// The API base URL (`http://127.0.0.1:8000/api/public/v1`).
    pub api: String,
    pub username: String,
    pub password: String,
    /// Sent as `Authorization: Bearer` instead of Basic when set.
    pub bearer: Option<String>,
    pub timeout: Duration,
    pub poll: Duration,
}

/// Where one connection stands when the wait ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConnectionOutcome {
    pub name: String,
    pub connection_id: String,
    /// Its latest job, if it has one.
    pub job_id: Option<i64>,
    /// The job's status, or `no_job`.
    pub status: String,
    pub rows_synced: Option<i64>,
    pub finished: bool,
}

impl ConnectionOutcome {
    /// `<address> <connection id> job <id> <status> <rows> rows`.
    pub fn line(&self) -> String {
        let Some(job_id) = self.job_id else {
            return format!(
                "{} {} no sync job (start one with POST /jobs)",
                self.name, self.connection_id
            );
        };
        let rows = self
            .rows_synced
            .map(|r| format!(" {r} rows"))
            .unwrap_or_default();
        let late = if self.finished {
            ""
        } else {
            " (still running at the timeout)"
        };
        format!(
            "{} {} job {job_id} {}{rows}{late}",
            self.name, self.connection_id, self.status
        )
    }
}

/// The outcome of every connection, sorted by address.
#[derive(Debug, Clone, Serialize)]
pub struct WaitReport {
    pub outcomes: Vec<ConnectionOutcome>,
    pub timed_out: bool,
}

impl WaitReport {
    /// 0 when every latest job succeeded, 124 on timeout, else 1.
    pub fn exit_code(&self) -> u8 {
        if self.timed_out {
            EXIT_TIMEOUT
        } else if self.outcomes.iter().all(|o| o.status == "succeeded") {
            0
        } else {
            1
        }
    }
}

/// Polls every target until its latest job is finished or `options.timeout` passes.
pub fn wait_for(targets: &[WaitTarget], options: &WaitOptions) -> Result<WaitReport, WaitError> {
    let client = Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| WaitError::Api {
            url: options.api.clone(),
            message: e.to_string(),
        })?;
    let deadline = Instant::now() + options.timeout;
    let mut outcomes: Vec<Option<ConnectionOutcome>> = vec![None; targets.len()];
    loop {
        for (slot, target) in outcomes.iter_mut().zip(targets) {
            if slot.as_ref().is_some_and(|o| o.finished) {
                continue;
            }
            *slot = Some(latest(&client, options, target)?);
        }
        let done = outcomes.iter().flatten().all(|o| o.finished);
        if done || Instant::now() >= deadline {
            let mut outcomes: Vec<_> = outcomes.into_iter().flatten().collect();
            outcomes.sort_by(|a, b| a.name.cmp(&b.name));
            return Ok(WaitReport {
                outcomes,
                timed_out: !done,
            });
        }
        let left = deadline.saturating_duration_since(Instant::now());
        std::thread::sleep(options.poll.min(left));
    }
}

/// The latest job of one connection.
fn latest(
    client: &Client,
    options: &WaitOptions,
    target: &WaitTarget,
) -> Result<ConnectionOutcome, WaitError> {
    let url = format!("{}/jobs", options.api.trim_end_matches('/'));
    let request = client.get(&url).query(&[
        ("connectionId", target.connection_id.as_str()),
        ("orderBy", "createdAt|DESC"),
        ("limit", "1"),
    ]);
    let reply = send(authorize(request, options), &url)?;
    let job = reply
        .get("data")
        .and_then(Value::as_array)
        .and_then(|jobs| jobs.first());
    let outcome = |job_id, status: &str, rows_synced, finished| ConnectionOutcome {
        name: target.name.clone(),
        connection_id: target.connection_id.clone(),
        job_id,
        status: status.to_owned(),
        rows_synced,
        finished,
    };
    Ok(match job {
        None => outcome(None, "no_job", None, true),
        Some(job) => {
            let status = job.get("status").and_then(Value::as_str).unwrap_or("");
            outcome(
                job.get("jobId").and_then(Value::as_i64),
                status,
                job.get("rowsSynced").and_then(Value::as_i64),
                FINISHED.contains(&status),
            )
        }
    })
}

fn authorize(request: RequestBuilder, options: &WaitOptions) -> RequestBuilder {
    match &options.bearer {
        Some(token) => request.bearer_auth(token),
        None => request.basic_auth(&options.username, Some(&options.password)),
    }
}

fn send(request: RequestBuilder, url: &str) -> Result<Value, WaitError> {
    let api = |message: String| WaitError::Api {
        url: url.to_owned(),
        message,
    };
    let response = request.send().map_err(|e| api(e.to_string()))?;
    let status = response.status();
    let text = response.text().map_err(|e| api(e.to_string()))?;
    if !status.is_success() {
        return Err(api(format!("{status}: {}", text.trim())));
    }
    serde_json::from_str(&text).map_err(|e| api(format!("not JSON ({e}): {text}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(status: &str, job_id: Option<i64>, finished: bool) -> ConnectionOutcome {
        ConnectionOutcome {
            name: "airbyte_connection.pg".into(),
            connection_id: "c1".into(),
            job_id,
            status: status.into(),
            rows_synced: Some(3),
            finished,
        }
    }

    #[test]
    fn exit_codes_follow_the_outcomes() {
        let report = |outcomes, timed_out| WaitReport {
            outcomes,
            timed_out,
        };
        let ok = outcome("succeeded", Some(1), true);
        assert_eq!(report(vec![ok.clone()], false).exit_code(), 0);
        let failed = outcome("cancelled", Some(2), true);
        assert_eq!(report(vec![ok.clone(), failed], false).exit_code(), 1);
        assert_eq!(
            report(vec![outcome("no_job", None, true)], false).exit_code(),
            1
        );
        assert_eq!(
            report(vec![outcome("running", Some(3), false)], true).exit_code(),
            124
        );
    }

    #[test]
    fn lines_name_the_job_and_its_status() {
        assert_eq!(
            outcome("succeeded", Some(7), true).line(),
            "airbyte_connection.pg c1 job 7 succeeded 3 rows"
        );
        assert_eq!(
            outcome("running", Some(7), false).line(),
            "airbyte_connection.pg c1 job 7 running 3 rows (still running at the timeout)"
        );
        assert!(
            outcome("no_job", None, true)
                .line()
                .contains("c1 no sync job")
        );
    }
}
