//! `eltbench airbyte wait` against the real Airbyte API server on the real sync
//! engine: a succeeded sync, a failed one (wrong PostgreSQL password), a cancelled
//! one, a timeout (124), bad input (2), and the `check_job_status` script.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use eltbench_airbyte::{AirbyteServer, SyncEngine, SyncEngineOptions};
use reqwest::blocking::Client;
use serde_json::{Value, json};

struct Api {
    server: AirbyteServer,
    client: Client,
    dir: tempfile::TempDir,
}

impl Api {
    fn start() -> Self {
        let engine = Arc::new(SyncEngine::new(SyncEngineOptions::default()).unwrap());
        let bind: SocketAddr = "127.0.0.1:0".parse().unwrap();
        let server = AirbyteServer::start(bind, engine.airbyte_config()).unwrap();
        Self {
            server,
            client: Client::new(),
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.server.base_url());
        let mut request = self
            .client
            .request(method, &url)
            .basic_auth("airbyte", Some("password"));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().unwrap();
        assert!(
            response.status().is_success(),
            "{url}: {}",
            response.status()
        );
        response.json().unwrap_or(Value::Null)
    }

    fn post(&self, path: &str, body: Value) -> Value {
        self.call(reqwest::Method::POST, path, Some(body))
    }

    /// A connection from a source with `configuration` to a DuckDB file; its id.
    fn connection(&self, configuration: Value, stream: &str) -> String {
        let workspace =
            self.call(reqwest::Method::GET, "/workspaces", None)["data"][0]["workspaceId"].clone();
        let source = self.post(
            "/sources",
            json!({"name": "src", "workspaceId": workspace, "configuration": configuration}),
        )["sourceId"]
            .clone();
        let warehouse = self.dir.path().join("wh.duckdb");
        let destination = self.post(
            "/destinations",
            json!({"name": "duck", "workspaceId": workspace, "configuration":
                {"destinationType": "duckdb", "destination_path": warehouse, "schema": "airbyte_schema"}}),
        )["destinationId"]
            .clone();
        let connection = self.post(
            "/connections",
            json!({"sourceId": source, "destinationId": destination,
                   "configurations": {"streams": [{"name": stream, "syncMode": "full_refresh_overwrite"}]}}),
        );
        connection["connectionId"].as_str().unwrap().to_owned()
    }

    /// Sets a new `password` on the source of `connection`.
    fn break_password(&self, connection: &str, password: &str) {
        let source = self.call(
            reqwest::Method::GET,
            &format!("/connections/{connection}"),
            None,
        )["sourceId"]
            .as_str()
            .unwrap()
            .to_owned();
        self.call(
            reqwest::Method::PATCH,
            &format!("/sources/{source}"),
            Some(json!({"configuration": {"password": password}})),
        );
    }

    fn start_sync(&self, connection: &str) -> i64 {
        self.post(
            "/jobs",
            json!({"jobType": "sync", "connectionId": connection}),
        )["jobId"]
            .as_i64()
            .unwrap()
    }

    fn status(&self, job: i64) -> String {
        self.call(reqwest::Method::GET, &format!("/jobs/{job}"), None)["status"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// An `elt/` directory as `terraform apply` leaves it for these connections.
    fn elt_dir(&self, connections: &[(&str, &str)]) -> std::path::PathBuf {
        let elt = self.dir.path().join(format!("elt{}", connections.len()));
        std::fs::create_dir_all(&elt).unwrap();
        let main_tf = format!(
            "provider \"airbyte\" {{\n  server_url = \"{}\"\n  username   = \"airbyte\"\n  password   = \"password\"\n}}\n",
            self.server.base_url()
        );
        std::fs::write(elt.join("main.tf"), main_tf).unwrap();
        let resources: Vec<Value> = connections
            .iter()
            .map(|(name, id)| {
                json!({"mode": "managed", "type": "airbyte_connection", "name": name,
                       "provider": "provider[\"registry.terraform.io/airbytehq/airbyte\"]",
                       "instances": [{"schema_version": 0, "attributes": {"connection_id": id}}]})
            })
            .collect();
        let state = json!({"version": 4, "terraform_version": "1.9.8", "serial": 1,
                           "lineage": "x", "outputs": {}, "resources": resources});
        std::fs::write(elt.join("terraform.tfstate"), state.to_string()).unwrap();
        elt
    }
}

fn csv_source(dir: &Path, rows: usize) -> Value {
    let path = dir.join("people.csv");
    let mut text = String::from("id,name\n");
    for i in 0..rows {
        text.push_str(&format!("{i},n{i}\n"));
    }
    std::fs::write(&path, text).unwrap();
    json!({"sourceType": "file", "dataset_name": "people", "format": "csv",
           "url": path, "provider": {"storage": "local"}})
}

/// A CSV over HTTP that answers until `stall` is set, then accepts and never answers.
struct StallingHttp {
    addr: SocketAddr,
    stall: Arc<AtomicBool>,
}

impl StallingHttp {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stall = Arc::new(AtomicBool::new(false));
        let flag = stall.clone();
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                if flag.load(Ordering::SeqCst) {
                    held.push(stream);
                    continue;
                }
                let mut buf = [0u8; 4096];
                let _ = stream.read(&mut buf);
                let body = "id,name\n1,a\n";
                let reply = format!(
                    "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes());
            }
        });
        Self { addr, stall }
    }

    fn source(&self) -> Value {
        json!({"sourceType": "file", "dataset_name": "slow", "format": "csv",
               "url": format!("http://{}/slow.csv", self.addr), "provider": {"storage": "HTTPS"}})
    }

    /// A connection whose syncs hang until cancelled.
    fn connection(&self, api: &Api) -> String {
        let id = api.connection(self.source(), "slow");
        self.stall.store(true, Ordering::SeqCst);
        id
    }
}

