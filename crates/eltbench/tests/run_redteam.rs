//! Hostile `command` agents in one real job (`amplitude` of the test bed, one
//! behaviour per trial index): each is contained by the sandbox and recorded
//! with the right reason, nothing any of them writes changes a score, and the
//! honest trial of the job scores exactly as in a job of its own. Without a
//! usable bubblewrap (`ELTBENCH_BWRAP` naming a missing file) the run warns on
//! stderr with the reason and records the trial as unsandboxed.
//!
//! | trial | behaviour                                                        |
//! |-------|------------------------------------------------------------------|
//! | 0     | honest: the gold `main.tf`, `terraform apply`, `check_job_status` |
//! | 1     | reads the suite's `gt/` and `gold/`                               |
//! | 2     | forges `result.json`, warehouses of other trials, a gt CSV, the helper |
//! | 3     | fork bomb                                                        |
//! | 4     | unbounded memory                                                 |
//! | 5     | sleeps forever                                                   |
//! | 6     | kills every process it can see, then works honestly              |
//! | 7     | prints the API keys of its environment (and one it "found")      |
//! | 8     | does nothing                                                     |

mod run_support;

use std::path::{Path, PathBuf};
use std::process::Output;

use run_support::{agent_status, eltbench, result, srdel_passed, suite, tempdir, text};
use serde_json::Value;

const OPENAI_KEY: &str = "sk-redteam-openai-0123456789";
const ANTHROPIC_KEY: &str = "sk-ant-redteam-9876543210";

/// Placeholders of the gold `main.tf` the honest script fills in from its
/// workspace's `config.yaml`.
const AIRBYTE_PORT: &str = "41111";
const API_PORT: &str = "42222";
const PG_PORT: &str = "43333";
const WAREHOUSE: &str = "/PLACEHOLDER_WAREHOUSE/amplitude.duckdb";

/// The gold `main.tf` of amplitude with placeholder ports and warehouse.
fn main_tf_template() -> String {
    let config = format!(
        "Airbyte:\n  config:\n    namespace_definition: destination\n    \
         server_url: http://127.0.0.1:{AIRBYTE_PORT}/api/public/v1/\n    \
         username: airbyte\n    password: password\n\
         custom_api:\n  config:\n    configuration: {{}}\n    sync_mode: full_refresh_append\n    \
         tables:\n    - event_type\n    base_url: http://127.0.0.1:{API_PORT}\n\
         postgres:\n  config:\n    database: amplitude\n    host: 127.0.0.1\n    password: testelt\n    \
         port: {PG_PORT}\n    schema: public\n    sync_mode: full_refresh_append\n    tables:\n    - event\n    \
         user: postgres\n\
         duckdb:\n  path: {WAREHOUSE}\n  database: amplitude\n  schema: airbyte_schema\n"
    );
    eltbench_harness::oracle::gold_main_tf(
        &config,
        Path::new("config.yaml"),
        Path::new(WAREHOUSE),
        &format!("http://127.0.0.1:{AIRBYTE_PORT}/api/public/v1"),
    )
    .unwrap()
}

/// The honest work: the gold main.tf with this trial's ports, apply, wait.
fn honest(template: &str) -> String {
    format!(
        r#"ab=$(sed -n 's|^ *server_url: http://127.0.0.1:\([0-9]*\).*|\1|p' config.yaml)
api=$(sed -n 's|^ *base_url: http://127.0.0.1:\([0-9]*\).*|\1|p' config.yaml)
pg=$(sed -n 's|^ *port: \([0-9]*\).*|\1|p' config.yaml)
wh=$(sed -n 's|^ *path: \(.*\)$|\1|p' config.yaml)
sed -e "s|{AIRBYTE_PORT}|$ab|g; s|{API_PORT}|$api|g; s|{PG_PORT}|$pg|g; s|{WAREHOUSE}|$wh|g" > elt/main.tf <<'MAINTF'
{template}MAINTF
(cd elt && terraform init -input=false && terraform apply -auto-approve) || exit 3
for id in $(sed -n 's|.*"connection_id": "\([^"]*\)".*|\1|p' elt/terraform.tfstate); do
  curl -sf -u airbyte:password -H 'content-type: application/json' -X POST \
    "http://127.0.0.1:$ab/api/public/v1/jobs" --data "{{\"jobType\": \"sync\", \"connectionId\": \"$id\"}}" || exit 5
done
./check_job_status --timeout 2m || exit 4
"#
    )
}

/// One shell script for the whole job; the trial index picks the behaviour.
fn script() -> String {
    let suite = suite().canonicalize().unwrap();
    let suite = suite.display();
    let honest = honest(&main_tf_template());
    format!(
        r#"t=$(basename "$(dirname "$PWD")")
case "${{t##*__}}" in
0) {honest};;
1) for f in {suite}/gt/amplitude/amplitude__sessions.csv {suite}/gt/_meta.json {suite}/model_eval_keys.json; do cat "$f"; done
   ls -R {suite}/gt {suite}/gold 2>&1
   find / -name 'amplitude__sessions*' 2>/dev/null | while read -r f; do cat "$f"; done
   exit 0;;
