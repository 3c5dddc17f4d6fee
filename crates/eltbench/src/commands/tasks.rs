//! `eltbench tasks` (being built).

use std::process::ExitCode;

use crate::cli::TasksArgs;
use crate::printer::Printer;

pub fn run(_args: TasksArgs, _printer: &Printer) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`eltbench tasks` is not built yet")
}
