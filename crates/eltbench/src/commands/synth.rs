//! `eltbench synth`: generate deterministic synthetic source data for tasks
//! into a new suite directory, one task per worker thread, a progress line
//! per task and a summary.

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::Context;
use eltbench_synth::{SynthError, SynthOptions, SynthReport, Synthesizer};
use eltbench_task::Suite;

use crate::cli::SynthArgs;
use crate::printer::{BadInput, Printer, user_error};

pub fn run(args: SynthArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let suite = Suite::load(&args.suite.suite)
        .with_context(|| format!("cannot load suite {}", args.suite.suite.display()))?;
    let dbs = selected_tasks(&suite, &args)?;
    let options = SynthOptions {
        seed: args.seed,
        max_rows: (!args.full).then_some(args.scale),
    };
    let synth = Synthesizer::new(&suite, options).map_err(user_error)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let reports = generate(&synth, &dbs, &args.out, threads.max(1), printer)?;
    printer.json_out(&reports)?;
    let tables: usize = reports.iter().map(|r| r.tables.len()).sum();
    let rows: u64 = reports.iter().map(SynthReport::total_rows).sum();
    let cap = if args.full {
        "exact row counts".to_owned()
    } else {
        format!("at most {} rows per table", args.scale)
    };
    printer.out(&format!(
        "generated {} tasks, {tables} tables, {rows} rows into {} (seed {}, {cap})",
        reports.len(),
        args.out.display(),
        args.seed
    ));
    Ok(ExitCode::SUCCESS)
}

/// `--tasks`, else every task with `--all`, else every task without `data/`.
fn selected_tasks(suite: &Suite, args: &SynthArgs) -> anyhow::Result<Vec<String>> {
    for db in &args.tasks {
        if suite.task(db).is_none() {
            let near = suite.near_task_names(db);
            let hint = if near.is_empty() {
                String::new()
            } else {
                format!(" (did you mean {}?)", near.join(", "))
            };
            return Err(BadInput(format!("no task `{db}` in the suite{hint}")).into());
        }
    }
    if !args.tasks.is_empty() {
        return Ok(args.tasks.clone());
    }
    let has_data = |db: &str| suite.root().join("data").join(db).is_dir();
    Ok(suite
        .tasks()
        .map(|t| t.db.clone())
        .filter(|db| args.all || !has_data(db))
        .collect())
}

/// Generates `dbs` on `threads` workers; reports in task order.
fn generate(
    synth: &Synthesizer<'_>,
    dbs: &[String],
    out: &Path,
    threads: usize,
    printer: &Printer,
) -> anyhow::Result<Vec<SynthReport>> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let results = std::thread::scope(|scope| {
        for _ in 0..threads.min(dbs.len()) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                while let Some(db) = dbs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let result = synth.synthesize(db, out);
                    let failed = result.is_err();
                    if sender.send((db.clone(), result)).is_err() || failed {
                        next.store(dbs.len(), Ordering::Relaxed);
                    }
                }
            });
        }
        drop(sender);
        collect(receiver, dbs.len(), printer)
    });
    let mut reports = results?;
    reports.sort_by(|a, b| a.db.cmp(&b.db));
    Ok(reports)
}

fn collect(
    receiver: mpsc::Receiver<(String, Result<SynthReport, SynthError>)>,
    total: usize,
    printer: &Printer,
) -> anyhow::Result<Vec<SynthReport>> {
    let mut reports = Vec::with_capacity(total);
    let mut first_error = None;
    for (db, result) in receiver {
        match result {
            Ok(report) => {
                let fks: usize = report.tables.iter().map(|t| t.foreign_keys.len()).sum();
                printer.info(&format!(
                    "[{}/{total}] {db}: {} tables, {} rows, {fks} foreign keys",
                    reports.len() + 1,
                    report.tables.len(),
                    report.total_rows()
                ));
                reports.push(report);
            }
            Err(err) => {
                printer.info(&format!("{db}: failed"));
                first_error.get_or_insert(user_error(err).context(format!("task {db}")));
            }
        }
    }
    match first_error {
        Some(err) => Err(err),
        None => Ok(reports),
    }
}
