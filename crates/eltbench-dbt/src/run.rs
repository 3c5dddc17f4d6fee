//! Running the toolchain's `dbt` in a project directory: fresh
//! `run_results.json` (a stale one from an earlier run is removed first), output
//! captured, an optional time limit, then the outcome diagnosed.
//!
//! For the harness (the oracle agent, checks after an agent's run); agents run
//! `dbt` themselves from their PATH. Must never change the project's files.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::outcome::DbtOutcome;
use crate::results::parse_run_results;
use crate::{DbtError, DbtToolchain};

/// How often a running dbt is checked against the time limit.
const POLL: Duration = Duration::from_millis(50);

/// Settings of one dbt invocation.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Stop dbt (kill it) after this long; `None`: no limit.
    pub timeout: Option<Duration>,
    /// Extra environment variables (after the toolchain's own).
    pub env: BTreeMap<String, OsString>,
}

/// `dbt <args>` in `project_dir` with no time limit.
pub fn run_dbt(
    toolchain: &DbtToolchain,
    project_dir: &Path,
    args: &[&str],
) -> Result<DbtOutcome, DbtError> {
    run_dbt_with(toolchain, project_dir, args, &RunOptions::default())
}

/// `dbt <args>` in `project_dir` with options. dbt finds `profiles.yml` in the
/// project directory (its working directory) before `~/.dbt`.
pub fn run_dbt_with(
    toolchain: &DbtToolchain,
    project_dir: &Path,
    args: &[&str],
    options: &RunOptions,
) -> Result<DbtOutcome, DbtError> {
    let run_results = project_dir.join("target/run_results.json");
    match std::fs::remove_file(&run_results) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(DbtError::io("cannot remove the stale", &run_results)(e));
        }
        _ => {}
    }
    let program = toolchain.dbt_bin();
    let started = Instant::now();
    let child = Command::new(&program)
        .args(args)
        .current_dir(project_dir)
        .envs(toolchain.env(std::env::var_os("PATH")))
        .env("DBT_USE_COLORS", "false")
        .envs(&options.env)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| DbtError::Spawn {
            program: program.clone(),
            dir: project_dir.to_path_buf(),
            source,
        })?;
    let finished = wait(child, options.timeout).map_err(|source| DbtError::Spawn {
        program,
        dir: project_dir.to_path_buf(),
        source,
    })?;
    let duration = started.elapsed();
    let (results, written) = match std::fs::read_to_string(&run_results) {
        Ok(text) => (parse_run_results(&text, &run_results)?, true),
        Err(_) => (Vec::new(), false),
    };
    let mut outcome = DbtOutcome {
        args: args.iter().map(|a| a.to_string()).collect(),
        exit_code: finished.status.and_then(|s| s.code()),
        stdout: finished.stdout,
        stderr: finished.stderr,
        duration,
        timed_out: finished.timed_out,
        run_results_written: written,
        results,
        failure: None,
    };
    outcome.diagnose();
    Ok(outcome)
}

struct Finished {
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

/// Waits for the child (killing it at the deadline) and collects its output.
fn wait(mut child: Child, timeout: Option<Duration>) -> std::io::Result<Finished> {
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let deadline = timeout.map(|t| Instant::now() + t);
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            child.kill()?;
            child.wait()?;
            timed_out = true;
            break None;
        }
        std::thread::sleep(POLL);
    };
    Ok(Finished {
        status,
        stdout: join(stdout),
        stderr: join(stderr),
        timed_out,
    })
}

fn drain(pipe: Option<impl Read + Send + 'static>) -> Option<JoinHandle<String>> {
    let mut pipe = pipe?;
    Some(std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    }))
}

fn join(handle: Option<JoinHandle<String>>) -> String {
    handle.and_then(|h| h.join().ok()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;
    use crate::ErrorKind;
    use crate::toolchain::for_test;

    /// A toolchain whose `dbt` is the given shell script.
    fn fake_dbt(script: &str) -> (tempfile::TempDir, DbtToolchain) {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("venv/bin");
        std::fs::create_dir_all(&bin).unwrap();
        let dbt = bin.join("dbt");
        std::fs::write(&dbt, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&dbt, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::create_dir_all(dir.path().join("project/target")).unwrap();
        let toolchain = for_test(&dir.path().join("venv"));
        (dir, toolchain)
    }

    #[test]
    fn stale_run_results_are_not_read() {
        let (dir, dbt) = fake_dbt(
            "echo '12:00:00  Encountered an error:'; echo 'Runtime Error'; \
             echo \"  Could not find profile named 'shop'\"; exit 2",
        );
        let project = dir.path().join("project");
        std::fs::write(
            project.join("target/run_results.json"),
            r#"{"results": []}"#,
        )
        .unwrap();
        let outcome = run_dbt(&dbt, &project, &["run"]).unwrap();
        assert_eq!(outcome.exit_code, Some(2));
        assert!(!outcome.run_results_written);
        assert!(!project.join("target/run_results.json").exists());
        let failure = outcome.failure.unwrap();
        assert_eq!(failure.kind, ErrorKind::Project);
        assert!(
            failure.message.contains("Could not find profile"),
            "{}",
            failure.message
        );
    }

    #[test]
    fn arguments_environment_and_output_reach_dbt() {
        let (dir, dbt) = fake_dbt(
            "echo \"args=$* colors=$DBT_USE_COLORS stats=$DBT_SEND_ANONYMOUS_USAGE_STATS\"; \
             echo warn >&2; echo '{\"results\": [{\"unique_id\": \"model.p.m\", \"status\": \"success\"}]}' > target/run_results.json",
        );
        let outcome = run_dbt(&dbt, &dir.path().join("project"), &["run", "-s", "m"]).unwrap();
        assert!(outcome.succeeded(), "{outcome:?}");
        assert_eq!(outcome.stdout, "args=run -s m colors=false stats=false\n");
        assert_eq!(outcome.stderr, "warn\n");
        assert_eq!(
            outcome.node("m").map(|n| n.unique_id.as_str()),
            Some("model.p.m")
        );
    }

    #[test]
    fn time_limit_kills_dbt() {
        let (dir, dbt) = fake_dbt("exec sleep 30");
        let options = RunOptions {
            timeout: Some(Duration::from_millis(300)),
            ..RunOptions::default()
        };
        let outcome = run_dbt_with(&dbt, &dir.path().join("project"), &["run"], &options).unwrap();
        assert!(outcome.timed_out);
        assert_eq!(outcome.exit_code, None);
        assert_eq!(outcome.error_kind(), Some(ErrorKind::Timeout));
        assert!(outcome.duration < Duration::from_secs(10));
    }

    #[test]
    fn missing_dbt_names_the_program() {
        let dir = tempfile::tempdir().unwrap();
        let dbt = for_test(&dir.path().join("none"));
        let err = run_dbt(&dbt, dir.path(), &["run"]).unwrap_err();
        assert!(err.to_string().contains("none/bin/dbt"), "{err}");
    }
}
