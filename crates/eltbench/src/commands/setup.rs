//! `eltbench setup`: installs what trials need once (the dbt-core + dbt-duckdb
//! virtualenv under eltbench's home) and reports the versions. Also used by
//! `eltbench run` to make sure the toolchain exists before a job starts.

use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use eltbench_dbt::DbtToolchain;

use crate::printer::Printer;

/// `eltbench setup`.
#[derive(Debug, Args)]
pub struct SetupArgs {}

/// Installs (if needed) and reports.
pub fn run(_args: SetupArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let dbt = toolchain(printer)?;
    printer.json_out(&serde_json::json!({
        "venv": dbt.venv_dir(),
        "dbt_core": dbt.dbt_core_version(),
        "dbt_duckdb": dbt.dbt_duckdb_version(),
        "duckdb": dbt.duckdb_version(),
        "python": dbt.python_version(),
    }))?;
    printer.out(&format!("dbt toolchain: {}", dbt.venv_dir().display()));
    printer.out(&format!("  dbt-core   {}", dbt.dbt_core_version()));
    printer.out(&format!("  dbt-duckdb {}", dbt.dbt_duckdb_version()));
    printer.out(&format!("  duckdb     {}", dbt.duckdb_version()));
    printer.out(&format!("  python     {}", dbt.python_version()));
    Ok(ExitCode::SUCCESS)
}

/// The dbt toolchain under eltbench's home, installed first when missing
/// (about a minute; progress on stderr).
pub fn toolchain(printer: &Printer) -> anyhow::Result<DbtToolchain> {
    let home = eltbench_dbt::default_home()?;
    if let Some(dbt) = DbtToolchain::find(&home) {
        return Ok(dbt);
    }
    printer.info(&format!("installing dbt into {}", home.display()));
    let mut progress = |line: &str| printer.info(line);
    DbtToolchain::ensure_with(&home, &mut progress)
        .with_context(|| format!("cannot install the dbt toolchain under {}", home.display()))
}
