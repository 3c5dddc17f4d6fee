//! From a [`SandboxSpec`] to a command ready to spawn: validates the spec, makes the
//! cgroups and the network namespace, and chooses bubblewrap or, when it cannot be used,
//! an unsandboxed run with a loud warning. Must never fail because isolation is
//! unavailable (that is a recorded fallback), only on a bad spec.

use std::ffi::{OsStr, OsString};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::bwrap::{self, Invocation};
use crate::cgroup::Cgroups;
use crate::error::SandboxError;
use crate::mounts::{self, Mount};
use crate::net::Netns;
use crate::report::{Mode, Sandboxed};
use crate::spec::SandboxSpec;
use crate::supervise::Guard;
use crate::wrapper::{self, Rlimits};

const SH: &str = "/bin/sh";
const NSENTER: &str = "/usr/bin/nsenter";
const HOST_PATH: &str = "/usr/sbin:/usr/bin:/sbin:/bin";
/// The reason recorded when the caller turned isolation off.
pub const NOT_ASKED: &str = "sandbox disabled by the caller (--no-sandbox)";

/// A command ready to spawn, what isolation it got, and the guard that enforces the
/// limits and removes everything afterwards. Spawn `command` (set its stdio first; it
/// converts into a `tokio::process::Command` with `From`), then hand the child to
/// [`Guard::supervise`]. Dropping the guard kills whatever is left of the run.
#[derive(Debug)]
pub struct Prepared {
    pub command: Command,
    pub sandboxed: Sandboxed,
    pub guard: Guard,
}

/// Prepares `program args` to run under `spec`. Inside the sandbox `program` is resolved
/// with the spec's `PATH`, and must lie in a visible path.
pub fn prepare<S: AsRef<OsStr>>(
    spec: &SandboxSpec,
    program: impl AsRef<OsStr>,
    args: &[S],
) -> Result<Prepared, SandboxError> {
    let spec = validated(spec)?;
    let args: Vec<OsString> = args.iter().map(|a| a.as_ref().to_os_string()).collect();
    let mut warnings = Vec::new();
    let cgroups = Cgroups::create(&spec.limits, &mut warnings);
    let rlimits = Rlimits {
        cpu_seconds: spec.limits.cpu_seconds,
        file_bytes: spec.limits.disk_write_bytes,
        address_space_bytes: cgroups.memory.is_none().then_some(spec.limits.memory_bytes),
    };
    let mut command = Command::new(SH);
    command
        .arg("-c")
        .arg(wrapper::script(&cgroups.procs_files(), &rlimits))
        .arg("eltbench-sandbox")
        .env_clear()
        .process_group(0);
    let (mode, net) = match usable(spec.isolate) {
        Ok(bwrap) => {
            let net = sandboxed(
                &mut command,
                bwrap,
                &spec,
                program.as_ref(),
                &args,
                &mut warnings,
            );
            (Mode::Bubblewrap, net)
        }
        Err(reason) => {
            unsandboxed(&mut command, &spec, program.as_ref(), &args);
            (Mode::None { reason }, None)
        }
    };
    warnings.sort();
    let sandboxed = Sandboxed { mode, warnings };
    warn_loudly(&sandboxed);
    let guard = Guard::new(cgroups, net, spec.limits, disk_roots(&spec));
    Ok(Prepared {
        command,
        sandboxed,
        guard,
    })
}

/// The directories whose growth counts as disk written: the workspace and the
/// writable paths.
fn disk_roots(spec: &SandboxSpec) -> Vec<PathBuf> {
    std::iter::once(spec.workspace.clone())
        .chain(spec.writable.iter().cloned())
        .collect()
}

/// Bytes held now by the directories a run under `spec` may write (what its disk
/// limit measures growth of).
pub fn disk_usage(spec: &SandboxSpec) -> u64 {
    crate::disk::usage(&disk_roots(spec))
}

/// The bwrap binary when `isolate` and it works, else why there is no sandbox.
fn usable(isolate: bool) -> Result<&'static Path, String> {
    match isolate {
        true => bwrap::usable(),
        false => Err(NOT_ASKED.to_owned()),
    }
}

