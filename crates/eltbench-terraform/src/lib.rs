//! eltbench's Terraform: the `terraform` command for the Airbyte provider
//! 0.6.5 as ELT-Bench agents use it (`init`, `validate`, `plan`, `apply`,
//! `destroy`, `show`, `output`, `state list`, `fmt`, `version`), with
//! Terraform's output and diagnostics, talking to the Airbyte public API over
//! HTTP as the real provider does, and keeping `terraform.tfstate` v4.
//!
//! No Terraform binary or provider plugin is involved: parsing, schemas,
//! planning and the provider's API calls are emulated here.

pub mod apply;
pub mod client;
pub mod commands;
pub mod config;
pub mod diagnostics;
pub mod eval;
pub mod fmt;
pub mod functions;
pub mod graph;
pub mod hcl;
pub mod lockfile;
pub mod payload;
pub mod plan;
pub mod provider;
pub mod render;
pub mod schema;
pub mod state;
pub mod typecheck;
pub mod validate;
pub mod value;
pub mod vars;

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::Path;

pub use commands::Io;

/// Runs `terraform <args>` in `cwd` with the process environment and stdin.
/// `args` excludes the program name. Returns the exit code.
pub fn main_with_args(
    args: Vec<String>,
    cwd: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let env: BTreeMap<String, String> = std::env::vars().collect();
    let stdin = std::io::stdin();
    let mut lock = stdin.lock();
    run(args, cwd, &env, &mut lock, out, err)
}

/// Like `main_with_args`, with the environment and stdin given explicitly.
pub fn run(
    args: Vec<String>,
    cwd: &Path,
    env: &BTreeMap<String, String>,
    stdin: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let mut io = Io {
        cwd: cwd.to_path_buf(),
        env,
        stdin,
        out,
        err,
    };
    commands::dispatch(args, &mut io)
}
