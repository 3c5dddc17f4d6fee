//! Harness overhead per trial, with no agent: the environment up (the
//! task's sources via `Environment::start` and the Airbyte API server),
//! scoring a full warehouse (the task's reference warehouse, as a perfect
//! agent would leave it: stage 1 and every stage-2 comparison), and the
//! teardown, for every task of `../shared/elt-bench` with source data.
//!
//! Prints median and p90 per phase, the median total against the 3 s
//! target, and throughput (trials per minute) with concurrency 1 and 2.
//! Run: `cargo bench -p eltbench-harness --bench overhead`
//! (`ELTBENCH_BENCH_TASKS=a,b` limits the tasks, `ELTBENCH_BENCH_ROUNDS=N`
//! repeats each task N times at concurrency 1, default 1).

#![allow(clippy::print_stdout, clippy::cast_precision_loss)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use eltbench_airbyte::{AirbyteServer, SyncEngine, SyncEngineOptions};
use eltbench_score::reference::{build_reference, has_reference_data};
use eltbench_score::{Compat, score_task_file};
use eltbench_sources::env::{EnvOptions, Environment};
use eltbench_task::Suite;

/// The target median overhead per trial.
const TARGET: Duration = Duration::from_secs(3);

/// One trial's phases.
#[derive(Debug, Clone, Copy)]
struct Phases {
    up: Duration,
    score: Duration,
    down: Duration,
}

impl Phases {
    fn total(&self) -> Duration {
        self.up + self.score + self.down
    }
}

type BenchResult<T> = Result<T, String>;

/// Picks one phase of a trial.
type PhaseOf = fn(&Phases) -> Duration;

fn main() -> BenchResult<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench");
    let suite = Suite::load_lenient(&root).map_err(|e| e.to_string())?;
    let tasks = tasks(&suite);
    let rounds = env_number("ELTBENCH_BENCH_ROUNDS", 1);
    let tmp = std::env::temp_dir().join(format!("eltbench-overhead-{}", std::process::id()));
    let refs = tmp.join("reference");
    println!(
        "harness overhead: {} tasks of {}",
        tasks.len(),
        root.display()
    );
    for db in &tasks {
        build_reference(&suite, db, &refs).map_err(|e| format!("{db}: {e}"))?;
    }
    let plan: Vec<String> = (0..rounds).flat_map(|_| tasks.clone()).collect();
    let (one, wall1) = run(&suite, &plan, &refs, &tmp.join("c1"), 1)?;
    print_phases(&one);
    let (_, wall2) = run(&suite, &tasks, &refs, &tmp.join("c2"), 2)?;
    println!(
        "throughput: concurrency 1 {:.1} trials/min ({} trials in {:.1} s), \
         concurrency 2 {:.1} trials/min ({} trials in {:.1} s), speed-up x{:.2}",
        per_minute(plan.len(), wall1),
        plan.len(),
        wall1.as_secs_f64(),
        per_minute(tasks.len(), wall2),
        tasks.len(),
        wall2.as_secs_f64(),
        per_minute(tasks.len(), wall2) / per_minute(plan.len(), wall1)
    );
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(())
}

/// Tasks with source data (or `ELTBENCH_BENCH_TASKS`), sorted.
fn tasks(suite: &Suite) -> Vec<String> {
    let wanted = std::env::var("ELTBENCH_BENCH_TASKS").unwrap_or_default();
    let wanted: Vec<&str> = wanted.split(',').filter(|s| !s.is_empty()).collect();
    let mut tasks: Vec<String> = suite
        .tasks()
        .map(|t| t.db.clone())
        .filter(|db| has_reference_data(suite, db))
        .filter(|db| wanted.is_empty() || wanted.contains(&db.as_str()))
        .collect();
    tasks.sort();
    tasks
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `plan` with `workers` threads; the phases of each trial (in plan
/// order) and the wall-clock time of the whole run.
fn run(
    suite: &Suite,
    plan: &[String],
    refs: &Path,
    dir: &Path,
    workers: usize,
) -> BenchResult<(Vec<(String, Phases)>, Duration)> {
    let queue = Arc::new(Mutex::new(
        plan.iter().cloned().enumerate().collect::<Vec<_>>(),
    ));
    let results = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (queue, results) = (queue.clone(), results.clone());
            scope.spawn(move || {
                loop {
                    let next = queue.lock().ok().and_then(|mut q| q.pop());
                    let Some((i, db)) = next else { break };
                    let run_dir = dir.join(format!("{i:03}-{db}"));
                    let outcome = trial(suite, &db, refs, &run_dir);
                    if let Ok(mut r) = results.lock() {
                        r.push((i, db, outcome));
                    }
                }
            });
        }
    });
    let wall = started.elapsed();
    let mut results = std::mem::take(&mut *results.lock().map_err(|e| e.to_string())?);
    results.sort_by_key(|(i, _, _)| *i);
    let phases = results
        .into_iter()
        .map(|(_, db, outcome)| outcome.map(|p| (db, p)))
        .collect::<BenchResult<Vec<_>>>()?;
    Ok((phases, wall))
}

