//! The Bash action: `bash -lc` in the workspace (as the context's [`Shell`]
//! prepares it), in its own process group, with a curated environment; stdout and stderr captured together, the exit code
//! reported, and the whole group killed on timeout or cancellation.
//!
//! Never inherits the parent's environment wholesale (it may hold API keys): only
//! the variables [`command_env`] keeps reach a command.

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Command;
use tokio::task::JoinHandle;

use super::ActionBudget;
use super::shell::{Shell, ShellProcess, ShellRequest, ShellWatch};

/// Variables a command inherits from this process (when set); everything else it
/// sees comes from the context's environment map.
const INHERITED: &[&str] = &[
    "HOME", "LANG", "LC_ALL", "LC_CTYPE", "LOGNAME", "PATH", "SHELL", "TERM", "TMPDIR", "TZ",
    "USER",
];

/// How long to keep reading output after the command ended (a background process
/// may still hold the pipe open).
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// The environment for Bash commands: the [`INHERITED`] variables of this process,
/// overridden by `extra`, minus every variable whose value `is_secret` flags.
pub fn command_env(
    extra: &BTreeMap<String, String>,
    is_secret: impl Fn(&str) -> bool,
) -> BTreeMap<String, String> {
    let inherited = INHERITED
        .iter()
        .filter_map(|name| Some((name.to_string(), std::env::var(name).ok()?)));
    inherited
        .chain(extra.iter().map(|(k, v)| (k.clone(), v.clone())))
        .filter(|(_, value)| !is_secret(value))
        .collect()
}

/// How often a [`ShellWatch`] is asked about limits.
const WATCH_EVERY: Duration = Duration::from_millis(200);

/// Runs `code` through `shell` and renders output plus exit status as the
/// observation.
pub(super) async fn run(
    shell: &dyn Shell,
    workspace: &Path,
    env: &BTreeMap<String, String>,
    code: &str,
    budget: &ActionBudget,
) -> String {
    let script = script(env, code);
    let request = ShellRequest {
        workspace,
        env,
        script: &script,
        timeout: budget.timeout,
    };
    let ShellProcess { command, watch } = match shell.prepare(request) {
        Ok(process) => process,
        Err(err) => return format!("cannot start bash in {}: {err}", workspace.display()),
    };
    let mut child = match piped(command).spawn() {
        Ok(child) => child,
        Err(err) => return format!("cannot start bash in {}: {err}", workspace.display()),
    };
    let limit = budget.max_chars.saturating_mul(4).saturating_add(4096);
    let stdout = Capture::start(child.stdout.take(), limit);
    let stderr = Capture::start(child.stderr.take(), limit);
    let pid = child.id();
    let started = Instant::now();
    let ending = tokio::select! {
        status = child.wait() => Ending::Exited(status),
        () = tokio::time::sleep(budget.timeout) => Ending::TimedOut(budget.timeout),
        () = budget.cancel.cancelled() => Ending::Cancelled,
        hit = watched(watch.as_deref(), started) => Ending::Limit(hit),
    };
    if !matches!(ending, Ending::Exited(_)) {
        kill_group(pid);
        let _ = child.wait().await;
    }
    // A command the kernel stopped at a limit (an OOM kill, a refused fork) may
    // exit before the next check: one last look tells it apart from a failure.
    let ending = match (ending, watch.as_deref()) {
        (Ending::Exited(status), Some(watch)) => match watch.check(started.elapsed()) {
            Some(hit) => Ending::Limit(hit),
            None => Ending::Exited(status),
        },
        (ending, _) => ending,
    };
    if let Some(watch) = &watch {
        watch.kill_all();
    }
    let mut output = stdout.finish().await;
    output.push_str(&stderr.finish().await);
    render(&output, &ending)
}

/// Resolves with the first limit `watch` reports; never without a watch.
async fn watched(watch: Option<&dyn ShellWatch>, started: Instant) -> String {
    let Some(watch) = watch else {
        return std::future::pending().await;
    };
    loop {
        tokio::time::sleep(WATCH_EVERY).await;
        if let Some(hit) = watch.check(started.elapsed()) {
            return hit;
        }
    }
}

