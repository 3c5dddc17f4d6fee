//! Hostile agents (shell scripts) against the sandbox: each must be contained and its run
//! recorded with the right reason. These need bubblewrap, root and cgroup v1; they fail
//! (never skip) with "run scripts/setup" when bwrap is missing.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use eltbench_sandbox::{LimitHit, Limits, Mode, Outcome, SandboxSpec, prepare};

/// A job directory with two trials and a suite holding ground truth and gold.
struct Bed {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl Bed {
    fn new() -> Self {
        assert!(
            Path::new("/usr/bin/bwrap").is_file(),
            "bubblewrap (/usr/bin/bwrap) is missing: run scripts/setup"
        );
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let files = [
            ("suite/tasks/db/config.yaml", "postgres: {port: 5432}\n"),
            ("suite/gt/db/model.csv", "id,name\n1,GT-SECRET-ROW\n"),
            (
                "suite/gold/db/models/model.sql",
                "select 'GOLD-SECRET-SQL'\n",
            ),
            ("job/trial-b/result.json", "{\"srdel\": 0.0}\n"),
            ("job/trial-b/warehouse/db.duckdb", "ORIGINAL-WAREHOUSE\n"),
            ("job/trial-a/workspace/README.md", "workspace\n"),
        ];
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        Self { _tmp: tmp, root }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    fn spec(&self, limits: Limits) -> SandboxSpec {
        let mut spec = SandboxSpec::new(self.path("job/trial-a/workspace"));
        spec.read_only = vec![self.path("suite"), self.path("job")];
        spec.hidden = vec![self.path("suite/gt"), self.path("suite/gold")];
        spec.env = BTreeMap::from([
            ("PATH".into(), "/usr/bin:/bin".into()),
            ("HOME".into(), spec.workspace.to_string_lossy().into_owned()),
            (
                "SUITE".into(),
                self.path("suite").to_string_lossy().into_owned(),
            ),
            (
                "JOB".into(),
                self.path("job").to_string_lossy().into_owned(),
            ),
        ]);
        spec.limits = limits;
        spec
    }

    /// Runs `script` with `shell` as the agent; returns the outcome and its stdout.
    fn run(&self, spec: &SandboxSpec, shell: &str, script: &str) -> (Outcome, String) {
        let agent = spec.workspace.join("agent.sh");
        std::fs::write(&agent, script).unwrap();
        let out_path = self.path("agent.out");
        let prepared = prepare(spec, shell, &[agent.as_os_str()]).unwrap();
        assert_eq!(
            prepared.sandboxed.mode,
            Mode::Bubblewrap,
            "{:?}",
            prepared.sandboxed
        );
        assert!(
            prepared.sandboxed.warnings.is_empty(),
            "{:?}",
            prepared.sandboxed.warnings
        );
        let mut command = prepared.command;
        command
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out_path).unwrap())
            .stderr(Stdio::inherit());
        let child = command.spawn().unwrap();
        let outcome = prepared.guard.supervise(child).unwrap();
        (outcome, std::fs::read_to_string(out_path).unwrap())
    }
}

fn limits(wall_secs: u64) -> Limits {
    Limits {
        wall: Duration::from_secs(wall_secs),
        cpu_seconds: 60,
        memory_bytes: 256 << 20,
        max_processes: 64,
        disk_write_bytes: 64 << 20,
    }
}

/// Pids of live processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) || name == std::process::id().to_string() {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains(marker) {
            found.push(name);
        }
    }
    found
}

#[test]
fn ground_truth_and_gold_are_invisible_but_task_files_readable() {
    let bed = Bed::new();
    let script = r#"
cat "$SUITE/tasks/db/config.yaml"
cat "$SUITE/gt/db/model.csv" "$SUITE/gold/db/models/model.sql" 2>&1
echo "gt-listing:[$(ls -A "$SUITE/gt")] gold-listing:[$(ls -A "$SUITE/gold")]"
grep -r SECRET "$SUITE" "$JOB" /tmp 2>/dev/null | head -5
echo done
"#;
    let (outcome, out) = bed.run(&bed.spec(limits(30)), "/bin/sh", script);
    assert!(out.contains("postgres: {port: 5432}"), "{out}");
    assert!(out.contains("gt-listing:[] gold-listing:[]"), "{out}");
    assert!(
        !out.contains("GT-SECRET-ROW") && !out.contains("GOLD-SECRET-SQL"),
        "{out}"
    );
    assert!(out.contains("done"), "{out}");
    assert_eq!(outcome.limit, LimitHit::None);
}

