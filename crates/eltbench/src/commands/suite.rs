//! `eltbench suite import elt-bench`: convert a checkout of the original
//! ELT-Bench repository into an eltbench suite, then report what `tasks
//! validate` finds in it. `eltbench suite perturb`: derive a renamed,
//! re-valued variant of a suite and recompute its ground truth by running
//! each task's gold end to end (`tasks verify --write-gt`). eltbench-author
//! writes the files; the harness runs the gold.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};
use eltbench_author::{import_elt_bench, perturb_suite};
use eltbench_dbt::DbtToolchain;
use eltbench_harness::oracle::verify_task;
use eltbench_task::Suite;

use crate::printer::{Printer, user_error};

/// Arguments of `eltbench suite`.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    #[command(subcommand)]
    pub action: SuiteAction,
}

/// `eltbench suite` subcommands.
#[derive(Debug, Subcommand)]
pub enum SuiteAction {
    /// Convert another benchmark's repository layout into an eltbench suite.
    Import(ImportArgs),
    /// Derive a variant with renamed tables/columns/models and regenerated
    /// values; ground truth is recomputed from the gold (contamination guard).
    Perturb(PerturbArgs),
}

/// Arguments of `eltbench suite perturb`.
#[derive(Debug, Args)]
pub struct PerturbArgs {
    /// The suite to derive from.
    #[arg(long, env = "ELTBENCH_SUITE")]
    pub suite: PathBuf,
    /// The new suite directory (must not hold a suite yet).
    #[arg(long)]
    pub to: PathBuf,
    /// Seed of the new names and values: same seed, same variant.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the variant only; do not run the gold to recompute ground truth.
    #[arg(long)]
    pub no_gt: bool,
}

/// Which layout `suite import` reads.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ImportFormat {
    /// The original ELT-Bench repository (uiuc-kang-lab/ELT-Bench).
    EltBench,
}

/// Arguments of `eltbench suite import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The layout to read.
    #[arg(value_enum)]
    pub format: ImportFormat,
    /// The checkout (holding `elt-bench/`, `evaluation/`, `setup/`).
    #[arg(long)]
    pub from: PathBuf,
    /// The downloaded data unpacked (`data/<db>/`, `rest_api/data/<db>/`, `gt/<db>/`);
    /// without it every task is marked as needing synthetic data.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// The suite directory to write.
    #[arg(long)]
    pub to: PathBuf,
}

pub fn run(args: SuiteArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    match args.action {
        SuiteAction::Import(args) => import(args, printer),
        SuiteAction::Perturb(args) => perturb(args, printer),
    }
}

fn import(args: ImportArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let ImportFormat::EltBench = args.format;
    let report =
        import_elt_bench(&args.from, args.data.as_deref(), &args.to).map_err(user_error)?;
    printer.json_out(&report)?;
    printer.out(&format!(
        "imported {} tasks into {}: {} with data, {} need synthetic data (eltbench synth), \
         {} ground-truth files, {} eval keys, {} PostgreSQL tables, {} REST streams",
        report.tasks,
        args.to.display(),
        report.tasks_with_data.len(),
        report.synthetic_tasks.len(),
        report.ground_truth_files,
        report.eval_keys,
        report.postgres_tables,
        report.rest_streams
    ));
    let problems = Suite::load_lenient(&args.to)?.validate();
    let errors = problems.iter().filter(|p| p.is_error()).count();
    printer.out(&format!(
        "validation: {errors} errors, {} warnings (eltbench tasks validate --suite {})",
        problems.len() - errors,
        args.to.display()
    ));
    Ok(if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn perturb(args: PerturbArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let report = perturb_suite(&args.suite, &args.to, args.seed).map_err(user_error)?;
    printer.out(&format!(
        "wrote the variant of {} ({} tasks, {} identifiers renamed, seed {}) to {}",
        args.suite.display(),
        report.tasks.len(),
        report.renamed_identifiers,
        args.seed,
        args.to.display()
    ));
    let without_gold: Vec<_> = report
        .tasks
        .iter()
        .filter(|db| !report.tasks_with_gold.contains(db))
        .collect();
    if !without_gold.is_empty() {
        printer.warn(&format!(
            "no gold for {} task(s), so no ground truth: {}",
            without_gold.len(),
            without_gold
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut failed = Vec::new();
    if !args.no_gt && !report.tasks_with_gold.is_empty() {
        let home = eltbench_dbt::default_home()?;
        let mut progress = |line: &str| printer.info(line);
        let dbt = DbtToolchain::ensure_with(&home, &mut progress)?;
        let work = std::env::temp_dir().join(format!("eltbench-perturb-{}", std::process::id()));
        for db in &report.tasks_with_gold {
            let v = verify_task(&args.to, db, &work.join(db), &dbt, true)?;
            let problems = v.problems();
            let (matched, scored) = v.srdt();
            printer.out(&format!(
                "{db}: ground truth recomputed ({} files), SRDEL {}, SRDT {matched}/{scored}",
                v.gt_written.len(),
                if v.score.srdel.passed { "pass" } else { "FAIL" }
            ));
            for problem in &problems {
                printer.warn(&format!("{db}: {problem}"));
            }
            if !problems.is_empty() {
                failed.push(db.clone());
            }
        }
        std::fs::remove_dir_all(&work).ok();
    }
    printer.json_out(&report)?;
    Ok(if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