2) echo '{{"agent_status":"finished","score":{{"srdel":{{"passed":true}}}}}}' > result.json
   echo FORGED > ../result.json
   for d in ../../amplitude__0 ../../amplitude__8; do
     mkdir -p "$d/warehouse" && echo FORGED > "$d/result.json" && echo FORGED > "$d/warehouse/amplitude.duckdb"
   done
   mkdir -p gt/amplitude && printf 'unique_session_id\nx\n' > gt/amplitude/amplitude__sessions.csv
   printf '#!/bin/sh\necho all succeeded\nexit 0\n' > check_job_status
   ./check_job_status; exit 0;;
3) f() {{ f | f & }}; f; sleep 60;;
4) a=xxxxxxxxxxxxxxxx; while :; do a="$a$a"; done;;
5) sleep 100000;;
6) ls /proc | grep -c '^[0-9]'
   kill -9 -1
   for p in /proc/[0-9]*; do n=${{p#/proc/}}; [ "$n" = "$$" ] || kill -9 "$n" 2>/dev/null; done
   pkill -9 postgres; pkill -9 terraform
   echo killed everything
   {honest};;
7) env; echo "OPENAI=$OPENAI_API_KEY ANTHROPIC=$ANTHROPIC_API_KEY"
   echo "found sk-redteam""-openai-0123456789"; exit 0;;
*) exit 0;;
esac
"#
    )
}

/// `eltbench run` of `script()` on amplitude with `k` trials, the harness
/// holding API keys.
fn run_job(job: &Path, k: u32, extra: &[&str]) -> Output {
    let agent = format!("command:{}", script());
    let k = k.to_string();
    let mut cmd = eltbench();
    cmd.env("OPENAI_API_KEY", OPENAI_KEY)
        .env("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
        .args(["run", "--tasks", "amplitude", "-k", &k, "--agent", &agent])
        .args(["--concurrency", "2", "--timeout", "45s"])
        .args(["--mem", "512M", "--max-procs", "128"])
        .arg("--job-dir")
        .arg(job)
        .args(extra);
    cmd.output().unwrap()
}

fn trial(job: &Path, index: u32) -> PathBuf {
    job.join("trials").join(format!("amplitude__{index}"))
}

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()).into_owned()
}

fn sandbox_json(job: &Path, index: u32) -> Value {
    let text = read(&trial(job, index).join("sandbox.json"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("trial {index}: sandbox.json: {e}"))
}

/// A record's score with the trial's own paths made neutral (a missing
/// warehouse names its file).
fn score(record: &Value, job: &Path) -> String {
    let mut text = record["score"].to_string();
    text = text.replace(&job.display().to_string(), "<job>");
    for i in 0..10 {
        text = text.replace(&format!("amplitude__{i}"), "amplitude__#");
    }
    text
}

fn detail(record: &Value) -> &str {
    record["agent"]["detail"].as_str().unwrap_or("")
}

/// Every file under `dir` that contains `needle`.
fn files_containing(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            found.extend(files_containing(&path, needle));
        } else if meta.is_file() && read(&path).contains(needle) {
            found.push(path);
        }
    }
    found
}

