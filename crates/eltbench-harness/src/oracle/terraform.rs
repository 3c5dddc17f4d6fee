//! `terraform <args>` in a directory through eltbench's Terraform library, with
//! an empty environment and no stdin, as one blocking call (never inside a
//! tokio runtime: the provider uses blocking HTTP).

use std::collections::BTreeMap;
use std::path::Path;

use super::error::OracleError;

/// Output of a successful command.
pub struct TfOutput {
    pub stdout: String,
    pub stderr: String,
}

/// Runs `terraform <args>` in `dir`; an error unless it exits 0.
pub fn terraform(dir: &Path, args: &[&str]) -> Result<TfOutput, OracleError> {
    let (code, output) = terraform_code(dir, args);
    if code != 0 {
        return Err(OracleError::Terraform {
            command: args.join(" "),
            dir: dir.to_path_buf(),
            code,
            stderr: format!("{}{}", output.stderr, output.stdout),
        });
    }
    Ok(output)
}

/// Runs `terraform <args>` in `dir`; the exit code and output.
pub fn terraform_code(dir: &Path, args: &[&str]) -> (i32, TfOutput) {
    let env = BTreeMap::from([("TF_IN_AUTOMATION".to_owned(), "1".to_owned())]);
    let mut stdin: &[u8] = &[];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = args.iter().map(|a| (*a).to_owned()).collect();
    let code = eltbench_terraform::run(args, dir, &env, &mut stdin, &mut out, &mut err);
    let output = TfOutput {
        stdout: String::from_utf8_lossy(&out).into_owned(),
        stderr: String::from_utf8_lossy(&err).into_owned(),
    };
    (code, output)
}
