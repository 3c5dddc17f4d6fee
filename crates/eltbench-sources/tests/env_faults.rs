//! Faults while bringing an environment up: a pinned port that is taken, a missing data
//! file, a ragged CSV row, PostgreSQL killed while tables load. Each is an error that
//! names the cause, and leaves no process and no listening port behind.

mod common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use eltbench_sources::EnvError;
use eltbench_sources::env::{EnvOptions, Environment, PortPins, Progress};
use eltbench_sources::postgres::procs;
use eltbench_task::{SourceKind, Suite};

use common::clients;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/env-suite")
}

fn start(run: &Path, edit: impl FnOnce(&mut EnvOptions)) -> Result<Environment, EnvError> {
    let suite = Suite::load(&fixture()).unwrap();
    let mut opts = EnvOptions::new(run);
    edit(&mut opts);
    Environment::start(&suite, "shop", opts)
}

fn assert_nothing_left(run: &Path) {
    let left = clients::processes_under(&run.canonicalize().unwrap());
    assert!(
        left.is_empty(),
        "processes left under {}: {left:?}",
        run.display()
    );
}

#[test]
fn a_taken_pinned_port_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let err = start(&tmp.path().join("run"), |o| {
        o.ports = PortPins {
            mongodb: Some(port),
            ..PortPins::default()
        };
    })
    .expect_err("start must fail");
    assert!(matches!(err, EnvError::PortInUse { kind: SourceKind::Mongodb, port: p } if p == port));
    assert!(err.is_bad_input());
    assert!(err.to_string().contains(&format!("port {port}")), "{err}");
    assert_nothing_left(&tmp.path().join("run"));
    assert!(
        !tmp.path().join("run/postgres").exists(),
        "nothing should have started"
    );
}

#[test]
fn a_missing_data_file_names_the_file_and_the_way_out() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("synthetic");
    std::fs::create_dir_all(&empty).unwrap();
    let err = start(&tmp.path().join("run"), |o| {
        o.data_dir = Some(empty.clone())
    })
    .expect_err("start must fail");
    let text = err.to_string();
    assert!(err.is_bad_input());
    assert!(
        text.contains(&empty.join("orders.csv").display().to_string()),
        "{text}"
    );
    assert!(
        text.contains("--data-dir") && text.contains("synthetic"),
        "{text}"
    );
    assert_nothing_left(&tmp.path().join("run"));
}

#[test]
fn a_data_dir_override_is_used_like_the_suite_data() {
    let tmp = tempfile::tempdir().unwrap();
    let synth = tmp.path().join("synth").join("shop");
    std::fs::create_dir_all(&synth).unwrap();
    for entry in std::fs::read_dir(fixture().join("data/shop")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, synth.join(path.file_name().unwrap())).unwrap();
    }
    // One table differs from the suite's, to prove the override is what is served.
    std::fs::write(
        synth.join("regions.csv"),
        "code,name,population\nW,West,5\n",
    )
    .unwrap();
    let env = start(&tmp.path().join("run"), |o| {
        o.data_dir = Some(tmp.path().join("synth"))
    })
    .unwrap();
    let url = env.record().endpoints.flat_files.as_ref().unwrap().urls["regions"].clone();
    let body = reqwest::blocking::get(&url).unwrap().text().unwrap();
    assert_eq!(body, "code,name,population\nW,West,5\n");
    env.stop().unwrap();
}

#[test]
fn a_ragged_csv_row_is_an_error_with_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let err = start(&tmp.path().join("run"), |o| {
        o.data_dir = Some(fixture().join("bad-data"));
    })
    .expect_err("start must fail");
    let text = err.to_string();
    assert!(text.contains("items.csv:6"), "{text}");
    assert!(text.contains("3 fields but the header has 4"), "{text}");
    assert!(err.is_bad_input());
    assert_nothing_left(&tmp.path().join("run"));
}

#[test]
fn postgres_killed_while_loading_fails_the_start_and_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let ready: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&ready);
    let err = start(&run, move |o| {
        let postmaster = Mutex::new(None);
        o.progress = Some(Arc::new(move |event: &Progress| match event {
            Progress::PostgresStarted { pid, .. } => *postmaster.lock().unwrap() = *pid,
            // Kill the server once the first of the two tables is in.
            Progress::TableLoaded {
                kind: SourceKind::Postgres,
                ..
            } => {
                if let Some(pid) = postmaster.lock().unwrap().take() {
                    procs::kill_now(pid).unwrap();
                    while procs::is_alive(pid) {
                        std::thread::sleep(std::time::Duration::from_millis(10));
                    }
                }
            }
            Progress::SourceReady { endpoint, .. } => seen.lock().unwrap().push(endpoint.clone()),
            _ => {}
        }));
    })
    .expect_err("start must fail");
    assert!(matches!(err, EnvError::Postgres(_)), "{err:?}");
    assert!(err.to_string().contains("PostgreSQL"), "{err}");
    assert!(!err.is_bad_input());
    assert_nothing_left(&run);
    let endpoints = ready.lock().unwrap().clone();
    assert_eq!(endpoints.len(), 4, "{endpoints:?}");
    for endpoint in endpoints {
        let port: u16 = endpoint
            .rsplit(':')
            .next()
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(!clients::port_open(port), "{endpoint} still open");
    }
}
