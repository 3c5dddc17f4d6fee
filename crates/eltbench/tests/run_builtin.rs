//! `eltbench run --agent builtin:openai:<model>` against a scripted OpenAI
//! server: a recorded solution of `amplitude` (main.tf, terraform apply, one
//! sync per connection, wait, Terminate) passes stage 1; the same solution
//! syncing twice fails it with doubled counts; HTTP 429/500 are retried; an
//! unparseable reply is a step with a parse error; an API that keeps failing
//! is recorded as the agent's error; a Bash action runs in the trial's
//! sandbox, where the suite's ground truth does not exist, and a limit hit
//! there ends the trial with status `limit`.

mod run_support;

use run_support::mock_llm::{KEY, MockLlm, Reply};
use run_support::{agent_status, eltbench, result, srdel_passed, suite, tempdir, text};
use serde_json::Value;

const MAIN_TF: &str = r#"terraform {
  required_providers {
    airbyte = {
      source  = "airbytehq/airbyte"
      version = "0.6.5"
    }
  }
}

provider "airbyte" {
  server_url = "@AIRBYTE@"
  username   = "airbyte"
  password   = "password"
}

resource "airbyte_destination_duckdb" "warehouse" {
  name         = "duckdb"
  workspace_id = "5ae6b09b-fdec-41af-aaf7-7d94cfc33ef6"
  configuration = {
    destination_path = "@WAREHOUSE@"
    schema           = "airbyte_schema"
  }
}

resource "airbyte_source_postgres" "pg" {
  name         = "pg"
  workspace_id = "5ae6b09b-fdec-41af-aaf7-7d94cfc33ef6"
  configuration = {
    host     = "127.0.0.1"
    port     = @PG_PORT@
    database = "amplitude"
    username = "postgres"
    password = "testelt"
    schemas  = ["public"]
  }
}

resource "airbyte_source_custom" "api" {
  name          = "api"
  workspace_id  = "5ae6b09b-fdec-41af-aaf7-7d94cfc33ef6"
  definition_id = "8d5f1c3e-2b7a-4e6f-9c1d-5a4b3e2f1d0c"
  configuration = jsonencode({ "base_url" = "@API@", "database" = "amplitude", "streams" = ["event_type"] })
}

resource "airbyte_connection" "pg" {
  name           = "pg"
  source_id      = airbyte_source_postgres.pg.source_id
  destination_id = airbyte_destination_duckdb.warehouse.destination_id
  configurations = {
    streams = [{ name = "event", sync_mode = "full_refresh_append" }]
  }
}

resource "airbyte_connection" "api" {
  name           = "api"
  source_id      = airbyte_source_custom.api.source_id
  destination_id = airbyte_destination_duckdb.warehouse.destination_id
  configurations = {
    streams = [{ name = "event_type", sync_mode = "full_refresh_append" }]
  }
}
"#;

const APPLY: &str = r#"AIRBYTE=$(awk '/server_url:/ {print $2}' config.yaml)
PG_PORT=$(awk '/ port:/ {print $2}' config.yaml)
API=$(awk '/base_url:/ {print $2}' config.yaml)
WH=$(awk '/^  path:/ {print $2}' config.yaml)
sed -i "s#@AIRBYTE@#$AIRBYTE#; s#@PG_PORT@#$PG_PORT#; s#@API@#$API#; s#@WAREHOUSE@#$WH#" elt/main.tf
cd elt && terraform init && terraform apply -auto-approve"#;

const SYNC: &str = r#"AIRBYTE=$(awk '/server_url:/ {print $2}' config.yaml)
for id in $(grep -o '"connection_id": "[^"]*"' elt/terraform.tfstate | cut -d'"' -f4); do
  curl -sf -u airbyte:password -H 'Content-Type: application/json' -X POST "${AIRBYTE}jobs" -d "{\"jobType\": \"sync\", \"connectionId\": \"$id\"}" || exit 1
done
./check_job_status"#;

fn edit_main_tf() -> Reply {
    Reply::Text(format!(
        "Thought: write the pipeline\nAction: EditFile(filepath=\"elt/main.tf\"):\n```\n{MAIN_TF}```"
    ))
}

fn bash(code: &str) -> Reply {
    Reply::Text(format!(
        "Thought: run it\nAction: Bash(code=\"\"\"{code}\"\"\")"
    ))
}

fn terminate() -> Reply {
    Reply::Text("Thought: loaded\nAction: Terminate(answer=\"done\")".into())
}

/// Runs the builtin agent on amplitude with `script`; the job directory and its record.
fn run_script(
    script: Vec<Reply>,
    then: Option<Reply>,
    retries: &str,
) -> (tempfile::TempDir, Value, MockLlm) {
    run_script_with(script, then, retries, &[])
}

/// [`run_script`] with more `eltbench run` arguments.
fn run_script_with(
    script: Vec<Reply>,
    then: Option<Reply>,
    retries: &str,
    more: &[&str],
) -> (tempfile::TempDir, Value, MockLlm) {
    let mock = MockLlm::start(script, then);
    let tmp = tempdir();
    let job = tmp.path().join("job");
    let output = eltbench()
        .env("OPENAI_BASE_URL", mock.base_url())
        .env("OPENAI_API_KEY", KEY)
        .env("ELTBENCH_LLM_MAX_RETRIES", retries)
        .args([
            "run",
            "--agent",
            "builtin:openai:test-model",
            "--tasks",
            "amplitude",
        ])
        .args(["--timeout", "5m", "--job-dir", job.to_str().unwrap()])
        .args(more)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
    let record = result(&job, "amplitude__0");
    (tmp, record, mock)
}