/// The [`Mode`] a [`prepare`] with `isolate` would give, without preparing anything
/// (bubblewrap is probed once per process).
pub fn expected_mode(isolate: bool) -> Mode {
    match usable(isolate) {
        Ok(_) => Mode::Bubblewrap,
        Err(reason) => Mode::None { reason },
    }
}

/// Appends `[nsenter --net=NS] bwrap ARGS -- program args` to the wrapper; returns the
/// network namespace when one with forwarded ports was made.
fn sandboxed(
    command: &mut Command,
    bwrap: &Path,
    spec: &SandboxSpec,
    program: &OsStr,
    args: &[OsString],
    warnings: &mut Vec<String>,
) -> Option<Netns> {
    let net = forwarded_netns(&spec.allowed_ports, warnings);
    let invocation = Invocation {
        view: mounts::view_args(view(spec), spec.limits.disk_write_bytes),
        unshare_net: net.is_none(),
        env: &spec.env,
        workdir: &spec.workspace,
        program,
        args,
    };
    command.env("PATH", HOST_PATH);
    if let Some(ns) = &net {
        command
            .arg(NSENTER)
            .arg(format!("--net={}", ns.path().display()));
    }
    command.arg(bwrap).args(bwrap::args(&invocation));
    net
}

/// The namespace with the allowed ports, `None` for an empty one (no ports, or failure).
fn forwarded_netns(ports: &[u16], warnings: &mut Vec<String>) -> Option<Netns> {
    if ports.is_empty() {
        return None;
    }
    if !Path::new(NSENTER).is_file() {
        warnings.push(format!(
            "{NSENTER} missing (util-linux): no port is reachable"
        ));
        return None;
    }
    Netns::create(ports)
        .map_err(|e| {
            warnings.push(format!(
                "port forwarding unavailable, no port is reachable: {e}"
            ))
        })
        .ok()
}

fn unsandboxed(command: &mut Command, spec: &SandboxSpec, program: &OsStr, args: &[OsString]) {
    command
        .envs(&spec.env)
        .current_dir(&spec.workspace)
        .arg(program)
        .args(args);
}

fn view(spec: &SandboxSpec) -> Vec<Mount> {
    let hidden = spec
        .hidden
        .iter()
        .map(PathBuf::as_path)
        .chain(mounts::ALWAYS_HIDDEN.iter().map(Path::new));
    std::iter::once(Mount::ReadWrite(spec.workspace.clone()))
        .chain(spec.writable.iter().cloned().map(Mount::ReadWrite))
        .chain(spec.read_only.iter().cloned().map(Mount::ReadOnly))
        .chain(hidden.filter_map(mounts::hide))
        .collect()
}

fn warn_loudly(sandboxed: &Sandboxed) {
    if let Mode::None { reason } = &sandboxed.mode {
        tracing::warn!(
            "AGENT RUNS UNSANDBOXED (files, processes and network are not isolated): {reason}"
        );
    }
    for warning in &sandboxed.warnings {
        tracing::warn!("sandbox degraded: {warning}");
    }
}

/// The spec with every path absolute and canonical (bwrap binds real paths) and the
/// environment names checked.
fn validated(spec: &SandboxSpec) -> Result<SandboxSpec, SandboxError> {
    for name in spec.env.keys() {
        if name.is_empty() || name.contains(['=', '\0']) {
            return Err(SandboxError::BadEnvName { name: name.clone() });
        }
    }
    let canon = |paths: &[PathBuf]| {
        paths
            .iter()
            .map(|p| canonical(p))
            .collect::<Result<Vec<_>, _>>()
    };
    let hidden = spec
        .hidden
        .iter()
        .map(|p| absolute(p).map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())))
        .collect::<Result<_, _>>()?;
    Ok(SandboxSpec {
        workspace: canonical(&spec.workspace)?,
        writable: canon(&spec.writable)?,
        read_only: canon(&spec.read_only)?,
        hidden,
        ..spec.clone()
    })
}

fn absolute(path: &Path) -> Result<&Path, SandboxError> {
    if path.is_absolute() {
        return Ok(path);
    }
    Err(SandboxError::RelativePath {
        path: path.to_path_buf(),
    })
}

fn canonical(path: &Path) -> Result<PathBuf, SandboxError> {
    std::fs::canonicalize(absolute(path)?).map_err(|source| SandboxError::MissingPath {
        path: path.to_path_buf(),
        source,
    })
}