/// One agent-less trial of `db` in `run_dir`.
fn trial(suite: &Suite, db: &str, refs: &Path, run_dir: &Path) -> BenchResult<Phases> {
    readable_dir(run_dir)?;
    let t = Instant::now();
    let env = Environment::start(suite, db, EnvOptions::new(run_dir))
        .map_err(|e| format!("{db}: environment: {e}"))?;
    let server = airbyte().map_err(|e| format!("{db}: airbyte: {e}"))?;
    let up = t.elapsed();
    // The agent's work, not timed: its warehouse appears.
    let warehouse = warehouse_copy(db, refs, run_dir)?;
    let t = Instant::now();
    let score = score_task_file(suite, db, &warehouse, Compat::Fixed)
        .map_err(|e| format!("{db}: score: {e}"))?;
    let scored = t.elapsed();
    if !score.srdel.passed {
        return Err(format!("{db}: the reference warehouse failed stage 1"));
    }
    let t = Instant::now();
    drop(server);
    env.stop().map_err(|e| format!("{db}: stop: {e}"))?;
    let down = t.elapsed();
    let _ = std::fs::remove_dir_all(run_dir);
    Ok(Phases {
        up,
        score: scored,
        down,
    })
}

fn airbyte() -> Result<AirbyteServer, String> {
    let engine = SyncEngine::new(SyncEngineOptions::default()).map_err(|e| e.to_string())?;
    let engine = Arc::new(engine);
    let bind = SocketAddr::from(([127, 0, 0, 1], 0));
    AirbyteServer::start(bind, engine.airbyte_config()).map_err(|e| e.to_string())
}

fn warehouse_copy(db: &str, refs: &Path, run_dir: &Path) -> BenchResult<PathBuf> {
    let to = run_dir.join(format!("{db}.duckdb"));
    std::fs::copy(refs.join(format!("{db}.duckdb")), &to)
        .map_err(|e| format!("{}: {e}", to.display()))?;
    Ok(to)
}

/// The PostgreSQL server runs as `postgres` and must reach its files.
fn readable_dir(dir: &Path) -> BenchResult<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::Permissions::from_mode(0o755);
    let mut path = PathBuf::new();
    for part in dir.components() {
        path.push(part);
        if !path.exists() {
            std::fs::create_dir(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            std::fs::set_permissions(&path, mode.clone())
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

fn print_phases(trials: &[(String, Phases)]) {
    println!("per trial, concurrency 1 ({} trials):", trials.len());
    println!(
        "  {:<16} {:>9} {:>9} {:>9}",
        "phase", "median", "p90", "max"
    );
    let phases: [(&str, PhaseOf); 4] = [
        ("environment up", |p| p.up),
        ("scoring", |p| p.score),
        ("teardown", |p| p.down),
        ("total", Phases::total),
    ];
    for (name, f) in phases {
        let mut d: Vec<f64> = trials.iter().map(|(_, p)| f(p).as_secs_f64()).collect();
        d.sort_by(f64::total_cmp);
        println!(
            "  {name:<16} {:>8.3}s {:>8.3}s {:>8.3}s",
            quantile(&d, 0.5),
            quantile(&d, 0.9),
            d.last().copied().unwrap_or(0.0)
        );
    }
    let mut totals: Vec<f64> = trials
        .iter()
        .map(|(_, p)| p.total().as_secs_f64())
        .collect();
    totals.sort_by(f64::total_cmp);
    let median = quantile(&totals, 0.5);
    let ratio = median / TARGET.as_secs_f64();
    let verdict = if ratio <= 1.0 { "within" } else { "OVER" };
    println!(
        "  median total {median:.3}s = {:.0}% of the {}s target ({verdict} target)",
        ratio * 100.0,
        TARGET.as_secs()
    );
    let slowest = trials.iter().max_by(|a, b| a.1.total().cmp(&b.1.total()));
    if let Some((db, p)) = slowest {
        println!("  slowest: {db} ({:.3}s)", p.total().as_secs_f64());
    }
}

/// Nearest-rank quantile of sorted values (0 when empty).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn per_minute(trials: usize, wall: Duration) -> f64 {
    trials as f64 * 60.0 / wall.as_secs_f64().max(1e-9)
}