#[test]
fn forged_results_outside_the_workspace_are_refused_and_files_unchanged() {
    let bed = Bed::new();
    let script = r#"
B="$JOB/trial-b"
echo '{"srdel": 1.0}' > "$B/result.json" && echo wrote-result
echo FORGED > "$B/warehouse/db.duckdb" && echo wrote-warehouse
rm -f "$B/result.json" && echo removed
mv "$B/warehouse/db.duckdb" "$B/x" && echo moved
touch "$B/forged.csv" && echo created
mkdir -p "$SUITE/gt/db" 2>/dev/null; echo 'id,name' > "$SUITE/gt/db/model.csv" && echo wrote-gt
echo mine > "$HOME/result.json" && echo wrote-own
"#;
    let (outcome, out) = bed.run(&bed.spec(limits(30)), "/bin/sh", script);
    for forbidden in [
        "wrote-result",
        "wrote-warehouse",
        "removed",
        "moved",
        "created",
        "wrote-gt",
    ] {
        assert!(!out.contains(forbidden), "{forbidden} succeeded: {out}");
    }
    assert!(out.contains("wrote-own"), "{out}");
    let read = |p: &str| std::fs::read_to_string(bed.path(p)).unwrap();
    assert_eq!(read("job/trial-b/result.json"), "{\"srdel\": 0.0}\n");
    assert_eq!(
        read("job/trial-b/warehouse/db.duckdb"),
        "ORIGINAL-WAREHOUSE\n"
    );
    assert_eq!(read("suite/gt/db/model.csv"), "id,name\n1,GT-SECRET-ROW\n");
    assert!(!bed.path("job/trial-b/forged.csv").exists());
    assert_eq!(read("job/trial-a/workspace/result.json"), "mine\n");
    assert_eq!(outcome.limit, LimitHit::None);
}

#[test]
fn unlisted_sibling_trial_does_not_exist_inside() {
    let bed = Bed::new();
    let mut spec = bed.spec(limits(30));
    spec.read_only = vec![bed.path("suite")];
    let script = r#"ls "$JOB/trial-b" 2>&1; ls "$JOB" 2>&1; echo "[$(cat /etc/shadow 2>&1)]""#;
    let (_, out) = bed.run(&spec, "/bin/sh", script);
    assert!(out.contains("No such file"), "{out}");
    assert!(!out.contains("result.json"), "{out}");
    assert!(!out.contains("root:"), "shadow readable: {out}");
}

#[test]
fn fork_bomb_hits_the_process_limit_and_leaves_nothing() {
    let bed = Bed::new();
    let mut lim = limits(60);
    lim.max_processes = 32;
    let script = "bomb() { while :; do bomb & done; }\nbomb\n";
    let started = Instant::now();
    let spec = bed.spec(lim);
    let (outcome, _) = bed.run(&spec, "/bin/sh", script);
    assert_eq!(outcome.limit, LimitHit::Processes, "{outcome:?}");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let marker = spec.workspace.to_string_lossy().into_owned();
    assert_eq!(processes_with(&marker), Vec::<String>::new());
    assert!(
        Command::new("/bin/true").status().unwrap().success(),
        "machine cannot fork"
    );
}

#[test]
fn unbounded_memory_is_recorded_as_memory() {
    let bed = Bed::new();
    let mut lim = limits(60);
    lim.memory_bytes = 64 << 20;
    // tail keeps the last line, and /dev/zero never ends one.
    let (outcome, _) = bed.run(&bed.spec(lim), "/bin/sh", "tail /dev/zero\necho survived\n");
    assert_eq!(outcome.limit, LimitHit::Memory, "{outcome:?}");
    assert!(outcome.stats.oom_kills > 0, "{outcome:?}");
}