#[test]
fn hostile_trials_are_contained_recorded_and_change_no_score() {
    let tmp = tempdir();
    let job = tmp.path().join("job");
    let output = run_job(&job, 9, &[]);
    let log = text(&output);
    let rec = |i: u32| result(&job, &format!("amplitude__{i}"));

    // Every trial ran sandboxed, and the record says so.
    for i in 0..9 {
        assert_eq!(rec(i)["sandboxed"], Value::Bool(true), "trial {i}: {log}");
        assert_eq!(rec(i)["sandbox_mode"], "bubblewrap", "trial {i}");
        assert_eq!(
            sandbox_json(&job, i)["sandboxed"]["mode"]["kind"],
            "bubblewrap"
        );
    }

    // 0: honest, loads every table.
    assert_eq!(agent_status(&rec(0)), "finished", "{:#}\n{log}", rec(0));
    assert!(srdel_passed(&rec(0)), "{:#}", rec(0));

    // 1: the ground truth is not there.
    let gt = std::fs::read_to_string(suite().join("gt/amplitude/amplitude__sessions.csv")).unwrap();
    let gt_row = gt.lines().nth(1).unwrap();
    let out1 = read(&trial(&job, 1).join("agent.log"));
    assert!(!out1.contains(gt_row), "gt leaked:\n{out1}");
    assert!(!srdel_passed(&rec(1)));

    // 2: forged files change nothing outside its own workspace.
    assert_eq!(agent_status(&rec(2)), "finished", "{:#}", rec(2));
    assert!(!srdel_passed(&rec(2)));
    assert_eq!(
        score(&rec(2), &job),
        score(&rec(8), &job),
        "forgeries changed a score"
    );
    for i in [0, 2, 8] {
        let record = read(&trial(&job, i).join("result.json"));
        assert!(!record.contains("FORGED"), "trial {i}: {record}");
        let warehouse = trial(&job, i).join("warehouse/amplitude.duckdb");
        assert!(
            !read(&warehouse).starts_with("FORGED"),
            "trial {i} warehouse forged"
        );
    }
    assert!(read(&trial(&job, 2).join("workspace/result.json")).contains("passed"));

    // 3: fork bomb -> processes; 4: memory hog -> memory; 5: sleeper -> timeout.
    let limit = |i: u32| {
        sandbox_json(&job, i)["limit"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    assert_eq!(agent_status(&rec(3)), "limit", "{:#}", rec(3));
    assert_eq!(rec(3)["agent"]["limit"], "processes", "{:#}", rec(3));
    assert!(detail(&rec(3)).starts_with("more than 128 processes"));
    assert_eq!(limit(3), "processes");
    assert_eq!(agent_status(&rec(4)), "limit", "{:#}", rec(4));
    assert_eq!(rec(4)["agent"]["limit"], "memory", "{:#}", rec(4));
    assert!(detail(&rec(4)).starts_with("memory over 512 MiB"));
    assert_eq!(limit(4), "memory");
    assert_eq!(agent_status(&rec(5)), "timeout", "{:#}", rec(5));
    assert_eq!(limit(5), "wall");

    // 6: its kills reached nothing of the harness: the services still served it.
    let out6 = read(&trial(&job, 6).join("agent.log"));
    assert!(out6.contains("killed everything"), "{out6}");
    assert!(srdel_passed(&rec(6)), "services died: {:#}\n{out6}", rec(6));

    // 7: no key in its environment; the one it printed is redacted everywhere.
    let out7 = read(&trial(&job, 7).join("agent.log"));
    assert!(out7.contains("OPENAI= ANTHROPIC="), "{out7}");
    assert!(out7.contains("found [REDACTED]"), "{out7}");
    for key in [OPENAI_KEY, ANTHROPIC_KEY] {
        assert_eq!(files_containing(&job, key), Vec::<PathBuf>::new(), "{key}");
    }

    // The honest trial scores exactly as in a job without the hostile trials.
    let alone = tmp.path().join("alone");
    let output = run_job(&alone, 1, &[]);
    let baseline = result(&alone, "amplitude__0");
    assert!(srdel_passed(&baseline), "{}", text(&output));
    assert_eq!(score(&rec(0), &job), score(&baseline, &alone));
    assert_eq!(score(&rec(6), &job), score(&baseline, &alone));
}

#[test]
fn no_sandbox_is_deliberate_recorded_and_still_keyless() {
    let tmp = tempdir();
    let job = tmp.path().join("job");
    let output = run_job(&job, 1, &["--no-sandbox"]);
    let record = result(&job, "amplitude__0");
    assert_eq!(record["sandboxed"], Value::Bool(false), "{}", text(&output));
    let mode = record["sandbox_mode"].as_str().unwrap_or("");
    assert!(
        mode.starts_with("none: ") && mode.contains("--no-sandbox"),
        "{mode}"
    );
    let sandbox = sandbox_json(&job, 0);
    assert_eq!(sandbox["sandboxed"]["mode"]["kind"], "none");
    assert!(
        sandbox["sandboxed"]["mode"]["reason"]
            .as_str()
            .unwrap()
            .contains("--no-sandbox")
    );
    // Honest work still succeeds unsandboxed, with the limits applied.
    assert!(srdel_passed(&record), "{record:#}");
    assert_eq!(sandbox["limits"]["memory_bytes"], 512 << 20);
    assert!(files_containing(&job, OPENAI_KEY).is_empty());
}

#[test]
fn a_missing_bubblewrap_is_a_loud_recorded_fallback() {
    let tmp = tempdir();
    let job = tmp.path().join("job");
    let missing = tmp.path().join("no-such-bwrap");
    let output = eltbench()
        .env("ELTBENCH_BWRAP", &missing)
        .args(["run", "--tasks", "amplitude", "--agent", "command:true"])
        .args(["--timeout", "45s", "--job-dir"])
        .arg(&job)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let reason = format!("ELTBENCH_BWRAP={} is not a file", missing.display());
    assert!(
        stderr.contains("warning: AGENTS RUN UNSANDBOXED") && stderr.contains(&reason),
        "{}",
        text(&output)
    );
    let record = result(&job, "amplitude__0");
    assert_eq!(record["sandboxed"], Value::Bool(false), "{record:#}");
    let mode = record["sandbox_mode"].as_str().unwrap_or("");
    assert!(mode.starts_with(&format!("none: {reason}")), "{mode}");
    // The trial table of the printed report shows it too.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("no (none: ELTBENCH_BWRAP="), "{stdout}");
}
