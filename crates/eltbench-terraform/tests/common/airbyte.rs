//! The real services behind the provider in these tests: eltbench's Airbyte
//! API server (`eltbench_airbyte::AirbyteServer` on the real `SyncEngine`,
//! 127.0.0.1, free port, its own runtime thread) and a private PostgreSQL
//! cluster (`eltbench_sources::PgCluster`) holding database `shop` with
//! tables `customers` and `orders`, so connection creation discovers real
//! streams. Tests observe what `terraform` did only through the public API
//! (`GET /sources`, `/destinations`, `/connections`) and `terraform.tfstate`.
//!
//! Nothing here may run inside a tokio runtime while `terraform` runs: the
//! emulated provider uses blocking reqwest.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use eltbench_airbyte::{
    AirbyteServer, DEFAULT_PASSWORD, DEFAULT_USERNAME, SyncEngine, SyncEngineOptions,
};
use eltbench_sources::{PgCluster, PgClusterOptions};
use serde_json::Value;

/// The server's only workspace (other ids are 404).
pub const WORKSPACE_ID: &str = eltbench_airbyte::DEFAULT_WORKSPACE_ID;

/// The login role connectors use, and its password.
pub const PG_USER: &str = "elt";
pub const PG_PASSWORD: &str = "testelt";

/// The Airbyte API server and the PostgreSQL source it reads.
pub struct Services {
    // Dropped first: Airbyte cancels its jobs before the source goes away.
    server: AirbyteServer,
    pg: PgCluster,
    http: reqwest::blocking::Client,
    _dir: tempfile::TempDir,
}

impl Services {
    pub fn start() -> Services {
        let dir = tempfile::tempdir().expect("tempdir");
        let pg = PgCluster::start(&dir.path().join("pg"), PgClusterOptions::default())
            .expect("postgres starts");
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        runtime.block_on(async {
            pg.create_database("shop").await.expect("database");
            pg.create_role(PG_USER, PG_PASSWORD, false)
                .await
                .expect("role");
            let client = pg.connect("shop").await.expect("connect");
            client
                .batch_execute(
                    "CREATE TABLE customers (id int PRIMARY KEY, name text); \
                     INSERT INTO customers VALUES (1, 'ada'), (2, 'bob'); \
                     CREATE TABLE orders (id int PRIMARY KEY, customer_id int, amount float8); \
                     INSERT INTO orders VALUES (1, 1, 9.5), (2, 1, 3.0), (3, 2, 7.25); \
                     GRANT SELECT ON ALL TABLES IN SCHEMA public TO elt;",
                )
                .await
                .expect("seed tables");
        });
        let engine = Arc::new(SyncEngine::new(SyncEngineOptions::default()).expect("engine"));
        let bind = SocketAddr::from(([127, 0, 0, 1], 0));
        let server = AirbyteServer::start(bind, engine.airbyte_config()).expect("server starts");
        Services {
            server,
            pg,
            http: reqwest::blocking::Client::new(),
            _dir: dir,
        }
    }

    /// The provider's `server_url` (`http://127.0.0.1:N/api/public/v1`).
    pub fn url(&self) -> String {
        self.server.base_url()
    }

    pub fn pg_port(&self) -> u16 {
        self.pg.port()
    }

    /// `GET <path>` with the default credentials: status and JSON body.
    pub fn get(&self, path: &str) -> (u16, Value) {
        self.call(self.http.get(format!("{}{path}", self.url())))
    }

    /// `DELETE <path>` behind Terraform's back (drift).
    pub fn delete(&self, path: &str) -> u16 {
        self.call(self.http.delete(format!("{}{path}", self.url())))
            .0
    }

    fn call(&self, request: reqwest::blocking::RequestBuilder) -> (u16, Value) {
        let response = request
            .basic_auth(DEFAULT_USERNAME, Some(DEFAULT_PASSWORD))
            .header("accept", "application/json")
            .send()
            .expect("request reaches the server");
        let status = response.status().as_u16();
        let text = response.text().unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// `GET /<kind>`: every live source, destination or connection, in creation order.
    pub fn list(&self, kind: &str) -> Vec<Value> {
        let (status, body) = self.get(&format!("/{kind}?limit=1000"));
        assert_eq!(status, 200, "GET /{kind}: {body}");
        body["data"].as_array().cloned().unwrap_or_default()
    }

    /// `GET /<kind>/<id>`, or `None` on 404.
    pub fn object(&self, kind: &str, id: &str) -> Option<Value> {
        match self.get(&format!("/{kind}/{id}")) {
            (200, body) => Some(body),
            (404, _) => None,
            (status, body) => panic!("GET /{kind}/{id}: {status} {body}"),
        }
    }

    /// The ids of every live object of `kind`, in creation order.
    pub fn ids(&self, kind: &str) -> Vec<String> {
        let key = match kind {
            "sources" => "sourceId",
            "destinations" => "destinationId",
            _ => "connectionId",
        };
        self.list(kind)
            .iter()
            .map(|o| o[key].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// Starts a sync of `connection` and waits for its job to finish: its
    /// status and its log.
    pub fn sync(&self, connection: &str) -> (String, String) {
        let body = serde_json::json!({"connectionId": connection, "jobType": "sync"});
        let (status, job) = self.call(self.http.post(format!("{}/jobs", self.url())).json(&body));
        assert_eq!(status, 200, "POST /jobs: {job}");
        let id = job["jobId"].as_i64().expect("job id");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let (_, job) = self.get(&format!("/jobs/{id}"));
            let status = job["status"].as_str().unwrap_or_default().to_string();
            if !matches!(status.as_str(), "pending" | "running") || Instant::now() > deadline {
                let log = self
                    .server
                    .job(id)
                    .map(|j| j.log.join("\n"))
                    .unwrap_or_default();
                return (status, log);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