#[test]
fn sleeper_is_killed_at_the_wall_limit_with_no_leftover_process() {
    let bed = Bed::new();
    let script = "sleep 987651 &\n(setsid sleep 987652 &)\nsleep 987653\n";
    let started = Instant::now();
    let (outcome, _) = bed.run(&bed.spec(limits(2)), "/bin/sh", script);
    assert_eq!(outcome.limit, LimitHit::Wall, "{outcome:?}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // All three sleepers (background, setsid-detached, foreground) are gone.
    assert_eq!(processes_with("sleep 98765"), Vec::<String>::new());
}

#[test]
fn cpu_time_of_one_process_is_limited() {
    let bed = Bed::new();
    let mut lim = limits(60);
    lim.cpu_seconds = 1;
    let (outcome, _) = bed.run(&bed.spec(lim), "/bin/sh", "while :; do :; done\n");
    assert_eq!(outcome.limit, LimitHit::Cpu, "{outcome:?}");
}

#[test]
fn cpu_time_summed_over_processes_is_limited() {
    let bed = Bed::new();
    let mut lim = limits(60);
    lim.cpu_seconds = 2;
    // Four spinners: none reaches 2 s alone before their sum does.
    let script = "for i in 1 2 3 4; do (while :; do :; done) & done\nwait\n";
    let (outcome, _) = bed.run(&bed.spec(lim), "/bin/sh", script);
    assert_eq!(outcome.stats.killed_for, Some(LimitHit::Cpu), "{outcome:?}");
    assert_eq!(outcome.limit, LimitHit::Cpu);
    assert!(
        outcome.stats.cpu.unwrap() >= Duration::from_secs(2),
        "{outcome:?}"
    );
}

#[test]
fn disk_growth_beyond_the_limit_is_recorded_as_disk() {
    let bed = Bed::new();
    let mut lim = limits(60);
    lim.disk_write_bytes = 1 << 20;
    let script = "head -c 900000 /dev/zero > a\nhead -c 900000 /dev/zero > b\nsleep 60\n";
    let (outcome, _) = bed.run(&bed.spec(lim), "/bin/sh", script);
    assert_eq!(outcome.limit, LimitHit::Disk, "{outcome:?}");
    assert!(outcome.stats.disk_written_bytes > 1 << 20, "{outcome:?}");
}

#[test]
fn processes_outside_the_sandbox_cannot_be_killed() {
    let bed = Bed::new();
    let mut victim = Command::new("sleep").arg("300").spawn().unwrap();
    let mut spec = bed.spec(limits(30));
    spec.env.insert("VICTIM".into(), victim.id().to_string());
    let script = r#"
kill -9 "$VICTIM" 2>&1 && echo killed-victim
kill -9 -1 2>&1
echo "visible:[$(ls /proc | grep -c '^[0-9]')]"
"#;
    let (_, out) = bed.run(&spec, "/bin/sh", script);
    std::thread::sleep(Duration::from_millis(200));
    let alive = victim.try_wait().unwrap().is_none();
    let _ = victim.kill();
    let _ = victim.wait();
    assert!(alive, "the sandbox killed a host process: {out}");
    assert!(!out.contains("killed-victim"), "{out}");
}

#[test]
fn harness_secrets_never_reach_the_agent_environment() {
    const SECRET: &str = "sk-redteam-0123456789";
    if std::env::var("REDTEAM_INNER").is_err() {
        // Re-run this test in a child whose environment holds an API key, as the
        // harness's would.
        let status = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "harness_secrets_never_reach_the_agent_environment",
                "--nocapture",
            ])
            .env("REDTEAM_INNER", "1")
            .env("OPENAI_API_KEY", SECRET)
            .status()
            .unwrap();
        assert!(status.success(), "inner run failed: {status}");
        return;
    }
    assert_eq!(std::env::var("OPENAI_API_KEY").unwrap(), SECRET);
    let bed = Bed::new();
    let spec = bed.spec(limits(30));
    let script = "env\ncat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'\necho end\n";
    let (_, out) = bed.run(&spec, "/bin/sh", script);
    assert!(out.contains("end"), "{out}");
    assert!(!out.contains(SECRET), "API key leaked: {out}");
    assert!(
        !out.contains("REDTEAM_INNER") && !out.contains("CARGO"),
        "{out}"
    );
    let names: Vec<&str> = out
        .lines()
        .take_while(|l| *l != "end")
        .filter_map(|l| l.split_once('=').map(|(k, _)| k))
        .collect();
    for name in names {
        assert!(
            spec.env.contains_key(name) || name == "PWD",
            "unexpected variable {name}: {out}"
        );
    }
}

/// A TCP line-echo server on 127.0.0.1; returns its port.
fn echo_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || echo(stream));
        }
    });
    port
}

fn echo(stream: TcpStream) {
    let mut writer = stream.try_clone().unwrap();
    for line in BufReader::new(stream).lines().map_while(Result::ok) {
        if writeln!(writer, "{line}").is_err() {
            return;
        }
    }
}

#[test]
fn only_allowed_loopback_ports_are_reachable() {
    let bed = Bed::new();
    let allowed = echo_server();
    let blocked = echo_server();
    let mut spec = bed.spec(limits(30));
    spec.allowed_ports = vec![allowed];
    spec.env.insert("OK".into(), allowed.to_string());
    spec.env.insert("NO".into(), blocked.to_string());
    let script = r#"
if exec 3<>"/dev/tcp/127.0.0.1/$OK"; then echo ping >&3; read -r line <&3; echo "ok:$line"; fi
if exec 4<>"/dev/tcp/127.0.0.1/$NO"; then echo no:connected; else echo no:refused; fi
if exec 5<>/dev/tcp/1.1.1.1/80; then echo outside:connected; else echo outside:unreachable; fi
"#;
    let (outcome, out) = bed.run(&spec, "/bin/bash", script);
    assert!(out.contains("ok:ping"), "{out}");
    assert!(
        out.contains("no:refused") && !out.contains("no:connected"),
        "{out}"
    );
    assert!(out.contains("outside:unreachable"), "{out}");
    assert_eq!(outcome.limit, LimitHit::None);
    // The host side of the allowed port still works after the sandbox is gone.
    let mut s = TcpStream::connect(("127.0.0.1", allowed)).unwrap();
    writeln!(s, "after").unwrap();
    let mut line = String::new();
    BufReader::new(s).read_line(&mut line).unwrap();
    assert_eq!(line, "after\n");
}
