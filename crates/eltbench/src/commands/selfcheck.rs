//! `eltbench selfcheck`: the pipeline's self-check on a suite that ships
//! source data and ground truth but no gold SQL (the ELT-Bench compatibility
//! test bed): it validates the suite,
//! then per task brings the task's sources up, applies a gold `main.tf`
//! generated from its config through the Terraform emulation, syncs every
//! connection through the Airbyte API into the task's DuckDB warehouse (the
//! stage-1 oracle), loads the suite's ground truth as the model tables (no
//! gold SQL ships with the suite), and scores both stages. A correct pipeline
//! and scorer read 100% SRDEL and 100% SRDT; anything else exits 1.
//! `--reference-only` skips the live pipeline and loads `data/` directly.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use eltbench_score::{Compat, ScoreReport};
use eltbench_task::Suite;
use eltbench_warehouse::{Access, DuckDbWarehouse};

use clap::Args;

use crate::cli::SuiteArg;
use crate::commands::score::print_report;
use crate::printer::{BadInput, Printer, user_error};

/// `eltbench selfcheck`.
#[derive(Debug, Args)]
pub struct SelfcheckArgs {
    #[command(flatten)]
    pub suite: SuiteArg,
    /// Where to write the run directories, warehouses and `score.json`.
    #[arg(long, default_value = "eltbench-selfcheck")]
    pub out: std::path::PathBuf,
    /// Skip the live pipeline: load `data/` straight into the warehouses
    /// (seconds instead of a minute or two, no services started).
    #[arg(long)]
    pub reference_only: bool,
    /// Only these tasks (comma-separated); default: every task with data.
    #[arg(long, value_delimiter = ',')]
    pub tasks: Vec<String>,
}

pub fn run(args: SelfcheckArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let root = &args.suite.suite;
    let suite = validate(root, printer)?;
    let dbs = select(&suite, &args)?;
    let mut scores = Vec::with_capacity(dbs.len());
    for (i, db) in dbs.iter().enumerate() {
        let started = std::time::Instant::now();
        let warehouse = if args.reference_only {
            reference(&suite, db, &args.out)?
        } else {
            pipeline(&suite, db, &args.out)?
        };
        let score = eltbench_score::score_task_file(&suite, db, &warehouse, Compat::Fixed)
            .map_err(user_error)?;
        let verdict = if score.srdel.passed { "pass" } else { "FAIL" };
        printer.info(&format!(
            "[{}/{}] {db}: SRDEL {verdict}, models {}/{} ({:.1} s)",
            i + 1,
            dbs.len(),
            score.matched_models(),
            score.scored_models(),
            started.elapsed().as_secs_f64()
        ));
        scores.push(score);
    }
    let report = eltbench_score::report(scores, Compat::Fixed);
    let json_path = args.out.join("score.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(&report)?)
        .with_context(|| format!("cannot write {}", json_path.display()))?;
    if printer.is_json() {
        printer.json_out(&report)?;
    } else {
        print_report(&report, false, printer);
        printer.out(&format!("full result: {}", json_path.display()));
    }
    Ok(verdict(&report, printer))
}

/// `--tasks` (each must exist and have data), else every task with data.
fn select(suite: &Suite, args: &SelfcheckArgs) -> anyhow::Result<Vec<String>> {
    let with_data = |db: &str| eltbench_score::reference::has_reference_data(suite, db);
    if args.tasks.is_empty() {
        let dbs: Vec<String> = suite
            .tasks()
            .map(|t| t.db.clone())
            .filter(|db| with_data(db))
            .collect();
        if dbs.is_empty() {
            let msg = format!("no task of {} has source data", suite.root().display());
            return Err(BadInput(msg).into());
        }
        return Ok(dbs);
    }
    for db in &args.tasks {
        eltbench_score::find_task(suite, db).map_err(user_error)?;
        if !with_data(db) {
            return Err(BadInput(format!("task {db} has no source data in the suite")).into());
        }
    }
    Ok(args.tasks.clone())
}

/// The stage-1 oracle, then the ground-truth models; returns the warehouse.
fn pipeline(suite: &Suite, db: &str, out: &Path) -> anyhow::Result<std::path::PathBuf> {
    let run_dir = out.join("runs").join(db);
    if run_dir.exists() {
        std::fs::remove_dir_all(&run_dir)
            .with_context(|| format!("cannot clear {}", run_dir.display()))?;
    }
    let stage1 = eltbench_harness::oracle::run_stage1_oracle(suite, db, &run_dir)
        .with_context(|| format!("the stage-1 oracle failed on {db}"))?;
    let warehouse = run_dir.join(format!("{db}.duckdb"));
    if !stage1.srdel.passed {
        return Ok(warehouse);
    }
    load_ground_truth(suite, db, &warehouse)?;
    Ok(warehouse)
}

/// Loads the ground truth of `db` as its model tables, as the reference does.
fn load_ground_truth(suite: &Suite, db: &str, warehouse: &Path) -> anyhow::Result<()> {
    let wh = DuckDbWarehouse::open(warehouse, db, Access::ReadWrite)?;
    let task = eltbench_score::find_task(suite, db).map_err(user_error)?;
    eltbench_score::reference::load_ground_truth(suite, task, &wh)?;
    Ok(())
}

/// `data/` and `gt/` loaded straight into a warehouse; returns its path.
fn reference(suite: &Suite, db: &str, out: &Path) -> anyhow::Result<std::path::PathBuf> {
    let build = eltbench_score::reference::build_reference(suite, db, &out.join("warehouses"))
        .map_err(user_error)?;
    Ok(build.path)
}

/// Loads the suite and prints its validation summary; errors stop the demo.
fn validate(root: &Path, printer: &Printer) -> anyhow::Result<Suite> {
    let suite = Suite::load_lenient(root)
        .with_context(|| format!("cannot load suite {}", root.display()))?;
    let problems = suite.validate();
    let errors: Vec<_> = problems.iter().filter(|p| p.is_error()).collect();
    let tasks = suite.tasks().count();
    let tables: usize = suite.tasks().map(|t| t.source_tables().len()).sum();
    let models: usize = suite.tasks().map(|t| t.models.len()).sum();
    printer.info(&format!(
        "suite {}: {tasks} tasks, {tables} source tables, {models} models: {} errors, {} warnings",
        root.display(),
        errors.len(),
        problems.len() - errors.len(),
    ));
    if let Some(first) = errors.first() {
        let msg = format!("the suite has {} errors, first: {first}", errors.len());
        return Err(BadInput(msg).into());
    }
    Ok(suite)
}

/// 0 when the self-check reads 100% on both stages, else 1.
fn verdict(report: &ScoreReport, printer: &Printer) -> ExitCode {
    let s = &report.summary;
    let full = |r: &eltbench_score::Rate| r.passed == r.total;
    if full(&s.srdel) && full(&s.srdt) && full(&s.srdt_run_date_dependent) {
        printer.info("self-check passed: SRDEL and SRDT are 100%");
        ExitCode::SUCCESS
    } else {
        printer.warn("self-check FAILED: the pipeline and the ground truth should score 100%");
        ExitCode::FAILURE
    }
}
