//! Sync jobs through the Airbyte API v1, as an agent starts them:
//! `POST /jobs {jobType: sync, connectionId}`, then `GET /jobs/{id}` until the
//! job is terminal. Blocking (call outside any tokio runtime); it only reads
//! job state and never touches a warehouse.

use std::time::{Duration, Instant};

use reqwest::blocking::Client;
use serde_json::{Value, json};

use super::error::OracleError;

/// How long one sync may take before the oracle gives up.
pub const JOB_TIMEOUT: Duration = Duration::from_secs(600);
const POLL: Duration = Duration::from_millis(100);

/// A Basic-auth client of one Airbyte API base URL.
pub struct ApiClient {
    base: String,
    client: Client,
}

impl ApiClient {
    pub fn new(base: &str) -> Self {
        Self {
            base: base.trim_end_matches('/').to_owned(),
            client: Client::new(),
        }
    }

    /// Starts a sync of `connection_id`; its job id.
    pub fn start_sync(&self, connection_id: &str) -> Result<i64, OracleError> {
        let url = format!("{}/jobs", self.base);
        let body = json!({"jobType": "sync", "connectionId": connection_id});
        let request = self.client.post(&url).json(&body);
        let reply = self.send(&url, request)?;
        reply
            .get("jobId")
            .and_then(Value::as_i64)
            .ok_or_else(|| OracleError::Api {
                url,
                message: format!("no jobId in {reply}"),
            })
    }

    /// Polls `GET /jobs/{id}` until the job is terminal; `Ok` only if it
    /// succeeded.
    pub fn wait(&self, job_id: i64, connection_id: &str) -> Result<(), OracleError> {
        let url = format!("{}/jobs/{job_id}", self.base);
        let started = Instant::now();
        loop {
            let reply = self.send(&url, self.client.get(&url))?;
            let status = reply
                .get("status")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            match status.as_str() {
                "succeeded" => return Ok(()),
                "failed" | "cancelled" => {
                    return Err(OracleError::JobFailed {
                        job_id,
                        connection_id: connection_id.to_owned(),
                        status,
                        detail: reply.to_string(),
                    });
                }
                _ if started.elapsed() > JOB_TIMEOUT => {
                    return Err(OracleError::JobTimeout {
                        job_id,
                        connection_id: connection_id.to_owned(),
                        status,
                        seconds: JOB_TIMEOUT.as_secs(),
                    });
                }
                _ => std::thread::sleep(POLL),
            }
        }
    }

    /// Starts a sync and waits for it to succeed.
    pub fn sync(&self, connection_id: &str) -> Result<i64, OracleError> {
        let job_id = self.start_sync(connection_id)?;
        self.wait(job_id, connection_id)?;
        Ok(job_id)
    }

    fn send(
        &self,
        url: &str,
        request: reqwest::blocking::RequestBuilder,
    ) -> Result<Value, OracleError> {
        let api = |message: String| OracleError::Api {
            url: url.to_owned(),
            message,
        };
        let response = request
            .basic_auth(
                eltbench_airbyte::DEFAULT_USERNAME,
                Some(eltbench_airbyte::DEFAULT_PASSWORD),
            )
            .send()
            .map_err(|e| api(e.to_string()))?;
        let status = response.status();
        let text = response.text().map_err(|e| api(e.to_string()))?;
        if !status.is_success() {
            return Err(api(format!("{status}: {text}")));
        }
        serde_json::from_str(&text).map_err(|e| api(format!("{e}: {text}")))
    }
}
