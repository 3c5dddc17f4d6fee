//! Helpers of the `eltbench run` tests: the real CLI as a child process with
//! the dbt toolchain under `target/eltbench-home`, job directories readable
//! by the PostgreSQL server user, and the trials' `result.json` files.

#![allow(dead_code)]

pub mod mock_llm;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The 22 tasks of the test bed with real data.
pub const REAL_DATA_TASKS: &str = "amplitude,apple_store,asana,facebook_ads,github,instagram_business,lever,linkedin,mailchimp,marketo,microsoft_ads,pardot,pinterest,qualtrics,recurly,tiktok_ads,twilio,twitter_organic,workday,xero,youtube_analytics,zuora";

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn suite() -> PathBuf {
    repo().join("../shared/elt-bench")
}

/// The CLI with the suite and the dbt toolchain of the test machine.
pub fn eltbench() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_eltbench"));
    cmd.env("ELTBENCH_HOME", repo().join("target/eltbench-home"))
        .env("ELTBENCH_SUITE", suite())
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY");
    cmd
}

/// `eltbench run <args>` to the end.
pub fn run(args: &[&str]) -> Output {
    eltbench().arg("run").args(args).output().unwrap()
}

/// A temporary directory the `postgres` user can enter.
pub fn tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Every `trials/*/result.json` of a job, by trial directory name.
pub fn results(job: &Path) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(job.join("trials")) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path().join("result.json");
        if let Ok(text) = std::fs::read_to_string(&path) {
            let name = entry.file_name().to_string_lossy().into_owned();
            out.push((name, serde_json::from_str(&text).unwrap()));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The record of trial `name`.
pub fn result(job: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(job.join("trials").join(name).join("result.json"))
        .unwrap_or_else(|e| panic!("{name}: no result.json: {e}"));
    serde_json::from_str(&text).unwrap()
}

pub fn srdel_passed(record: &Value) -> bool {
    record["score"]["srdel"]["passed"] == Value::Bool(true)
}

pub fn agent_status(record: &Value) -> &str {
    record["agent"]["status"].as_str().unwrap_or("<none>")
}

/// stdout and stderr, for assertion messages.
pub fn text(output: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}
