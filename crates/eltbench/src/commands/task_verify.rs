//! `eltbench tasks verify <db> --suite DIR [--write-gt]`: runs a task's gold
//! end to end (sources, stage-1 oracle, gold dbt models), scores it against
//! the ground truth and runs the testing queries of `verify/<db>.yaml`.
//! Rewrites `gt/<db>/` only with `--write-gt`. Exit 1 on any mismatch.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use eltbench_dbt::DbtToolchain;
use eltbench_harness::oracle::{Verification, verify_task};
use serde_json::json;

use crate::printer::{BadInput, Printer};

/// Arguments of `eltbench tasks verify`.
#[derive(Debug, Args)]
pub struct TaskVerifyArgs {
    /// The task's database name.
    pub db: String,
    /// The suite directory.
    #[arg(long, env = "ELTBENCH_SUITE", default_value = crate::settings::DEFAULT_SUITE)]
    pub suite: PathBuf,
    /// Rewrite `gt/<db>/*.csv` and the task's `gt/_meta.json` entry from the gold.
    #[arg(long)]
    pub write_gt: bool,
    /// Keep the run here (sources, warehouse, dbt project) instead of a temporary directory.
    #[arg(long)]
    pub work_dir: Option<PathBuf>,
}

pub fn run(args: TaskVerifyArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let suite = eltbench_task::Suite::load(&args.suite)?;
    if suite.task(&args.db).is_none() {
        return Err(BadInput(format!("no task {} in {}", args.db, args.suite.display())).into());
    }
    let home = eltbench_dbt::default_home()?;
    let mut progress = |line: &str| printer.info(line);
    let dbt = DbtToolchain::ensure_with(&home, &mut progress)?;
    let scratch = args.work_dir.is_none();
    let work = match &args.work_dir {
        Some(dir) => dir.clone(),
        None => scratch_dir(&args.db)?,
    };
    printer.info(&format!(
        "verifying {} (gold end to end in {})",
        args.db,
        work.display()
    ));
    let verified = verify_task(&args.suite, &args.db, &work, &dbt, args.write_gt);
    if scratch {
        let _ = std::fs::remove_dir_all(&work);
    }
    let v = verified?;
    print(&v, printer)?;
    Ok(if v.problems().is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print(v: &Verification, printer: &Printer) -> anyhow::Result<()> {
    let (matched, scored) = v.srdt();
    let problems = v.problems();
    let passed = v.checks.iter().filter(|c| c.passed()).count();
    printer.json_out(&json!({
        "db": v.db,
        "srdel": v.score.srdel.passed,
        "srdt": {"matched": matched, "scored": scored},
        "checks": {"passed": passed, "total": v.checks.len()},
        "gt_written": v.gt_written,
        "problems": problems,
        "seconds": v.elapsed.as_secs_f64(),
    }))?;
    for path in &v.gt_written {
        printer.info(&format!("wrote {}", path.display()));
    }
    let srdel = if v.score.srdel.passed { "pass" } else { "FAIL" };
    printer.out(&format!(
        "{}: SRDEL {srdel}, SRDT {matched}/{scored} models, testing queries {passed}/{} passed ({:.1}s)",
        v.db,
        v.checks.len(),
        v.elapsed.as_secs_f64()
    ));
    for p in &problems {
        printer.out(&format!("  mismatch: {p}"));
    }
    Ok(())
}

/// A fresh directory under the system temp dir the `postgres` user can traverse.
fn scratch_dir(db: &str) -> anyhow::Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("eltbench-verify-{db}-{}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))?;
    Ok(dir)
}
