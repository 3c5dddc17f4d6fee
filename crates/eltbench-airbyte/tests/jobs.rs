//! The job lifecycle over real HTTP: pending → running → succeeded | failed | cancelled,
//! conflicts, listing, the state snapshot, and shutdown.

mod support;

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::{Value, json};
use support::{Api, FailingExecutor, GateExecutor, config, start};

fn trigger(api: &Api, connection: &str, job_type: &str) -> (u16, Value) {
    api.post(
        "/jobs",
        &json!({ "jobType": job_type, "connectionId": connection }),
    )
}

fn job_id(job: &Value) -> i64 {
    job["jobId"].as_i64().unwrap_or_default()
}

#[test]
fn slow_job_goes_pending_running_succeeded() {
    let executor = Arc::new(GateExecutor::default());
    let cfg = config(executor.clone()).with_job_start_delay(Duration::from_millis(300));
    let server = start(cfg);
    let api = Api::new(&server);
    let connection = api.create_connection();

    let (status, created) = trigger(&api, &connection, "sync");
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["status"], "pending");
    assert_eq!(created["jobType"], "sync");
    assert_eq!(created["connectionId"], connection.as_str());
    assert!(created.get("duration").is_none());
    let id = job_id(&created);
    assert_eq!(api.get(&format!("/jobs/{id}")).1["status"], "pending");

    let (status, conflict) = trigger(&api, &connection, "sync");
    assert_eq!(status, 409, "{conflict}");
    assert_eq!(
        conflict["detail"],
        format!("A sync is already running for: {connection}")
    );
    assert_eq!(conflict["title"], "try-again-later");

    let running = api.wait_for(id, |s| s == "running");
    assert_eq!(running["status"], "running", "{running}");
    assert!(running.get("duration").is_some());
    assert_eq!(
        trigger(&api, &connection, "reset").0,
        409,
        "a reset conflicts with a running sync too"
    );

    executor.open.store(true, Ordering::SeqCst);
    let done = api.wait_for(id, |s| s == "succeeded");
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(done["rowsSynced"], 3);
    assert_eq!(done["bytesSynced"], 90);
    assert!(
        done["lastUpdatedAt"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z'))
    );

    let job = server.job(id).expect("job kept");
    assert_eq!(job.attempts.len(), 1);
    assert_eq!(job.streams.get("users").map(|s| s.rows), Some(3));
    assert!(
        job.log
            .iter()
            .any(|l| l.contains("source > Reading from the test source")),
        "{:?}",
        job.log
    );
    assert!(
        job.log
            .iter()
            .any(|l| l.contains("3 records (90 bytes) committed")),
        "{:?}",
        job.log
    );

    let (status, again) = trigger(&api, &connection, "sync");
    assert_eq!(
        status, 200,
        "a new sync may start once the last one finished: {again}"
    );
}

#[test]
fn executor_gets_the_stored_resources() {
    let executor = Arc::new(GateExecutor::default());
    executor.open.store(true, Ordering::SeqCst);
    let server = start(config(executor.clone()));
    let api = Api::new(&server);
    let connection = api.create_connection();
    let (_, created) = trigger(&api, &connection, "clear");
    assert_eq!(created["jobType"], "reset", "clear is run as a reset");
    api.wait_for(job_id(&created), |s| s == "succeeded");
    let contexts = executor
        .contexts
        .lock()
        .map(|c| c.clone())
        .unwrap_or_default();
    let context = contexts.first().expect("executor ran");
    assert_eq!(context.connection.id, connection);
    assert_eq!(context.source.type_name, "postgres");
    assert_eq!(context.destination.type_name, "duckdb");
    assert_eq!(context.job_type, eltbench_airbyte::JobType::Reset);
    assert_eq!(context.streams.len(), 1);
    assert_eq!(
        context.streams[0].primary_key,
        vec![vec!["id".to_owned()]],
        "defaults are resolved"
    );
}

