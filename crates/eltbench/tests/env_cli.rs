//! `eltbench env up|status|down` as a user runs them: `up` in the background on the
//! sources crate's fixture task (all five kinds), `status` while it serves, `down`
//! from another process; afterwards the process is gone, every port is free and no
//! PostgreSQL process of the run directory is left. Also: `up` on a real-data task
//! with `--json`, stopped by SIGTERM, and the faults a user meets (taken port, missing
//! data) with exit code 2.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn fixture_suite() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../eltbench-sources/tests/fixtures/env-suite")
}

fn elt_bench() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench")
}

fn eltbench(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_eltbench"));
    cmd.args(args).env_remove("ELTBENCH_SUITE");
    cmd
}

fn run(args: &[&str]) -> Output {
    let out = eltbench(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "eltbench panicked: {stderr}");
    out
}

/// Starts `env up` in the background and waits for `RUN/env.json`.
fn up_in_background(args: &[&str], run_dir: &Path) -> Child {
    let mut child = eltbench(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !run_dir.join("env.json").exists() {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            panic!(
                "env up exited early ({status}): {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert!(Instant::now() < deadline, "env up did not come up in time");
        std::thread::sleep(Duration::from_millis(100));
    }
    child
}

fn record(run_dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(run_dir.join("env.json")).unwrap()).unwrap()
}

fn ports(record: &serde_json::Value) -> Vec<u16> {
    let endpoints = record["endpoints"].as_object().unwrap();
    endpoints
        .values()
        .map(|e| e["port"].as_u64().unwrap() as u16)
        .collect()
}

fn port_open(port: u16) -> bool {
    TcpStream::connect(("127.0.0.1", port)).is_ok()
}

/// Live pids whose working directory or command line is under `dir`.
fn processes_under(dir: &Path) -> Vec<i32> {
    let needle = dir.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let zombie = stat
                .rsplit_once(')')
                .is_some_and(|(_, r)| r.trim_start().starts_with('Z'));
            let cwd =
                std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|c| c.starts_with(dir));
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            !zombie && (cwd || String::from_utf8_lossy(&cmdline).contains(&needle))
        })
        .collect()
}

#[test]
fn up_status_down_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    let suite = fixture_suite();
    let dir = run_dir.to_str().unwrap();
    let args = [
        "env",
        "up",
        "--suite",
        suite.to_str().unwrap(),
        "shop",
        "--dir",
        dir,
    ];
    let mut child = up_in_background(&args, &run_dir);
    let rec = record(&run_dir);
    assert_eq!(rec["pid"], child.id());
    let ports = ports(&rec);
    assert_eq!(ports.len(), 5);
    assert!(ports.iter().all(|p| port_open(*p)));

    let status = run(&["env", "status", "--dir", dir]);
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(status.status.success(), "{text}");
    assert!(
        text.contains("running") && text.contains("postgres server  up"),
        "{text}"
    );
    let json = run(&["env", "status", "--dir", dir, "--json"]);
    let parsed: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(parsed["running"], true);
    assert_eq!(parsed["ports"]["aws_s3"]["open"], true);

    let again = run(&args);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already running"));

    let down = run(&["env", "down", "--dir", dir]);
    assert!(
        down.status.success(),
        "{}",
        String::from_utf8_lossy(&down.stderr)
    );
    let exit = child.wait().unwrap();
    assert!(exit.success(), "env up exit: {exit}");
    for port in &ports {
        assert!(!port_open(*port), "port {port} still open");
    }
    let canonical = run_dir.canonicalize().unwrap();
    assert!(
        processes_under(&canonical).is_empty(),
        "{:?}",
        processes_under(&canonical)
    );
    let after = run(&["env", "status", "--dir", dir]);
    assert_eq!(after.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&after.stdout).contains("not running"));
}

#[test]
fn up_on_real_data_prints_json_and_stops_on_sigterm() {
    let tmp = tempfile::tempdir().unwrap();
    let run_dir = tmp.path().join("run");
    let suite = elt_bench();
    let dir = run_dir.to_str().unwrap();
    let args = [
        "env",
        "up",
        "--suite",
        suite.to_str().unwrap(),
        "amplitude",
        "--dir",
        dir,
        "--json",
    ];
    let child = up_in_background(&args, &run_dir);
    let ports = ports(&record(&run_dir));
    nix_kill(child.id(), "TERM");
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed["db"], "amplitude");
    assert_eq!(printed["endpoints"]["postgres"]["database"], "amplitude");
    assert!(String::from_utf8_lossy(&out.stderr).contains("SIGTERM"));
    for port in ports {
        assert!(!port_open(port), "port {port} still open");
    }
    assert!(processes_under(&run_dir.canonicalize().unwrap()).is_empty());
}

fn nix_kill(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn a_taken_port_and_missing_data_exit_2_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = fixture_suite();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let run_dir = tmp.path().join("run");
    let dir = run_dir.to_str().unwrap();
    let s = suite.to_str().unwrap();
    let out = run(&[
        "env",
        "up",
        "--suite",
        s,
        "shop",
        "--dir",
        dir,
        "--api-port",
        &port,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("port {port}")) && stderr.contains("custom_api"),
        "{stderr}"
    );

    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = run(&[
        "env",
        "up",
        "--suite",
        s,
        "shop",
        "--dir",
        dir,
        "--data-dir",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("orders.csv") && stderr.contains("--data-dir"),
        "{stderr}"
    );
    assert!(processes_under(&run_dir.canonicalize().unwrap()).is_empty());

    let out = run(&["env", "status", "--dir", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "no env.json is bad input");
}
