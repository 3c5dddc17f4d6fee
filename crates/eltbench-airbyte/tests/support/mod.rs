//! Shared test fixtures: a static catalog, executors with controllable behaviour, and
//! a small blocking HTTP client that speaks to the server like the provider does.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use eltbench_airbyte::{
    Actor, AirbyteConfig, AirbyteServer, CatalogError, JobContext, LogSink, SourceCatalog,
    StreamInfo, StreamStats, SyncExecutor, SyncFailure, SyncMode, SyncStats, async_trait,
};
use reqwest::blocking::{Client, RequestBuilder, Response};
use serde_json::{Value, json};

/// Offers `users` and `orders` for every source, except sources whose configuration
/// has `"unreachable": true`.
pub struct TestCatalog;

#[async_trait]
impl SourceCatalog for TestCatalog {
    async fn streams(&self, source: &Actor) -> Result<Vec<StreamInfo>, CatalogError> {
        if source.configuration.get("unreachable") == Some(&Value::Bool(true)) {
            return Err(CatalogError::new("connection refused (127.0.0.1:1)"));
        }
        Ok(["orders", "users"]
            .iter()
            .map(|name| stream(name))
            .collect())
    }
}

fn stream(name: &str) -> StreamInfo {
    StreamInfo {
        name: name.to_owned(),
        namespace: Some("public".to_owned()),
        sync_modes: vec![
            SyncMode::FullRefreshOverwrite,
            SyncMode::FullRefreshAppend,
            SyncMode::IncrementalAppend,
            SyncMode::IncrementalDedupedHistory,
        ],
        default_cursor_field: vec!["updated_at".to_owned()],
        source_defined_cursor_field: false,
        source_defined_primary_key: vec![vec!["id".to_owned()]],
        property_fields: vec![vec!["id".to_owned()], vec!["updated_at".to_owned()]],
    }
}

/// Runs until the gate opens (then reports 3 rows per stream) or the job is cancelled.
#[derive(Default)]
pub struct GateExecutor {
    pub open: AtomicBool,
    pub cancelled_seen: AtomicBool,
    pub runs: AtomicUsize,
    pub contexts: std::sync::Mutex<Vec<JobContext>>,
}

#[async_trait]
impl SyncExecutor for GateExecutor {
    async fn run(&self, job: JobContext, log: LogSink) -> Result<SyncStats, SyncFailure> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut contexts) = self.contexts.lock() {
            contexts.push(job.clone());
        }
        log.source("Reading from the test source");
        while !self.open.load(Ordering::SeqCst) {
            if job.cancel.is_cancelled() {
                self.cancelled_seen.store(true, Ordering::SeqCst);
                return Err(SyncFailure::platform("cancelled"));
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let streams = job
            .streams
            .iter()
            .map(|s| (s.name.clone(), StreamStats { rows: 3, bytes: 90 }))
            .collect();
        Ok(SyncStats::from_streams(streams))
    }
}

/// Fails every job with a source error.
pub struct FailingExecutor;

#[async_trait]
impl SyncExecutor for FailingExecutor {
    async fn run(&self, _job: JobContext, log: LogSink) -> Result<SyncStats, SyncFailure> {
        log.source("Connecting to postgres at 127.0.0.1:1");
        Err(SyncFailure::source(
            "Connection to 127.0.0.1:1 refused. Check that the hostname and port are correct",
        ))
    }
}

pub const USER: &str = "airbyte";
pub const PASSWORD: &str = "password";

pub fn config(executor: Arc<dyn SyncExecutor>) -> AirbyteConfig {
    AirbyteConfig::new(executor, Arc::new(TestCatalog)).with_bearer_token("secret-token")
}

pub fn start(config: AirbyteConfig) -> AirbyteServer {
    let bind: SocketAddr = "127.0.0.1:0".parse().expect("literal address");
    AirbyteServer::start(bind, config).expect("server starts")
}

/// A client for one server, authenticated with Basic auth like the provider.
pub struct Api {
    pub base: String,
    client: Client,
}

impl Api {
    pub fn new(server: &AirbyteServer) -> Self {
        Self {
            base: server.base_url(),
            client: Client::new(),
        }
    }

    pub fn raw(&self) -> &Client {
        &self.client
    }

    fn auth(&self, builder: RequestBuilder) -> RequestBuilder {
        builder
            .basic_auth(USER, Some(PASSWORD))
            .header("accept", "application/json")
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        read(
            self.auth(self.client.get(format!("{}{path}", self.base)))
                .send(),
        )
    }

    pub fn delete(&self, path: &str) -> (u16, Value) {
        read(
            self.auth(self.client.delete(format!("{}{path}", self.base)))
                .send(),
        )
    }

    pub fn send(&self, method: &str, path: &str, body: &Value) -> (u16, Value) {
        let url = format!("{}{path}", self.base);
        let builder = match method {
            "POST" => self.client.post(url),
            "PATCH" => self.client.patch(url),
            "PUT" => self.client.put(url),
            other => panic!("unsupported method {other}"),
        };
        read(self.auth(builder).json(body).send())
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.send("POST", path, body)
    }

    pub fn workspace_id(&self) -> String {
        let (_, body) = self.get("/workspaces");
        body["data"][0]["workspaceId"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    pub fn create_source(&self, name: &str) -> String {
        let body = json!({
            "name": name,
            "workspaceId": self.workspace_id(),
            "configuration": { "sourceType": "postgres", "host": "127.0.0.1", "port": 5432 },
        });
        let (status, created) = self.post("/sources", &body);
        assert_eq!(status, 200, "{created}");
        created["sourceId"].as_str().unwrap_or_default().to_owned()
    }

    pub fn create_destination(&self, name: &str) -> String {
        let body = json!({
            "name": name,
            "workspaceId": self.workspace_id(),
            "definitionId": "94bd199c-2ff0-4aa2-b98e-17f0acb72610",
            "configuration": { "destination_path": "/tmp/x.duckdb" },
        });
        let (status, created) = self.post("/destinations", &body);
        assert_eq!(status, 200, "{created}");
        created["destinationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    pub fn create_connection(&self) -> String {
        let source = self.create_source("pg");
        let destination = self.create_destination("duck");
        let body = json!({
            "sourceId": source,
            "destinationId": destination,
            "configurations": { "streams": [{ "name": "users", "syncMode": "full_refresh_append" }] },
        });
        let (status, created) = self.post("/connections", &body);
        assert_eq!(status, 200, "{created}");
        created["connectionId"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Polls `GET /jobs/{id}` until `done` holds for the status or the timeout passes.
    pub fn wait_for(&self, job_id: i64, done: impl Fn(&str) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let (_, job) = self.get(&format!("/jobs/{job_id}"));
            if done(job["status"].as_str().unwrap_or_default()) || Instant::now() > deadline {
                return job;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn read(response: reqwest::Result<Response>) -> (u16, Value) {
    let response = response.expect("request reaches the server");
    let status = response.status().as_u16();
    let text = response.text().unwrap_or_default();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}
