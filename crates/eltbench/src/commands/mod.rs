//! One module per subcommand, each exposing `run(args, printer) -> Result<ExitCode>`.

use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::printer::Printer;

mod demo;
mod env;
mod score;
mod synth;
mod tasks;
pub mod terraform;
mod warehouse;

/// Dispatches to the subcommand.
pub fn run(cli: Cli, printer: &Printer) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Demo(args) => demo::run(args, printer),
        Command::Tasks(args) => tasks::run(args, printer),
        Command::Score(args) => score::run(args, printer),
        Command::Warehouse(args) => warehouse::run(args, printer),
        Command::Env(args) => env::run(args, printer),
        Command::Synth(args) => synth::run(args, printer),
        Command::Terraform { args } => Ok(terraform::run_as_terraform(args)),
    }
}