#[test]
fn cancelling_a_running_job() {
    let executor = Arc::new(GateExecutor::default());
    let server = start(config(executor.clone()));
    let api = Api::new(&server);
    let connection = api.create_connection();
    let (_, created) = trigger(&api, &connection, "sync");
    let id = job_id(&created);
    api.wait_for(id, |s| s == "running");

    let (status, cancelled) = api.delete(&format!("/jobs/{id}"));
    assert_eq!(status, 200, "{cancelled}");
    assert_eq!(cancelled["status"], "cancelled");
    assert_eq!(api.get(&format!("/jobs/{id}")).1["status"], "cancelled");
    let (status, twice) = api.delete(&format!("/jobs/{id}"));
    assert_eq!(status, 409, "{twice}");

    let (status, next) = trigger(&api, &connection, "sync");
    assert_eq!(
        status, 200,
        "a cancelled job does not block the next: {next}"
    );
    let job = server.job(id).expect("job kept");
    assert!(
        job.log
            .iter()
            .any(|l| l.contains("cancelled by a user request")),
        "{:?}",
        job.log
    );
    assert_eq!(
        job.attempts[0].status,
        eltbench_airbyte::JobStatus::Cancelled
    );
}

#[test]
fn cancelling_a_pending_job_never_runs_it() {
    let executor = Arc::new(GateExecutor::default());
    let server = start(config(executor.clone()).with_job_start_delay(Duration::from_millis(400)));
    let api = Api::new(&server);
    let connection = api.create_connection();
    let (_, created) = trigger(&api, &connection, "sync");
    let (status, cancelled) = api.delete(&format!("/jobs/{}", job_id(&created)));
    assert_eq!(
        (status, cancelled["status"].clone()),
        (200, json!("cancelled"))
    );
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(executor.runs.load(Ordering::SeqCst), 0);
    assert_eq!(
        api.get(&format!("/jobs/{}", job_id(&created))).1["status"],
        "cancelled"
    );
}

#[test]
fn failing_executor_fails_the_job_with_its_log() {
    let server = start(config(Arc::new(FailingExecutor)));
    let api = Api::new(&server);
    let connection = api.create_connection();
    let (_, created) = trigger(&api, &connection, "sync");
    let id = job_id(&created);
    let failed = api.wait_for(id, |s| s == "failed");
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(failed["rowsSynced"], 0);
    let job = server.job(id).expect("job kept");
    let failure = job.attempts[0].failure.clone().expect("failure recorded");
    assert_eq!(failure.origin, eltbench_airbyte::FailureOrigin::Source);
    let log = job.log.join("\n");
    assert!(
        log.contains("source > Connecting to postgres at 127.0.0.1:1"),
        "{log}"
    );
    assert!(
        log.contains("Failure: source failure: Connection to 127.0.0.1:1 refused"),
        "{log}"
    );
    let (status, _) = api.get("/workspaces");
    assert_eq!(status, 200, "the server keeps running after a failed job");
}

#[test]
fn job_listing_filters_orders_and_accepts_big_limits() {
    let executor = Arc::new(GateExecutor::default());
    executor.open.store(true, Ordering::SeqCst);
    let server = start(config(executor));
    let api = Api::new(&server);
    let first = api.create_connection();
    let second = api.create_connection();
    for connection in [&first, &second, &first] {
        let (_, job) = trigger(&api, connection, "sync");
        api.wait_for(job_id(&job), |s| s == "succeeded");
    }
    let (status, all) = api.get("/jobs?limit=500");
    assert_eq!(status, 200, "{all}");
    let ids: Vec<i64> = all["data"]
        .as_array()
        .map(|d| d.iter().map(job_id).collect())
        .unwrap_or_default();
    assert_eq!(ids, vec![1, 2, 3], "createdAt ASC by default");
    assert_eq!(api.get("/jobs?limit=100000").0, 200);

    let (_, mine) = api.get(&format!("/jobs?connectionId={first}"));
    assert_eq!(mine["data"].as_array().map(Vec::len), Some(2));
    let (_, desc) = api.get(&format!(
        "/jobs?connectionId={first}&orderBy=createdAt|DESC"
    ));
    assert_eq!(job_id(&desc["data"][0]), 3);
    let (_, paged) = api.get("/jobs?limit=1&offset=1");
    assert_eq!(job_id(&paged["data"][0]), 2);
    assert!(
        paged["next"]
            .as_str()
            .unwrap_or_default()
            .contains("offset=2")
    );
    let (_, none) = api.get("/jobs?status=failed");
    assert_eq!(none["data"], json!([]));
    let (_, resets) = api.get("/jobs?jobType=reset");
    assert_eq!(resets["data"], json!([]));

    assert_eq!(api.get("/jobs?status=done").0, 400);
    assert_eq!(api.get("/jobs?orderBy=jobId|ASC").0, 400);
    assert_eq!(api.get("/jobs?connectionId=unknown").0, 404);
}

