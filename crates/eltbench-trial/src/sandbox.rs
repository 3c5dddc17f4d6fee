//! The sandbox of a trial's agent process ([`eltbench_sandbox::SandboxSpec`]):
//! the workspace and `<trial>/warehouse` read-write; the toolchain (the
//! eltbench executable's directory and the shared libraries it links from
//! outside the system directories, the dbt virtualenv and its base Python)
//! read-only; the suite's `gt/` and `gold/`, the job's state and every other
//! trial hidden; only the trial's own service ports reachable; an explicit
//! environment (nothing of the harness's, so no API key).
//!
//! This module only describes the sandbox; running in it is the command
//! agent's job. It never widens the view beyond what a trial needs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use eltbench_dbt::DbtToolchain;
use eltbench_sandbox::{Limits, SandboxSpec};

use crate::Workspace;

/// The system part of the agent's `PATH` (after `workspace/bin` and the dbt
/// virtualenv).
const SYSTEM_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// How agents are sandboxed in a job (`eltbench run` flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SandboxOptions {
    /// `false`: `--no-sandbox` (deliberately unisolated; limits still apply).
    pub enabled: bool,
    /// Per-trial limits; `wall` is shortened to the trial's deadline.
    pub limits: Limits,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        Self {
            enabled: true,
            limits: Limits {
                max_processes: 512,
                ..Limits::default()
            },
        }
    }
}

/// The read-only paths the toolchain needs inside: the eltbench executable's
/// directory, the directories of the libraries it links from outside the
/// system directories (`ldd`), the dbt virtualenv and its base Python.
pub fn toolchain_paths(eltbench_bin: &Path, dbt: &DbtToolchain) -> Vec<PathBuf> {
    let mut paths = BTreeSet::new();
    let bin = std::fs::canonicalize(eltbench_bin).unwrap_or_else(|_| eltbench_bin.to_path_buf());
    paths.extend(bin.parent().map(Path::to_path_buf));
    paths.extend(linked_library_dirs(&bin));
    paths.insert(dbt.venv_dir().to_path_buf());
    paths.extend(python_base(dbt));
    paths.into_iter().filter(|p| !is_system(p)).collect()
}

/// The directories of the non-system shared libraries `bin` links.
fn linked_library_dirs(bin: &Path) -> Vec<PathBuf> {
    let Ok(out) = std::process::Command::new("ldd").arg(bin).output() else {
        return Vec::new();
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.split("=>").nth(1))
        .filter_map(|rest| rest.split_whitespace().next())
        .filter(|lib| lib.starts_with('/'))
        .filter_map(|lib| std::fs::canonicalize(lib).ok())
        .filter_map(|lib| lib.parent().map(Path::to_path_buf))
        .collect()
}

/// The prefix of the Python the virtualenv was made from (`home` of
/// `pyvenv.cfg`, and where `bin/python3` really points), e.g.
/// `/root/.pyenv/versions/3.11.7`.
fn python_base(dbt: &DbtToolchain) -> Vec<PathBuf> {
    let prefix_of = |bin_dir: &Path| bin_dir.parent().map(Path::to_path_buf);
    let mut out = Vec::new();
    let cfg = std::fs::read_to_string(dbt.venv_dir().join("pyvenv.cfg")).unwrap_or_default();
    for line in cfg.lines() {
        if let Some(("home", value)) = line.split_once('=').map(|(k, v)| (k.trim(), v.trim())) {
            out.extend(prefix_of(Path::new(value)));
        }
    }
    if let Ok(real) = std::fs::canonicalize(dbt.python_bin()) {
        out.extend(real.parent().and_then(prefix_of));
    }
    out
}

/// Already visible read-only in every sandbox.
fn is_system(path: &Path) -> bool {
    ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc"]
        .iter()
        .any(|dir| path.starts_with(dir))
        || path == Path::new("/")
}

