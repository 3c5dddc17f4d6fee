//! Agents' habitual code against the API: ELT-Bench's `check_job_status.py` logic,
//! rewritten with Python's standard library, polls running jobs until they finish.

mod support;

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use eltbench_airbyte::{JobContext, LogSink, SyncExecutor, SyncFailure, SyncStats, async_trait};
use serde_json::json;
use support::{Api, config, start};

/// Succeeds after a short wait, except for connections whose name starts with `bad`.
struct SelectiveExecutor;

#[async_trait]
impl SyncExecutor for SelectiveExecutor {
    async fn run(&self, job: JobContext, _log: LogSink) -> Result<SyncStats, SyncFailure> {
        tokio::time::sleep(Duration::from_millis(400)).await;
        if job.connection.name.starts_with("bad") {
            return Err(SyncFailure::destination("disk full"));
        }
        Ok(SyncStats {
            rows_synced: 10,
            bytes_synced: 100,
            streams: Default::default(),
        })
    }
}

fn python() -> PathBuf {
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python3");
    assert!(
        python.exists(),
        "{} is missing: run scripts/setup",
        python.display()
    );
    python
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/check_job_status.py")
}

fn named_connection(api: &Api, name: &str) -> String {
    let body = json!({
        "name": name,
        "sourceId": api.create_source("pg"),
        "destinationId": api.create_destination("duck"),
        "configurations": { "streams": [{ "name": "users", "syncMode": "full_refresh_append" }] },
    });
    let (status, created) = api.post("/connections", &body);
    assert_eq!(status, 200, "{created}");
    created["connectionId"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn run_check(server: &eltbench_airbyte::AirbyteServer, ids: &[&str], extra: &[&str]) -> String {
    let mut command = Command::new(python());
    command
        .arg(script())
        .args(["--server", &server.addr().to_string()]);
    command.args(["--username", support::USER, "--password", support::PASSWORD]);
    for id in ids {
        command.args(["--connection-id", id]);
    }
    let output = command.args(extra).output().expect("python runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "check_job_status.py failed: {stderr}"
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn check_job_status_waits_for_running_jobs() {
    let server =
        start(config(Arc::new(SelectiveExecutor)).with_job_start_delay(Duration::from_millis(200)));
    let api = Api::new(&server);
    let good = named_connection(&api, "good");
    let bad = named_connection(&api, "bad");
    for connection in [&good, &bad] {
        let (status, job) = api.post(
            "/jobs",
            &json!({ "jobType": "sync", "connectionId": connection }),
        );
        assert_eq!((status, job["status"].clone()), (200, json!("pending")));
    }
    for extra in [&[][..], &["--by-connection"][..]] {
        let stdout = run_check(&server, &[&good, &bad], extra);
        assert!(
            stdout.contains(&format!(
                "The connection id of successful jobs are:  ['{good}']"
            )),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!("The connection id of failed jobs are:  ['{bad}']")),
            "{stdout}"
        );
    }
}
