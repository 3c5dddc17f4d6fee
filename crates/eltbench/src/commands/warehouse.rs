//! `eltbench warehouse` (being built).

use std::process::ExitCode;

use crate::cli::WarehouseArgs;
use crate::printer::Printer;

pub fn run(_args: WarehouseArgs, _printer: &Printer) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`eltbench warehouse` is not built yet")
}