#[test]
fn unknown_jobs_and_connections_are_404_problems() {
    let server = start(config(Arc::new(FailingExecutor)));
    let api = Api::new(&server);
    let (status, body) = api.get("/jobs/999");
    assert_eq!(status, 404);
    assert_eq!(body["detail"], "Could not find a resource for: 999");
    assert_eq!(
        body["type"],
        "https://reference.airbyte.com/reference/errors#resource-not-found"
    );
    assert_eq!(api.delete("/jobs/999").0, 404);
    assert_eq!(api.get("/jobs/abc").0, 400);
    let (status, body) = trigger(&api, "3f1c0000-0000-0000-0000-000000000000", "sync");
    assert_eq!(status, 404);
    assert_eq!(
        body["detail"],
        "Could not find a resource for: 3f1c0000-0000-0000-0000-000000000000"
    );
    for path in ["/sources/x", "/destinations/x", "/connections/x"] {
        let (status, body) = api.get(path);
        assert_eq!(
            (status, body["title"].clone()),
            (404, json!("resource-not-found")),
            "{path}"
        );
    }
}

#[test]
fn deleting_a_connection_cancels_its_running_job() {
    let executor = Arc::new(GateExecutor::default());
    let server = start(config(executor.clone()));
    let api = Api::new(&server);
    let connection = api.create_connection();
    let (_, created) = trigger(&api, &connection, "sync");
    api.wait_for(job_id(&created), |s| s == "running");
    assert_eq!(api.delete(&format!("/connections/{connection}")).0, 204);
    assert_eq!(
        api.get(&format!("/jobs/{}", job_id(&created))).1["status"],
        "cancelled"
    );
}

#[test]
fn state_snapshot_follows_changes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("state.json");
    let executor = Arc::new(GateExecutor::default());
    executor.open.store(true, Ordering::SeqCst);
    let server = start(config(executor).with_state_file(&path));
    let api = Api::new(&server);
    let connection = api.create_connection();
    let (_, created) = trigger(&api, &connection, "sync");
    api.wait_for(job_id(&created), |s| s == "succeeded");
    std::thread::sleep(Duration::from_millis(50));
    let text = std::fs::read_to_string(&path).expect("state.json written");
    let state: Value = serde_json::from_str(&text).expect("state.json is JSON");
    assert_eq!(state["sources"].as_object().map(|m| m.len()), Some(1));
    assert_eq!(
        state["connections"][&connection]["streams"][0]["name"],
        "users"
    );
    assert_eq!(state["jobs"]["1"]["status"], "succeeded");
    assert!(
        state["jobs"]["1"]["log"]
            .as_array()
            .is_some_and(|l| l.len() >= 3),
        "{}",
        state["jobs"]["1"]
    );
    assert_eq!(server.snapshot_error(), None);
}

#[test]
fn dropping_the_server_frees_the_port_and_stops_jobs() {
    let executor = Arc::new(GateExecutor::default());
    let server = start(config(executor.clone()));
    let addr = server.addr();
    let api = Api::new(&server);
    let connection = api.create_connection();
    let (_, created) = trigger(&api, &connection, "sync");
    api.wait_for(job_id(&created), |s| s == "running");
    drop(server);
    assert!(
        TcpListener::bind(addr).is_ok(),
        "port {addr} is free after drop"
    );
    let refused = reqwest::blocking::Client::new()
        .get(format!("http://{addr}/api/public/v1/health"))
        .send();
    assert!(refused.is_err(), "nothing answers after drop");
}
