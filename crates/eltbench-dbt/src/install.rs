//! Building the virtualenv: `python3 -m venv`, `pip install` of the pinned
//! packages, then reading back what was installed (`dbt --version`, and
//! `duckdb.__version__` from the virtualenv's Python).
//!
//! Each failing step becomes [`DbtError::Install`] with the tail of its stderr.
//! This module must never decide whether an install is needed (`toolchain` does).

use std::path::Path;
use std::process::{Command, Output};

use crate::toolchain::{Progress, Versions};
use crate::{DBT_CORE_REQUIREMENT, DBT_DUCKDB_REQUIREMENT, DUCKDB_VERSION, DbtError};

/// Lines of a failing step's stderr kept in the error.
const TAIL_LINES: usize = 25;

/// Creates a virtualenv with dbt in it and reports the versions it holds.
pub(crate) trait Installer: Sync {
    fn install(&self, venv: &Path, progress: Progress<'_>) -> Result<Versions, DbtError>;
}

/// The real installer: the system Python's venv module and pip (from PyPI).
#[derive(Debug, Clone)]
pub(crate) struct PipInstaller {
    pub python: String,
}

impl Default for PipInstaller {
    fn default() -> Self {
        Self {
            python: "python3".to_owned(),
        }
    }
}

impl Installer for PipInstaller {
    fn install(&self, venv: &Path, progress: Progress<'_>) -> Result<Versions, DbtError> {
        let mut venv_cmd = Command::new(&self.python);
        venv_cmd.arg("-m").arg("venv").arg(venv);
        run_step(&format!("{} -m venv", self.python), venv_cmd, venv, true)?;
        let duckdb_pin = format!("duckdb=={DUCKDB_VERSION}");
        progress(&format!(
            "pip install \"{DBT_CORE_REQUIREMENT}\" \"{DBT_DUCKDB_REQUIREMENT}\" \"{duckdb_pin}\""
        ));
        let mut pip = Command::new(venv.join("bin/python"));
        pip.args([
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--no-input",
        ])
        .args(["--progress-bar", "off"])
        .args([DBT_CORE_REQUIREMENT, DBT_DUCKDB_REQUIREMENT, &duckdb_pin]);
        run_step("pip install", pip, venv, false)?;
        read_versions(venv)
    }
}

/// Asks the new virtualenv what it holds.
fn read_versions(venv: &Path) -> Result<Versions, DbtError> {
    let mut dbt = Command::new(venv.join("bin/dbt"));
    dbt.arg("--version")
        .env("DBT_SEND_ANONYMOUS_USAGE_STATS", "false");
    let dbt_out = run_step("dbt --version", dbt, venv, false)?;
    let text = String::from_utf8_lossy(&dbt_out.stdout);
    let (dbt_core, dbt_duckdb) = parse_dbt_version(&text).ok_or_else(|| DbtError::Install {
        step: "reading `dbt --version`".to_owned(),
        code: "0".to_owned(),
        venv: venv.to_path_buf(),
        stderr_tail: tail(&text),
    })?;
    let script =
        "import sys, duckdb; print(duckdb.__version__); print('%d.%d.%d' % sys.version_info[:3])";
    let mut python = Command::new(venv.join("bin/python"));
    python.args(["-c", script]);
    let py_out = run_step("python -c 'import duckdb'", python, venv, false)?;
    let py_text = String::from_utf8_lossy(&py_out.stdout);
    let mut lines = py_text.lines().map(str::trim);
    Ok(Versions {
        dbt_core,
        dbt_duckdb,
        duckdb: lines.next().unwrap_or_default().to_owned(),
        python: lines.next().unwrap_or_default().to_owned(),
    })
}

/// Runs one step; a non-zero exit becomes an install error with stderr's tail.
/// `is_python` marks the step whose program is the system Python (a spawn
/// failure then means Python is missing).
fn run_step(
    step: &str,
    mut cmd: Command,
    venv: &Path,
    is_python: bool,
) -> Result<Output, DbtError> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let output = cmd.output().map_err(|source| {
        if is_python {
            DbtError::NoPython {
                program: program.clone(),
                source,
            }
        } else {
            DbtError::Install {
                step: step.to_owned(),
                code: "not started".to_owned(),
                venv: venv.to_path_buf(),
                stderr_tail: format!("cannot run {program}: {source}"),
            }
        }
    })?;
    if output.status.success() {
        return Ok(output);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let text = if stderr.trim().is_empty() {
        String::from_utf8_lossy(&output.stdout).into_owned()
    } else {
        stderr.into_owned()
    };
    Err(DbtError::Install {
        step: step.to_owned(),
        code: output
            .status
            .code()
            .map_or_else(|| "killed by a signal".to_owned(), |c| c.to_string()),
        venv: venv.to_path_buf(),
        stderr_tail: tail(&text),
    })
}

/// The last lines of a command's output, indented.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(TAIL_LINES);
    lines[start..]
        .iter()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `(dbt-core, dbt-duckdb)` from `dbt --version` ("installed: 1.11.16",
/// "duckdb: 1.11.1 - Up to date!").
pub(crate) fn parse_dbt_version(text: &str) -> Option<(String, String)> {
    let value = |key: &str| {
        text.lines()
            .filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix(key))
            .filter_map(|rest| rest.split_whitespace().next())
            .map(str::to_owned)
            .next()
    };
    Some((value("installed:")?, value("duckdb:")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DBT_VERSION: &str = "Core:\n  - installed: 1.11.16\n  - latest:    1.12.6  - Update available!\n\n  Your version of dbt-core is out of date!\n\nPlugins:\n  - duckdb: 1.11.1 - Up to date!\n\n";

    #[test]
    fn dbt_version_output_parses() {
        assert_eq!(
            parse_dbt_version(DBT_VERSION),
            Some(("1.11.16".to_owned(), "1.11.1".to_owned()))
        );
        assert_eq!(parse_dbt_version("Core:\n  - installed: 1.11.2\n"), None);
    }

    #[test]
    fn failing_step_reports_its_stderr_tail() {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new("sh");
        cmd.args([
            "-c",
            "echo 'ERROR: No matching distribution found for dbt-core' >&2; exit 1",
        ]);
        let err = run_step("pip install", cmd, dir.path(), false).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("pip install failed (exit 1)"), "{text}");
        assert!(
            text.contains("No matching distribution found for dbt-core"),
            "{text}"
        );
        assert!(text.contains("run again"), "{text}");
    }

    #[test]
    fn missing_python_says_what_to_install() {
        let dir = tempfile::tempdir().unwrap();
        let installer = PipInstaller {
            python: "/nonexistent/python3".to_owned(),
        };
        let err = installer
            .install(&dir.path().join("venv"), &mut |_| {})
            .unwrap_err();
        assert!(err.to_string().contains("python3-venv"), "{err}");
    }

    #[test]
    fn tail_keeps_the_last_lines() {
        let text: String = (0..40).map(|i| format!("line {i}\n")).collect();
        let t = tail(&text);
        assert!(t.starts_with("  line 15"), "{t}");
        assert!(t.ends_with("line 39"), "{t}");
    }
}
