//! One module per subcommand, each exposing `run(args, printer) -> Result<ExitCode>`.

use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::printer::Printer;

mod score;
mod tasks;
mod warehouse;

/// Dispatches to the subcommand.
pub fn run(cli: Cli, printer: &Printer) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Tasks(args) => tasks::run(args, printer),
        Command::Score(args) => score::run(args, printer),
        Command::Warehouse(args) => warehouse::run(args, printer),
    }
}
