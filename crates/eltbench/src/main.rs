//! The `eltbench` command.

use std::process::ExitCode;

mod cli;
mod commands;
mod printer;
mod settings;

fn main() -> ExitCode {
    let cli = <cli::Cli as clap::Parser>::parse();
    let printer = printer::Printer::new(&cli.global);
    match commands::run(cli, &printer) {
        Ok(code) => code,
        Err(err) => printer.report_error(&err),
    }
}