fn wait_cmd(elt: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eltbench"))
        .args(["airbyte", "wait", "--dir"])
        .arg(elt)
        .args(["--poll", "0.1"])
        .args(extra)
        .output()
        .unwrap()
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn wait_until_running(api: &Api, job: i64) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while api.status(job) != "running" {
        assert!(Instant::now() < deadline, "job {job} never ran");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_succeeded_sync_exits_zero_with_one_line_per_connection() {
    let api = Api::start();
    let id = api.connection(csv_source(api.dir.path(), 3), "people");
    let job = api.start_sync(&id);
    let elt = api.elt_dir(&[("people", &id)]);
    let output = wait_cmd(&elt, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.trim(),
        format!("airbyte_connection.people {id} job {job} succeeded 3 rows")
    );
}

#[test]
fn a_failed_sync_exits_one() {
    let cluster_dir = tempfile::tempdir().unwrap();
    let cluster = eltbench_sources::PgCluster::start(
        &cluster_dir.path().join("pg"),
        eltbench_sources::PgClusterOptions::default(),
    )
    .expect("postgres starts (run scripts/setup)");
    let api = Api::start();
    let good = api.connection(csv_source(api.dir.path(), 2), "people");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime
        .block_on(cluster.create_role("elt", "right", false))
        .unwrap();
    let pg = |password: &str| {
        json!({"sourceType": "postgres", "host": "127.0.0.1", "port": cluster.port(),
               "database": "postgres", "username": "elt", "password": password,
               "schemas": ["public"], "ssl_mode": {"mode": "disable"}})
    };
    runtime.block_on(async {
        let client = cluster.connect("postgres").await.unwrap();
        client
            .batch_execute("CREATE TABLE people (id int); GRANT SELECT ON people TO elt;")
            .await
            .unwrap();
    });
    let bad = api.connection(pg("right"), "people");
    api.break_password(&bad, "wrong");
    api.start_sync(&good);
    let bad_job = api.start_sync(&bad);
    let elt = api.elt_dir(&[("good", &good), ("bad", &bad)]);
    let output = wait_cmd(&elt, &[]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with(&format!(
            "airbyte_connection.bad {bad} job {bad_job} failed"
        )),
        "{stdout}"
    );
    assert!(lines[1].contains(" succeeded 2 rows"), "{stdout}");
}

#[test]
fn a_cancelled_sync_counts_as_finished_and_exits_one() {
    let api = Api::start();
    let http = StallingHttp::start();
    let id = http.connection(&api);
    let job = api.start_sync(&id);
    wait_until_running(&api, job);
    api.call(reqwest::Method::DELETE, &format!("/jobs/{job}"), None);
    let elt = api.elt_dir(&[("slow", &id)]);
    let output = wait_cmd(&elt, &["--timeout", "20s"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains(&format!("job {job} cancelled")),
        "{}",
        text(&output)
    );
}

#[test]
fn a_sync_still_running_at_the_timeout_exits_124() {
    let api = Api::start();
    let http = StallingHttp::start();
    let id = http.connection(&api);
    let job = api.start_sync(&id);
    wait_until_running(&api, job);
    let elt = api.elt_dir(&[("slow", &id)]);
    let started = Instant::now();
    let output = wait_cmd(&elt, &["--timeout", "1s"]);
    assert_eq!(output.status.code(), Some(124), "{}", text(&output));
    assert!(started.elapsed() < Duration::from_secs(15));
    assert!(
        text(&output).contains("still running at the timeout"),
        "{}",
        text(&output)
    );
    api.call(reqwest::Method::DELETE, &format!("/jobs/{job}"), None);
}

#[test]
fn bad_input_exits_two() {
    let api = Api::start();
    let empty = api.dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let output = wait_cmd(&empty, &[]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        text(&output).contains("terraform.tfstate"),
        "{}",
        text(&output)
    );
    let id = api.connection(csv_source(api.dir.path(), 1), "people");
    let elt = api.elt_dir(&[("people", &id)]);
    let wrong = wait_cmd(&elt, &["--password", "nope"]);
    assert_eq!(wrong.status.code(), Some(2), "{}", text(&wrong));
    assert!(text(&wrong).contains("401"), "{}", text(&wrong));
}

#[test]
fn check_job_status_script_runs_the_wait() {
    let api = Api::start();
    let id = api.connection(csv_source(api.dir.path(), 4), "people");
    api.start_sync(&id);
    let workspace = api.dir.path().join("workspace");
    let elt = api.elt_dir(&[("people", &id)]);
    std::fs::create_dir_all(workspace.join("bin")).unwrap();
    std::fs::rename(&elt, workspace.join("elt")).unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_eltbench"),
        workspace.join("bin/eltbench"),
    )
    .unwrap();
    let script = workspace.join("check_job_status");
    std::fs::write(&script, eltbench_airbyte::wait::CHECK_JOB_STATUS).unwrap();
    let output = Command::new("sh")
        .arg(&script)
        .args(["--poll", "0.1"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains(" succeeded 4 rows"),
        "{}",
        text(&output)
    );
}