/// What hides from the agent: the suite's `gt/` and `gold/`, the job's own
/// files and every other trial directory (only relevant when a visible path
/// contains them, but listed regardless).
pub fn hidden_paths(suite_root: &Path, trial_dir: &Path) -> Vec<PathBuf> {
    let mut hidden = vec![suite_root.join("gt"), suite_root.join("gold")];
    hidden.push(trial_dir.join("env"));
    let Some(trials) = trial_dir.parent() else {
        return hidden;
    };
    if let Some(job) = trials.parent() {
        hidden.extend(["job.json", "results.jsonl", "summary.json"].map(|f| job.join(f)));
    }
    if let Ok(entries) = std::fs::read_dir(trials) {
        let others = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p != trial_dir);
        hidden.extend(others);
    }
    hidden
}

/// Everything one trial's sandbox is made of.
pub struct TrialView<'a> {
    pub workspace: &'a Workspace,
    pub dbt: &'a DbtToolchain,
    pub toolchain: &'a [PathBuf],
    pub hidden: Vec<PathBuf>,
    pub ports: Vec<u16>,
    /// Time left until the trial's deadline.
    pub time_left: Option<Duration>,
}

/// The sandbox spec of a trial's agent.
pub fn trial_spec(view: TrialView<'_>, options: &SandboxOptions) -> SandboxSpec {
    let ws = view.workspace;
    let mut spec = SandboxSpec::new(&ws.root);
    spec.isolate = options.enabled;
    spec.writable = ws
        .warehouse
        .parent()
        .map(Path::to_path_buf)
        .into_iter()
        .collect();
    spec.read_only = view.toolchain.to_vec();
    spec.hidden = view.hidden;
    spec.allowed_ports = view.ports;
    spec.env = agent_env(ws, view.dbt);
    spec.limits = options.limits;
    if let Some(left) = view.time_left {
        // A second early, so the sandbox (not the harness) records the wall limit.
        let left = left.saturating_sub(Duration::from_secs(1));
        spec.limits.wall = spec.limits.wall.min(left.max(Duration::from_secs(1)));
    }
    spec
}

/// The agent's whole environment: the workspace's command variables with an
/// explicit `PATH`, `HOME` the workspace, a UTF-8 locale.
pub fn agent_env(ws: &Workspace, dbt: &DbtToolchain) -> BTreeMap<String, String> {
    let text = |p: &Path| p.to_string_lossy().into_owned();
    let mut env = ws.command_env(dbt);
    let path = format!("{}:{}:{SYSTEM_PATH}", text(&ws.bin()), text(&dbt.bin_dir()));
    env.insert("PATH".into(), path);
    env.insert("HOME".into(), text(&ws.root));
    env.insert("LANG".into(), "C.UTF-8".into());
    env.insert("TMPDIR".into(), "/tmp".into());
    env
}

/// `4G`, `512M`, `64k`, `1.5G` or plain bytes (powers of 1024).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let bad = || format!("`{text}`: expected e.g. 4G, 512M, 64K or bytes");
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(at) => text.split_at(at),
        None => (text, ""),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(bad()),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let bytes = value * f64::from(1u32 << 10).powi(shift / 10);
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_bytes("4G"), Ok(4 << 30));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("1.5g"), Ok(3 << 29));
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert!(parse_bytes("4X").is_err());
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("G").is_err());
    }

    #[test]
    fn other_trials_and_ground_truth_are_hidden_but_not_this_trial() {
        let job = tempfile::tempdir().unwrap();
        let trials = job.path().join("trials");
        for t in ["a__0", "a__1"] {
            std::fs::create_dir_all(trials.join(t)).unwrap();
        }
        let hidden = hidden_paths(Path::new("/suite"), &trials.join("a__0"));
        assert!(hidden.contains(&trials.join("a__1")));
        assert!(hidden.contains(&PathBuf::from("/suite/gt")));
        assert!(hidden.contains(&PathBuf::from("/suite/gold")));
        assert!(hidden.contains(&job.path().join("job.json")));
        assert!(!hidden.iter().any(|p| trials.join("a__0").starts_with(p)));
    }

    #[test]
    fn system_dirs_are_not_bound_twice() {
        assert!(is_system(Path::new("/usr/lib/x86_64-linux-gnu")));
        assert!(!is_system(Path::new("/work/main/target/duckdb")));
    }
}
