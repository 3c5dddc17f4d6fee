//! Shared fixtures of the sync tests: an API server running the real [`SyncEngine`],
//! a tiny axum HTTP server for files and REST records (its routes can change between
//! syncs, fail or stall), a blocking API client, and DuckDB read-back helpers.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use eltbench_airbyte::{AirbyteServer, SyncEngine, SyncEngineOptions};
use reqwest::blocking::Client;
use serde_json::{Value, json};

/// What the HTTP fixture answers for one path.
#[derive(Clone)]
pub enum Reply {
    Body(Vec<u8>),
    Status(u16),
    /// The body, after a delay.
    Slow(Duration, Vec<u8>),
}

type Routes = Arc<Mutex<BTreeMap<String, Reply>>>;

/// An HTTP server on 127.0.0.1 serving the replies set with [`HttpFixture::set`].
pub struct HttpFixture {
    pub addr: SocketAddr,
    routes: Routes,
    _runtime: tokio::runtime::Runtime,
}

async fn serve_path(
    State(routes): State<Routes>,
    UrlPath(path): UrlPath<String>,
) -> axum::response::Response {
    let reply = routes
        .lock()
        .ok()
        .and_then(|r| r.get(&format!("/{path}")).cloned());
    match reply {
        Some(Reply::Body(body)) => body.into_response(),
        Some(Reply::Slow(delay, body)) => {
            tokio::time::sleep(delay).await;
            body.into_response()
        }
        Some(Reply::Status(code)) => StatusCode::from_u16(code)
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

impl HttpFixture {
    pub fn start() -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let routes: Routes = Arc::default();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let app = axum::Router::new()
            .route("/{*path}", axum::routing::get(serve_path))
            .with_state(routes.clone());
        runtime.spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            addr,
            routes,
            _runtime: runtime,
        }
    }

    pub fn set(&self, path: &str, reply: Reply) {
        self.routes
            .lock()
            .expect("routes")
            .insert(path.to_owned(), reply);
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

/// The API server on the real engine, a temp dir, and a client.
pub struct Env {
    pub server: AirbyteServer,
    pub dir: tempfile::TempDir,
    pub client: Client,
    pub base: String,
}

impl Env {
    pub fn start() -> Self {
        Self::with_options(SyncEngineOptions::default())
    }

    pub fn with_options(options: SyncEngineOptions) -> Self {
        let engine = Arc::new(SyncEngine::new(options).expect("engine"));
        let bind: SocketAddr = "127.0.0.1:0".parse().expect("address");
        let server = AirbyteServer::start(bind, engine.airbyte_config()).expect("server");
        let base = server.base_url();
        Self {
            server,
            dir: tempfile::tempdir().expect("tempdir"),
            client: Client::new(),
            base,
        }
    }

    pub fn db_path(&self, stem: &str) -> PathBuf {
        self.dir.path().join(format!("{stem}.duckdb"))
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .basic_auth("airbyte", Some("password"))
            .json(body)
            .send()
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().unwrap_or(Value::Null))
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .basic_auth("airbyte", Some("password"))
            .send()
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().unwrap_or(Value::Null))
    }

    pub fn patch(&self, path: &str, body: &Value) -> (u16, Value) {
        let response = self
            .client
            .patch(format!("{}{path}", self.base))
            .basic_auth("airbyte", Some("password"))
            .json(body)
            .send()
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().unwrap_or(Value::Null))
    }

    /// Merges `configuration` into a source's configuration.
    pub fn patch_source(&self, source: &str, configuration: Value) {
        let (status, body) = self.patch(
            &format!("/sources/{source}"),
            &json!({"configuration": configuration}),
        );
        assert_eq!(status, 200, "{body}");
    }

    pub fn delete(&self, path: &str) -> u16 {
        self.client
            .delete(format!("{}{path}", self.base))
            .basic_auth("airbyte", Some("password"))
            .send()
            .expect("request")
            .status()
            .as_u16()
    }

    fn workspace(&self) -> String {
        self.get("/workspaces").1["data"][0]["workspaceId"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Creates a source from a `configuration` (with `sourceType`) or a definition id.
    pub fn source(&self, configuration: Value, definition_id: Option<&str>) -> String {
        let mut body =
            json!({"name": "src", "workspaceId": self.workspace(), "configuration": configuration});
        if let Some(id) = definition_id {
            body["definitionId"] = json!(id);
        }
        let (status, created) = self.post("/sources", &body);
        assert_eq!(status, 200, "{created}");
        created["sourceId"].as_str().unwrap_or_default().to_owned()
    }

    /// Creates a DuckDB destination writing `path`, schema `schema`.
    pub fn destination(&self, path: &Path, schema: &str) -> String {
        let body = json!({
            "name": "duck", "workspaceId": self.workspace(),
            "configuration": {"destinationType": "duckdb", "destination_path": path, "schema": schema},
        });
        let (status, created) = self.post("/destinations", &body);
        assert_eq!(status, 200, "{created}");
        created["destinationId"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Creates a connection; `extra` is merged into the request (prefix, namespace...).
    pub fn connection(
        &self,
        source: &str,
        destination: &str,
        streams: Value,
        extra: Value,
    ) -> String {
        let mut body = json!({
            "sourceId": source, "destinationId": destination,
            "configurations": {"streams": streams},
        });
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        let (status, created) = self.post("/connections", &body);
        assert_eq!(status, 200, "{created}");
        created["connectionId"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Starts a job and returns its id.
    pub fn start_job(&self, connection: &str, job_type: &str) -> i64 {
        let (status, job) = self.post(
            "/jobs",
            &json!({"jobType": job_type, "connectionId": connection}),
        );
        assert_eq!(status, 200, "{job}");
        job["jobId"].as_i64().unwrap_or_default()
    }

    /// Polls a job until it is terminal (60 s at most).
    pub fn wait(&self, job: i64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (_, body) = self.get(&format!("/jobs/{job}"));
            let status = body["status"].as_str().unwrap_or_default().to_owned();
            if matches!(status.as_str(), "succeeded" | "failed" | "cancelled")
                || Instant::now() > deadline
            {
                return body;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Runs a job to its end; returns `(status, rowsSynced, log)`.
    pub fn run(&self, connection: &str, job_type: &str) -> (String, u64, String) {
        let id = self.start_job(connection, job_type);
        let body = self.wait(id);
        let log = self
            .server
            .job(id)
            .map(|j| j.log.join("\n"))
            .unwrap_or_default();
        (
            body["status"].as_str().unwrap_or_default().to_owned(),
            body["rowsSynced"].as_u64().unwrap_or_default(),
            log,
        )
    }

    /// Runs a sync that must succeed; returns rowsSynced.
    pub fn sync_ok(&self, connection: &str) -> u64 {
        let (status, rows, log) = self.run(connection, "sync");
        assert_eq!(status, "succeeded", "{log}");
        rows
    }
}

/// Runs `sql` on a DuckDB file attached as its stem (`<db>.schema.table` works) and
/// returns every row as text (NULL as `NULL`); the file is closed afterwards.
pub fn query(path: &Path, sql: &str) -> Vec<Vec<String>> {
    let conn = duckdb::Connection::open_in_memory().expect("duckdb");
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("db");
    conn.execute_batch(&format!(
        "ATTACH '{}' AS \"{stem}\" (READ_ONLY); USE \"{stem}\";",
        path.display()
    ))
    .expect("attach");
    let mut stmt = conn.prepare(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    let mut rows = stmt.query([]).expect("query");
    let mut out = Vec::new();
    while let Some(row) = rows.next().expect("row") {
        let width = row.as_ref().column_count();
        out.push(
            (0..width)
                .map(|i| match row.get_ref(i).expect("value") {
                    duckdb::types::ValueRef::Null => "NULL".to_owned(),
                    _ => row.get::<_, String>(i).unwrap_or_else(|_| "?".to_owned()),
                })
                .collect(),
        );
    }
    out
}

/// `SELECT count(*)` of a table.
pub fn count(path: &Path, table: &str) -> u64 {
    query(
        path,
        &format!("SELECT CAST(count(*) AS VARCHAR) FROM {table}"),
    )[0][0]
        .parse()
        .unwrap_or(u64::MAX)
}

/// Whether a table exists (any schema), by `schema.table`.
pub fn table_exists(path: &Path, schema: &str, table: &str) -> bool {
    if !path.exists() {
        return false;
    }
    let sql = format!(
        "SELECT CAST(count(*) AS VARCHAR) FROM information_schema.tables WHERE table_schema = '{schema}' AND table_name = '{table}'"
    );
    query(path, &sql)[0][0] == "1"
}

/// The column types of a table, `name type` in order.
pub fn columns(path: &Path, schema: &str, table: &str) -> Vec<String> {
    let sql = format!(
        "SELECT column_name || ' ' || data_type FROM information_schema.columns WHERE table_schema = '{schema}' AND table_name = '{table}' ORDER BY ordinal_position"
    );
    query(path, &sql)
        .into_iter()
        .map(|r| r[0].clone())
        .collect()
}
