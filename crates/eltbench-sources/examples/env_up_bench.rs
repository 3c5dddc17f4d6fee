//! Time to bring up each of the 22 real-data tasks with `Environment::start` (every
//! source, every table loaded) and to stop it again, with the time spent in
//! PostgreSQL's `initdb` + server start measured alone in the same run as the peer:
//! it is the floor for any task with a PostgreSQL source.
//!
//! Run: `cargo run -p eltbench-sources --example env_up_bench` (add `--release` for
//! optimised servers; the time is dominated by PostgreSQL start-up either way).
#![allow(clippy::print_stdout)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use eltbench_sources::env::{EnvOptions, Environment};
use eltbench_sources::{PgCluster, PgClusterOptions};
use eltbench_task::Suite;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench");
    let suite = Suite::load(&root)?;
    let mut dbs: Vec<String> = std::fs::read_dir(root.join("data"))?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dbs.sort();
    let peer = time_bare_postgres()?;
    println!("peer: bare PostgreSQL cluster (initdb + start + stop): {peer:.2?}");
    println!(
        "{:<20} {:>7} {:>7} {:>9} {:>9} {:>7}",
        "task", "tables", "rows", "up", "down", "up/peer"
    );
    let (mut total_up, mut total_down) = (Duration::ZERO, Duration::ZERO);
    for db in &dbs {
        let tmp = tempfile::tempdir()?;
        let started = Instant::now();
        let env = Environment::start(&suite, db, EnvOptions::new(tmp.path().join("run")))?;
        let up = started.elapsed();
        let tables = suite.expected_rows(db).map_or(0, |t| t.len());
        let rows: u64 = suite.expected_rows(db).map_or(0, |t| t.values().sum());
        let stopping = Instant::now();
        env.stop()?;
        let down = stopping.elapsed();
        total_up += up;
        total_down += down;
        let ratio = up.as_secs_f64() / peer.as_secs_f64();
        println!("{db:<20} {tables:>7} {rows:>7} {up:>9.2?} {down:>9.2?} {ratio:>7.2}");
    }
    let n = dbs.len() as u32;
    println!(
        "mean up {:.2?}, mean down {:.2?} over {n} tasks",
        total_up / n,
        total_down / n
    );
    Ok(())
}

fn time_bare_postgres() -> Result<Duration, Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let started = Instant::now();
    let cluster = PgCluster::start(&tmp.path().join("pg"), PgClusterOptions::default())?;
    cluster.stop()?;
    Ok(started.elapsed())
}
