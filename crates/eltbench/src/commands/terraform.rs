//! `eltbench terraform ARGS...` and the `terraform` personality: Terraform for
//! the Airbyte provider 0.6.5, emulated by the `eltbench-terraform` crate.

use std::process::ExitCode;

/// Runs Terraform with `args` in the current directory.
pub fn run_as_terraform(args: Vec<String>) -> ExitCode {
    let cwd = match std::env::current_dir() {
        Ok(dir) => dir,
        Err(err) => {
            eprintln!("Error: cannot read the current directory: {err}");
            return ExitCode::from(1);
        }
    };
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let code = eltbench_terraform::main_with_args(args, &cwd, &mut out, &mut err);
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
