//! `eltbench score` (being built).

use std::process::ExitCode;

use crate::cli::ScoreArgs;
use crate::printer::Printer;

pub fn run(_args: ScoreArgs, _printer: &Printer) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`eltbench score` is not built yet")
}
