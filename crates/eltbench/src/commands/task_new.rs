//! `eltbench tasks new <db> --from DIR|FILE.sqlite --suite DIR`: scaffold a
//! task from a directory of CSV files or a SQLite file (eltbench-author does
//! the work), then validate the suite and say what is left to fill in.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use eltbench_author::{NewTask, new_task, parse_kinds, read_tables};
use eltbench_task::Suite;

use crate::printer::{Printer, user_error};

/// Arguments of `eltbench tasks new`.
#[derive(Debug, Args)]
pub struct TaskNewArgs {
    /// The new task's database name (`[a-z][a-z0-9_]*`).
    pub db: String,
    /// A directory of `<table>.csv` files (header line + rows) or a SQLite file.
    #[arg(long)]
    pub from: PathBuf,
    /// The suite to add the task to (created when missing).
    #[arg(long, env = "ELTBENCH_SUITE")]
    pub suite: PathBuf,
    /// Source kinds to deal tables over: `auto` (all five) or a comma-separated
    /// list of postgres, mongodb, custom_api, aws_s3, flat_files.
    #[arg(long, default_value = "auto")]
    pub kinds: String,
    /// Replace the task if it already exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: TaskNewArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let kinds = parse_kinds(&args.kinds).map_err(user_error)?;
    let tables = read_tables(&args.from).map_err(user_error)?;
    let task = NewTask {
        db: args.db.clone(),
        tables,
        kinds,
        force: args.force,
    };
    let report = new_task(&args.suite, &task).map_err(user_error)?;
    printer.json_out(&report)?;
    for (table, t) in &report.tables {
        let format = t
            .format
            .map(|f| format!(" ({f:?})").to_lowercase())
            .unwrap_or_default();
        printer.out(&format!(
            "{table}: {}{format}, {} rows, {} columns",
            t.kind, t.rows, t.columns
        ));
    }
    printer.out(&format!("wrote {}", report.task_dir.display()));
    let problems = Suite::load_lenient(&args.suite)?.validate();
    let mine: Vec<_> = problems
        .iter()
        .filter(|p| p.to_string().contains(&args.db))
        .collect();
    for problem in &mine {
        printer.warn(&problem.to_string());
    }
    for step in &report.todo {
        printer.out(&format!("todo: {step}"));
    }
    let failed = mine.iter().any(|p| p.is_error());
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