/// The prepared command with its output captured, in its own process group.
fn piped(mut cmd: Command) -> Command {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    cmd
}

/// A login shell's profile may reset `PATH` and friends, so the script exports the
/// environment again before the agent's code, and merges stderr into stdout so the
/// two stay in order.
fn script(env: &BTreeMap<String, String>, code: &str) -> String {
    let mut script = String::from("exec 2>&1\n");
    for (name, value) in env.iter().filter(|(name, _)| is_identifier(name)) {
        script.push_str(&format!("export {name}={}\n", shell_quote(value)));
    }
    script.push_str(code);
    script
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn shell_quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

fn kill_group(pid: Option<u32>) {
    let Some(pid) = pid.and_then(|pid| i32::try_from(pid).ok()) else {
        return;
    };
    let group = nix::unistd::Pid::from_raw(pid);
    let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
}

enum Ending {
    Exited(std::io::Result<ExitStatus>),
    TimedOut(Duration),
    Cancelled,
    /// A limit of the shell's watch, described.
    Limit(String),
}

fn render(output: &str, ending: &Ending) -> String {
    let mut text = if output.is_empty() {
        "(no output)".to_owned()
    } else {
        output.trim_end_matches('\n').to_owned()
    };
    text.push('\n');
    text.push_str(&match ending {
        Ending::Exited(Ok(status)) => match (status.code(), status.signal()) {
            (Some(code), _) => format!("[exit code: {code}]"),
            (None, Some(signal)) => format!("[terminated by signal {signal}]"),
            (None, None) => "[exit status unknown]".to_owned(),
        },
        Ending::Exited(Err(err)) => format!("[could not wait for the command: {err}]"),
        Ending::TimedOut(after) => format!(
            "[timeout: the command was still running after {} s; it and every process it \
             started were killed]",
            after.as_secs_f64()
        ),
        Ending::Cancelled => "[cancelled: the run was stopped and the command killed]".to_owned(),
        Ending::Limit(hit) => {
            format!("[limit: {hit}; the command and every process it started were killed]")
        }
    });
    text
}

/// Reads one pipe into a bounded buffer on a background task.
struct Capture {
    buffer: Arc<Mutex<Vec<u8>>>,
    task: Option<JoinHandle<()>>,
}

impl Capture {
    fn start(pipe: Option<impl AsyncRead + Unpin + Send + 'static>, limit: usize) -> Self {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let task = pipe.map(|pipe| tokio::spawn(read_into(pipe, Arc::clone(&buffer), limit)));
        Capture { buffer, task }
    }

    /// Waits briefly for end of file, then returns what was read.
    async fn finish(mut self) -> String {
        if let Some(task) = self.task.take() {
            let abort = task.abort_handle();
            if tokio::time::timeout(DRAIN_GRACE, task).await.is_err() {
                abort.abort();
            }
        }
        let bytes = self.buffer.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

async fn read_into(mut pipe: impl AsyncRead + Unpin, buffer: Arc<Mutex<Vec<u8>>>, limit: usize) {
    let mut chunk = [0u8; 8192];
    while let Ok(n) = pipe.read(&mut chunk).await {
        if n == 0 {
            break;
        }
        if let Ok(mut buf) = buffer.lock() {
            let room = limit.saturating_sub(buf.len());
            buf.extend_from_slice(&chunk[..n.min(room)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::shell::DirectShell;
    use tokio_util::sync::CancellationToken;

    fn budget(timeout: Duration) -> ActionBudget {
        ActionBudget {
            timeout,
            cancel: CancellationToken::new(),
            max_chars: 1000,
        }
    }

    #[test]
    fn quoting_survives_single_quotes() {
        assert_eq!(shell_quote("a'b"), r"'a'\''b'");
        assert!(is_identifier("PATH") && !is_identifier("1X") && !is_identifier("A-B"));
    }

    #[test]
    fn secret_values_are_dropped_from_the_environment() {
        let extra = BTreeMap::from([
            ("KEEP".to_owned(), "ok".to_owned()),
            ("LEAK".to_owned(), "xx-secret-xx".to_owned()),
        ]);
        let env = command_env(&extra, |v| v.contains("secret"));
        assert_eq!(env.get("KEEP").map(String::as_str), Some("ok"));
        assert!(!env.contains_key("LEAK"));
    }

    #[tokio::test]
    async fn output_stderr_and_exit_code_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let env = command_env(&BTreeMap::new(), |_| false);
        let out = run(
            &DirectShell,
            dir.path(),
            &env,
            "echo out; echo err >&2; exit 3",
            &budget(Duration::from_secs(10)),
        )
        .await;
        assert_eq!(out, "out\nerr\n[exit code: 3]");
    }

    #[tokio::test]
    async fn silent_success_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let env = command_env(&BTreeMap::new(), |_| false);
        let out = run(
            &DirectShell,
            dir.path(),
            &env,
            "true",
            &budget(Duration::from_secs(10)),
        )
        .await;
        assert_eq!(out, "(no output)\n[exit code: 0]");
    }

    /// Runs like [`DirectShell`]; its watch reports a limit after `after`.
    #[derive(Debug)]
    struct LimitedShell {
        after: Duration,
        killed: Arc<std::sync::atomic::AtomicBool>,
    }

    struct Watch(Duration, Arc<std::sync::atomic::AtomicBool>);

    impl ShellWatch for Watch {
        fn check(&self, elapsed: Duration) -> Option<String> {
            (elapsed >= self.0).then(|| "memory over 1 MiB".to_owned())
        }
        fn kill_all(&self) {
            self.1.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    impl Shell for LimitedShell {
        fn prepare(&self, request: ShellRequest<'_>) -> Result<ShellProcess, String> {
            let mut process = DirectShell.prepare(request)?;
            process.watch = Some(Box::new(Watch(self.after, Arc::clone(&self.killed))));
            Ok(process)
        }
    }

    #[tokio::test]
    async fn a_limit_of_the_shells_watch_ends_the_command() {
        let dir = tempfile::tempdir().unwrap();
        let env = command_env(&BTreeMap::new(), |_| false);
        let shell = LimitedShell {
            after: Duration::from_millis(1500),
            killed: Arc::default(),
        };
        let started = Instant::now();
        let out = run(
            &shell,
            dir.path(),
            &env,
            "echo started; sleep 30",
            &budget(Duration::from_secs(20)),
        )
        .await;
        assert!(started.elapsed() < Duration::from_secs(10), "{out}");
        assert!(
            out.starts_with("started\n[limit: memory over 1 MiB;"),
            "{out}"
        );
        assert!(shell.killed.load(std::sync::atomic::Ordering::SeqCst));
    }

    /// Reports a limit once the command has written `marker` (its last act).
    #[derive(Debug)]
    struct MarkerShell(std::path::PathBuf);

    struct MarkerWatch(std::path::PathBuf);

    impl ShellWatch for MarkerWatch {
        fn check(&self, _elapsed: Duration) -> Option<String> {
            self.0.exists().then(|| "memory over 1 MiB".to_owned())
        }
        fn kill_all(&self) {}
    }

    impl Shell for MarkerShell {
        fn prepare(&self, request: ShellRequest<'_>) -> Result<ShellProcess, String> {
            let mut process = DirectShell.prepare(request)?;
            process.watch = Some(Box::new(MarkerWatch(self.0.clone())));
            Ok(process)
        }
    }

    #[tokio::test]
    async fn a_limit_found_after_the_command_exited_still_counts() {
        let dir = tempfile::tempdir().unwrap();
        let env = command_env(&BTreeMap::new(), |_| false);
        let marker = dir.path().join("oom-killed");
        // the kernel ended it (say, an OOM kill) before the watch looked
        let out = run(
            &MarkerShell(marker.clone()),
            dir.path(),
            &env,
            &format!("echo quick; touch {}", marker.display()),
            &budget(Duration::from_secs(60)),
        )
        .await;
        assert!(
            out.starts_with("quick\n[limit: memory over 1 MiB;"),
            "{out}"
        );
        let clean = run(
            &MarkerShell(dir.path().join("never")),
            dir.path(),
            &env,
            "echo quick",
            &budget(Duration::from_secs(60)),
        )
        .await;
        assert_eq!(clean, "quick\n[exit code: 0]");
    }
}
