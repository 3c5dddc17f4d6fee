//! One module per subcommand, each exposing `run(args, printer) -> Result<ExitCode>`.

use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::printer::Printer;

pub mod airbyte;
pub mod demo;
mod env;
pub mod report;
pub mod run;
mod score;
pub mod selfcheck;
pub mod setup;
pub mod suite;
mod synth;
pub mod task_new;
pub mod task_verify;
mod tasks;
pub mod terraform;
pub mod view;
mod warehouse;

/// Dispatches to the subcommand.
pub fn run(cli: Cli, printer: &Printer) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Demo(args) => demo::run(args, printer),
        Command::Selfcheck(args) => selfcheck::run(args, printer),
        Command::Tasks(args) => tasks::run(args, printer),
        Command::Score(args) => score::run(args, printer),
        Command::Warehouse(args) => warehouse::run(args, printer),
        Command::Env(args) => env::run(args, printer),
        Command::Synth(args) => synth::run(args, printer),
        Command::Suite(args) => suite::run(args, printer),
        Command::Airbyte(args) => airbyte::run(args, printer),
        Command::Run(args) => run::run(args, printer),
        Command::Setup(args) => setup::run(args, printer),
        Command::Report(args) => report::run(args, printer),
        Command::View(args) => view::run(args, printer),
        Command::Terraform { args } => Ok(terraform::run_as_terraform(args)),
    }
}