fn trajectory(job: &std::path::Path) -> Value {
    let path = job.join("job/trials/amplitude__0/trajectory.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn recorded_solution_passes_stage1_through_retries_and_a_parse_error() {
    let script = vec![
        Reply::Error(429),
        Reply::Error(500),
        Reply::Text("I will now write the pipeline, no action yet.".into()),
        edit_main_tf(),
        bash(APPLY),
        bash(SYNC),
        terminate(),
    ];
    let (tmp, record, mock) = run_script(script, None, "3");
    assert_eq!(agent_status(&record), "finished", "{record:#}");
    assert!(srdel_passed(&record), "{record:#}");
    let trajectory = trajectory(tmp.path());
    let steps = trajectory["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 5, "{trajectory:#}");
    assert!(steps[0]["parse_error"].is_string(), "{:#}", steps[0]);
    assert!(steps[1..].iter().all(|s| s["parse_error"].is_null()));
    assert_eq!(trajectory["totals"]["llm_retries"], 2);
    assert_eq!(record["steps"], 5);
    assert_eq!(record["input_tokens"], 500);
    assert_eq!(mock.requests().len(), 7);
    let log = std::fs::read_to_string(tmp.path().join("job/trials/amplitude__0/sync.log")).unwrap();
    assert_eq!(log.matches("status succeeded").count(), 2, "{log}");
    let env_text = serde_json::to_string(&trajectory).unwrap();
    assert!(
        !env_text.contains(KEY),
        "the key leaked into the trajectory"
    );
}

#[test]
fn syncing_twice_fails_stage1_with_doubled_counts() {
    let script = vec![
        edit_main_tf(),
        bash(APPLY),
        bash(SYNC),
        bash(SYNC),
        terminate(),
    ];
    let (_tmp, record, _mock) = run_script(script, None, "3");
    assert_eq!(agent_status(&record), "finished", "{record:#}");
    assert!(!srdel_passed(&record), "{record:#}");
    let tables = &record["score"]["srdel"]["tables"];
    // amplitude: event has 10 rows, event_type 6 (source_row_counts.json).
    assert_eq!(tables["event"]["actual"], 20, "{tables:#}");
    assert_eq!(tables["event_type"]["actual"], 12, "{tables:#}");
}

#[test]
fn an_api_that_keeps_failing_is_the_agents_error() {
    let (_tmp, record, mock) = run_script(vec![], Some(Reply::Error(500)), "1");
    assert_eq!(agent_status(&record), "error", "{record:#}");
    let message = record["agent"]["message"].as_str().unwrap_or("");
    assert!(message.contains("500"), "{record:#}");
    assert_eq!(mock.requests().len(), 2, "one attempt and one retry");
    assert!(!srdel_passed(&record));
}

#[test]
fn a_bash_action_runs_sandboxed_and_cannot_read_the_ground_truth() {
    let suite = suite().canonicalize().unwrap();
    let gt = suite.join("gt/amplitude/amplitude__sessions.csv");
    let gt_row = std::fs::read_to_string(&gt).unwrap();
    let gt_row = gt_row.lines().nth(1).unwrap().to_owned();
    let code = format!(
        "echo ran-$((6*7)); cat {}; ls {}; echo key=$OPENAI_API_KEY",
        gt.display(),
        suite.join("gt").display()
    );
    let (tmp, record, _mock) = run_script(vec![bash(&code), terminate()], None, "1");
    assert_eq!(agent_status(&record), "finished", "{record:#}");
    assert_eq!(record["sandboxed"], Value::Bool(true), "{record:#}");
    assert_eq!(record["sandbox_mode"], "bubblewrap", "{record:#}");
    let trajectory = trajectory(tmp.path());
    let observation = trajectory["steps"][0]["observation"].as_str().unwrap();
    assert!(observation.contains("ran-42"), "{observation}");
    assert!(!observation.contains(&gt_row), "gt leaked: {observation}");
    assert!(observation.contains("No such file"), "{observation}");
    assert!(observation.contains("key=\n"), "{observation}");
}

#[test]
fn a_limit_hit_in_a_bash_action_ends_the_trial() {
    let hog = bash(r#"a=xxxxxxxxxxxxxxxx; while :; do a="$a$a"; done"#);
    let script = vec![hog, bash("echo never-ran"), terminate()];
    let (tmp, record, mock) = run_script_with(script, None, "1", &["--mem", "256M"]);
    assert_eq!(agent_status(&record), "limit", "{record:#}");
    assert_eq!(record["agent"]["limit"], "memory", "{record:#}");
    assert_eq!(mock.requests().len(), 1, "the agent stopped at the limit");
    let trajectory = trajectory(tmp.path());
    let steps = trajectory["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 1, "{trajectory:#}");
    let observation = steps[0]["observation"].as_str().unwrap_or("");
    assert!(observation.contains("memory over 256 MiB"), "{observation}");
}
