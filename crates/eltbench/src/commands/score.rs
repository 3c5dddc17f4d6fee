//! `eltbench score`: score task warehouses against a suite (SRDEL, SRDT).
//!
//! Every warehouse is opened read-only; a missing or locked one scores its
//! task 0 with the reason, it does not stop the run. Exit 0 whenever scoring
//! ran, 2 for bad input (unknown task, broken suite), 1 for failures.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use eltbench_score::{Compat, ModelStatus, ScoreReport, TableStatus, TaskScore, WarehouseState};
use eltbench_task::Suite;

use crate::cli::{CompatArg, ScoreArgs};
use crate::printer::{BadInput, Printer, user_error};

pub fn run(args: ScoreArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let suite = Suite::load(&args.suite.suite)
        .with_context(|| format!("cannot load suite {}", args.suite.suite.display()))?;
    let compat = match args.compat {
        CompatArg::Fixed => Compat::Fixed,
        CompatArg::Original => Compat::Original,
    };
    let dbs = select_tasks(&suite, &args)?;
    let mut tasks = Vec::with_capacity(dbs.len());
    for db in &dbs {
        let path = args.warehouse_dir.join(format!("{db}.duckdb"));
        let score =
            eltbench_score::score_task_file(&suite, db, &path, compat).map_err(user_error)?;
        tasks.push(score);
    }
    let report = eltbench_score::report(tasks, compat);
    if printer.is_json() {
        printer.json_out(&report)?;
    } else {
        print_report(&report, args.verbose, printer);
    }
    Ok(ExitCode::SUCCESS)
}

/// `--tasks` (each must exist), `--all`, or every task with a warehouse file.
fn select_tasks(suite: &Suite, args: &ScoreArgs) -> anyhow::Result<Vec<String>> {
    if !args.tasks.is_empty() {
        for db in &args.tasks {
            eltbench_score::find_task(suite, db).map_err(user_error)?;
        }
        return Ok(args.tasks.clone());
    }
    let all = suite.tasks().map(|t| t.db.clone());
    if args.all {
        return Ok(all.collect());
    }
    let dbs: Vec<String> = all
        .filter(|db| has_warehouse(&args.warehouse_dir, db))
        .collect();
    if dbs.is_empty() {
        return Err(BadInput(format!(
            "no `<task>.duckdb` warehouse of any task of the suite in {} (use --all to score every task anyway)",
            args.warehouse_dir.display()
        ))
        .into());
    }
    Ok(dbs)
}

fn has_warehouse(dir: &Path, db: &str) -> bool {
    dir.join(format!("{db}.duckdb")).is_file()
}

pub(crate) fn print_report(report: &ScoreReport, verbose: bool, printer: &Printer) {
    let width = report
        .tasks
        .iter()
        .map(|t| t.db.len())
        .max()
        .unwrap_or(4)
        .max(4);
    printer.out(&format!("{:width$}  SRDEL  models  problems", "task"));
    for task in &report.tasks {
        printer.out(&task_line(task, width));
        for line in model_lines(task, verbose) {
            printer.out(&format!("{:width$}    {line}", ""));
        }
    }
    let s = &report.summary;
    printer.out("");
    printer.out(&format!(
        "SRDEL  {:>6}  ({} of {} tasks)",
        s.srdel.percent(),
        s.srdel.passed,
        s.srdel.total
    ));
    printer.out(&format!(
        "SRDT   {:>6}  ({} of {} date-independent models)",
        s.srdt.percent(),
        s.srdt.passed,
        s.srdt.total
    ));
    printer.out(&format!(
        "SRDT, run-date-dependent models (counted apart): {} ({} of {})",
        s.srdt_run_date_dependent.percent(),
        s.srdt_run_date_dependent.passed,
        s.srdt_run_date_dependent.total
    ));
    printer.out(&format!(
        "SRDT ignoring the stage-1 gate (diagnostic): {} ({} of {})",
        s.srdt_ungated.percent(),
        s.srdt_ungated.passed,
        s.srdt_ungated.total
    ));
    if !s.models_unkeyed.is_empty() {
        printer.out(&format!(
            "scored without eval keys: {}",
            s.models_unkeyed.join(", ")
        ));
    }
    if !s.models_without_ground_truth.is_empty() {
        printer.out(&format!(
            "no ground truth (not scored): {}",
            s.models_without_ground_truth.len()
        ));
    }
    printer.out(&format!("rule: {}", s.rule_description));
}

fn task_line(task: &TaskScore, width: usize) -> String {
    let srdel = if task.srdel.passed { "pass" } else { "FAIL" };
    let models = format!("{}/{}", task.matched_models(), task.scored_models());
    let problems = match &task.warehouse {
        WarehouseState::Unavailable { reason } => format!("warehouse unavailable: {reason}"),
        WarehouseState::Read => task
            .srdel
            .problems()
            .map(|(table, status)| table_problem(table, status))
            .collect::<Vec<_>>()
            .join("; "),
    };
    let line = format!("{:width$}  {srdel:5}  {models:6}  {problems}", task.db);
    line.trim_end().to_string()
}

fn table_problem(table: &str, status: &TableStatus) -> String {
    match status {
        TableStatus::Ok { .. } => format!("{table} ok"),
        TableStatus::Missing => format!("{table} missing"),
        TableStatus::NotBaseTable => format!("{table} is a view, not a table"),
        TableStatus::WrongCount { expected, actual } => {
            format!("{table} has {actual} rows, expected {expected}")
        }
    }
}

/// One line per model that is not matched, and with `verbose` the first
/// difference of every unmatched column.
fn model_lines(task: &TaskScore, verbose: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for (name, model) in &task.models {
        if model.status == ModelStatus::Matched || model.status == ModelStatus::NoGroundTruth {
            continue;
        }
        let dated = if model.run_date_dependent {
            " [run-date-dependent]"
        } else {
            ""
        };
        let why = match (&model.error, model.status) {
            (Some(error), ModelStatus::Unmatched) => error.name().to_string(),
            (Some(error), _) => format!("not scored: stage 1 failed (would be {})", error.name()),
            (None, ModelStatus::NotScoredStage1Failed) if model.matched_ungated => {
                "not scored: stage 1 failed (would match)".to_string()
            }
            (None, _) => "not scored: stage 1 failed".to_string(),
        };
        lines.push(format!("{name}: {why}{dated}"));
        if verbose {
            lines.extend(column_lines(model));
        }
    }
    lines
}

fn column_lines(model: &eltbench_score::ModelScore) -> Vec<String> {
    let Some(comparison) = &model.comparison else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    if !comparison.missing_columns.is_empty() {
        lines.push(format!(
            "  missing columns: {}",
            comparison.missing_columns.join(", ")
        ));
    }
    if comparison.rows_expected != comparison.rows_actual {
        lines.push(format!(
            "  rows: expected {}, got {}",
            comparison.rows_expected, comparison.rows_actual
        ));
    }
    for column in &comparison.unmatched_columns {
        let Some(diff) = &column.first_diff else {
            continue;
        };
        let key: Vec<String> = diff
            .key
            .iter()
            .map(|k| format!("{}={}", k.column, k.value.as_deref().unwrap_or("NULL")))
            .collect();
        lines.push(format!(
            "  {}: {} row(s) differ; first at row {}{}: expected {}, got {}",
            column.column,
            column.rows_differing,
            diff.row,
            if key.is_empty() {
                String::new()
            } else {
                format!(" ({})", key.join(", "))
            },
            diff.expected.as_deref().unwrap_or("NULL"),
            diff.actual.as_deref().unwrap_or("NULL"),
        ));
    }
    lines
}
