//! Shared helpers for the integration tests: running the emulated
//! `terraform` in a temporary directory, locating the ELT-Bench docs, and
//! (in `airbyte`) the real Airbyte API server and PostgreSQL source.

#![allow(dead_code)]

pub mod airbyte;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `terraform <args>` in `dir` with `stdin` as standard input and no
/// inherited environment.
pub fn terraform(dir: &Path, args: &[&str], stdin: &str) -> Run {
    terraform_env(dir, args, stdin, &BTreeMap::new())
}

pub fn terraform_env(
    dir: &Path,
    args: &[&str],
    stdin: &str,
    env: &BTreeMap<String, String>,
) -> Run {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut input = stdin.as_bytes();
    let code = eltbench_terraform::run(
        args.iter().map(|s| s.to_string()).collect(),
        dir,
        env,
        &mut input,
        &mut out,
        &mut err,
    );
    Run {
        code,
        stdout: String::from_utf8_lossy(&out).into(),
        stderr: String::from_utf8_lossy(&err).into(),
    }
}

/// A temporary working directory holding `main.tf`.
pub fn workdir(main_tf: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("main.tf"), main_tf).expect("write main.tf");
    dir
}

/// `workdir` + a successful `terraform init`.
pub fn initialized(main_tf: &str) -> tempfile::TempDir {
    let dir = workdir(main_tf);
    let r = terraform(dir.path(), &["init"], "");
    assert_eq!(r.code, 0, "init failed: {}{}", r.stdout, r.stderr);
    dir
}

pub const REQUIRED_PROVIDERS: &str = "terraform {\n  required_providers {\n    airbyte = {\n      source  = \"airbytehq/airbyte\"\n      version = \"0.6.5\"\n    }\n  }\n}\n\n";

/// `../shared/elt-bench` relative to the repository root.
pub fn elt_bench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench")
}
