//! `eltbench demo`: the main job on the built-in defaults. It sets up what is
//! missing (the dbt toolchain), runs the `oracle` agent on every task of the
//! built-in suite through `eltbench run` — each trial brings its sources up,
//! applies the gold pipeline with Terraform against the Airbyte API, syncs
//! into the task's DuckDB warehouse, runs the gold dbt models and is scored —
//! then writes the job's reports and prints where they are. The gold
//! solutions must read SRDEL 100% and SRDT 100%; anything else exits 1.
//!
//! The demo never reads ground truth to build anything: the oracle applies
//! the suite's gold files through the same tools an agent uses.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser};

use crate::commands::run::{self, RunArgs};
use crate::printer::{BadInput, Printer};

/// The built-in suite, relative to the repository root.
const BUILTIN_SUITE: &str = "suites/builtin";

/// `eltbench demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// The suite (default: the built-in suite, `suites/builtin`).
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// The job directory (replaced if it holds an earlier demo job).
    #[arg(long, default_value = "eltbench-demo")]
    pub out: PathBuf,
    /// Only these tasks (comma-separated); default: every task of the suite.
    #[arg(long, value_delimiter = ',')]
    pub tasks: Vec<String>,
    /// Trials running at once.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
}

/// `eltbench run` as the demo runs it, parsed by the same argument rules.
#[derive(Debug, Parser)]
#[command(name = "eltbench run")]
struct RunCommand {
    #[command(flatten)]
    args: RunArgs,
}

pub fn run(args: DemoArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let suite = match &args.suite {
        Some(dir) => dir.clone(),
        None => builtin_suite()?,
    };
    clear_previous(&args.out)?;
    printer.info(&format!(
        "demo: the oracle agent on {} (gold pipelines and dbt models), job in {}",
        suite.display(),
        args.out.display()
    ));
    let run_args = run_args(&args, &suite)?;
    let code = run::run(run_args, printer)?;
    let summary = eltbench_harness::summarize_dir(&eltbench_harness::JobDir::new(&args.out))
        .with_context(|| format!("cannot read the job {}", args.out.display()))?;
    let s = &summary.score;
    let full = |r: &eltbench_score::Rate| r.total > 0 && r.passed == r.total;
    if code == ExitCode::SUCCESS && full(&s.srdel) && full(&s.srdt) {
        printer.info(&format!(
            "demo passed: SRDEL {} ({}/{} tasks), SRDT {} ({}/{} models)",
            s.srdel.percent(),
            s.srdel.passed,
            s.srdel.total,
            s.srdt.percent(),
            s.srdt.passed,
            s.srdt.total
        ));
        Ok(ExitCode::SUCCESS)
    } else {
        printer.warn(&format!(
            "demo FAILED: the gold solutions should score 100%, got SRDEL {} and SRDT {}",
            s.srdel.percent(),
            s.srdt.percent()
        ));
        Ok(ExitCode::FAILURE)
    }
}

/// The `eltbench run` arguments of the demo job.
fn run_args(args: &DemoArgs, suite: &Path) -> anyhow::Result<RunArgs> {
    let mut argv: Vec<String> = vec!["eltbench run".into(), "--suite".into()];
    argv.push(suite.display().to_string());
    argv.extend(["--agent".into(), "oracle".into()]);
    match args.tasks.is_empty() {
        true => argv.push("--all".into()),
        false => argv.extend(["--tasks".into(), args.tasks.join(",")]),
    }
    argv.extend(["--concurrency".into(), args.concurrency.to_string()]);
    argv.extend(["--timeout".into(), "10m".into()]);
    argv.extend(["--job-dir".into(), args.out.display().to_string()]);
    let parsed =
        RunCommand::try_parse_from(&argv).map_err(|e| BadInput(format!("demo arguments: {e}")))?;
    Ok(parsed.args)
}

/// The built-in suite: `suites/builtin` under the current directory, else
/// under the repository this binary was built from.
fn builtin_suite() -> anyhow::Result<PathBuf> {
    let here = PathBuf::from(BUILTIN_SUITE);
    if here.join("tasks").is_dir() {
        return Ok(here);
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let built = repo.join(BUILTIN_SUITE);
    if built.join("tasks").is_dir() {
        return Ok(built);
    }
    let msg = format!(
        "the built-in suite is not at {BUILTIN_SUITE} nor at {}: run the demo from the \
         eltbench repository or give --suite DIR",
        built.display()
    );
    Err(BadInput(msg).into())
}

/// Removes an earlier demo job in `out` (only a job directory: something
/// else there is left alone and reported).
fn clear_previous(out: &Path) -> anyhow::Result<()> {
    if !out.exists() {
        return Ok(());
    }
    if !out.join("job.json").is_file() {
        let msg = format!(
            "{} exists and is not an eltbench job directory: choose another --out",
            out.display()
        );
        return Err(BadInput(msg).into());
    }
    std::fs::remove_dir_all(out).with_context(|| format!("cannot clear {}", out.display()))
}
