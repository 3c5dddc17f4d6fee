//! `eltbench demo`: the main job on the built-in defaults.
//!
//! Until the trial harness lands, the demo is the suite's self-check: it
//! validates the suite, builds a reference warehouse per task from the
//! suite's own data (as source tables) and ground truth (as models), and
//! scores them. A correct suite and scorer read 100% SRDEL and 100% SRDT; any
//! other result exits 1.

use std::process::ExitCode;

use anyhow::Context;
use eltbench_score::{Compat, ScoreReport};
use eltbench_task::Suite;

use crate::cli::DemoArgs;
use crate::commands::score::{into_anyhow, print_report};
use crate::printer::{BadInput, Printer};

pub fn run(args: DemoArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let root = &args.suite.suite;
    let suite = validate(root, printer)?;
    let dbs: Vec<String> = suite
        .tasks()
        .map(|t| t.db.clone())
        .filter(|db| eltbench_score::reference::has_reference_data(&suite, db))
        .collect();
    if dbs.is_empty() {
        let msg = format!("no task of {} has source data", root.display());
        return Err(BadInput(msg).into());
    }
    let warehouses = args.out.join("warehouses");
    let mut scores = Vec::with_capacity(dbs.len());
    for (i, db) in dbs.iter().enumerate() {
        printer.info(&format!(
            "[{}/{}] {db}: building and scoring",
            i + 1,
            dbs.len()
        ));
        let build = eltbench_score::reference::build_reference(&suite, db, &warehouses)
            .map_err(into_anyhow)?;
        let score = eltbench_score::score_task_file(&suite, db, &build.path, Compat::Fixed)
            .map_err(into_anyhow)?;
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

/// Loads the suite and prints its validation summary; errors stop the demo.
fn validate(root: &std::path::Path, printer: &Printer) -> anyhow::Result<Suite> {
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
        printer.info("self-check passed: the suite's data and ground truth score 100%");
        ExitCode::SUCCESS
    } else {
        printer.warn("self-check FAILED: reference warehouses should score 100%");
        ExitCode::FAILURE
    }
}
