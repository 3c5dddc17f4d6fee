//! Finding a working bubblewrap (Debian package `bubblewrap`) and building its command
//! line. Must never pass the host environment through: `--clearenv`, then exactly the
//! spec's variables.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// Where `scripts/setup` installs it (and the other usual places).
const CANDIDATES: &[&str] = &["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];

/// Overrides the bwrap binary (only that path is tried; a missing file means no
/// sandbox, with the reason recorded).
pub const BWRAP_VAR: &str = "ELTBENCH_BWRAP";

/// The uid and gid the agent sees (root outside, mapped by the user namespace).
const INSIDE_ID: &str = "1000";

/// The bwrap binary if it can make the namespaces a sandbox needs, else why not.
/// Probed once per process.
pub(crate) fn usable() -> Result<&'static Path, String> {
    static PROBE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PROBE
        .get_or_init(probe)
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(Clone::clone)
}

fn probe() -> Result<PathBuf, String> {
    let bwrap = find(std::env::var_os(BWRAP_VAR).map(PathBuf::from))?;
    let out = Command::new(&bwrap)
        .args([
            "--unshare-user",
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
        ])
        .args([
            "--unshare-net",
            "--ro-bind",
            "/",
            "/",
            "--proc",
            "/proc",
            "true",
        ])
        .env_clear()
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{} could not be started: {e}", bwrap.display()))?;
    if out.status.success() {
        return Ok(bwrap);
    }
    Err(format!(
        "{} cannot make namespaces here ({}): {}",
        bwrap.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr).trim()
    ))
}

/// The bwrap binary: `overridden` (from [`BWRAP_VAR`]) when given, else the first
/// of [`CANDIDATES`] that exists.
fn find(overridden: Option<PathBuf>) -> Result<PathBuf, String> {
    if let Some(path) = overridden {
        return match path.is_file() {
            true => Ok(path),
            false => Err(format!(
                "{BWRAP_VAR}={} is not a file: bubblewrap unavailable",
                path.display()
            )),
        };
    }
    CANDIDATES
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .ok_or_else(|| "bubblewrap (bwrap) is not installed: run scripts/setup".to_owned())
}

/// What the bwrap command line is built from.
pub(crate) struct Invocation<'a> {
    pub view: Vec<OsString>,
    /// Give the sandbox its own empty network namespace (when no prepared one is joined).
    pub unshare_net: bool,
    pub env: &'a BTreeMap<String, String>,
    pub workdir: &'a Path,
    pub program: &'a OsStr,
    pub args: &'a [OsString],
}

/// bwrap's arguments (after the binary): namespaces, no capabilities, the view, the
/// environment, then `--` and the program.
pub(crate) fn args(inv: &Invocation<'_>) -> Vec<OsString> {
    let mut out: Vec<OsString> = [
        "--unshare-user",
        "--uid",
        INSIDE_ID,
        "--gid",
        INSIDE_ID,
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--hostname",
        "eltbench-sandbox",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
    ]
    .map(OsString::from)
    .to_vec();
    if inv.unshare_net {
        out.push("--unshare-net".into());
    }
    out.extend(inv.view.iter().cloned());
    out.push("--clearenv".into());
    for (name, value) in inv.env {
        out.extend(["--setenv".into(), name.into(), value.into()]);
    }
    out.extend(["--chdir".into(), inv.workdir.into(), "--".into()]);
    out.push(inv.program.to_os_string());
    out.extend(inv.args.iter().cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overridden_path_is_the_only_one_tried() {
        let err = find(Some(PathBuf::from("/nonexistent/bwrap"))).unwrap_err();
        assert!(err.contains("ELTBENCH_BWRAP=/nonexistent/bwrap"), "{err}");
        assert_eq!(find(Some("/bin/sh".into())), Ok(PathBuf::from("/bin/sh")));
    }

    #[test]
    fn env_is_cleared_then_set_and_program_follows_separator() {
        let env = BTreeMap::from([("HOME".to_string(), "/w".to_string())]);
        let args: Vec<String> = args(&Invocation {
            view: vec!["--ro-bind".into(), "/usr".into(), "/usr".into()],
            unshare_net: true,
            env: &env,
            workdir: Path::new("/w"),
            program: OsStr::new("/bin/sh"),
            args: &["-c".into(), "echo hi".into()],
        })
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
        let at = |s: &str| args.iter().position(|a| a == s).unwrap();
        assert!(at("--clearenv") < at("--setenv"));
        assert_eq!(&args[at("--") + 1..], ["/bin/sh", "-c", "echo hi"]);
        assert!(args.contains(&"--unshare-net".to_string()));
        assert_eq!(args[at("--cap-drop") + 1], "ALL");
    }
}
