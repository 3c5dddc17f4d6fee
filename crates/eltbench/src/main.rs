//! The `eltbench` command. Invoked under the name `terraform` (the agent's
//! PATH holds such a link), it behaves as Terraform for the Airbyte provider.

use std::process::ExitCode;

mod cli;
mod commands;
mod printer;
mod settings;

fn main() -> ExitCode {
    if invoked_as_terraform() {
        return commands::terraform::run_as_terraform(std::env::args().skip(1).collect());
    }
    let cli = <cli::Cli as clap::Parser>::parse();
    let printer = printer::Printer::new(&cli.global);
    match commands::run(cli, &printer) {
        Ok(code) => code,
        Err(err) => printer.report_error(&err),
    }
}

/// Whether argv[0]'s file name is `terraform`.
fn invoked_as_terraform() -> bool {
    std::env::args_os()
        .next()
        .and_then(|arg0| {
            std::path::Path::new(&arg0)
                .file_name()
                .map(|name| name == "terraform")
        })
        .unwrap_or(false)
}
