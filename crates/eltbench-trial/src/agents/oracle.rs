//! `oracle`: the task's gold solution applied through the same tools an agent
//! uses — it writes `elt/main.tf` (gold or generated, see [`super::gold`]),
//! runs `terraform init` and `apply -auto-approve` with the workspace's
//! `bin/terraform`, starts one sync per connection through the Airbyte API and
//! waits for it, then, when `<suite>/gold/<db>/models/` exists, builds the
//! gold dbt models in the workspace's `dbt/` project. It proves a task and
//! the environment solvable; it never reads ground truth or expected counts.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Instant;

use eltbench_agent::{Action, Outcome};
use eltbench_dbt::DbtToolchain;
use eltbench_harness::oracle::{ApiClient, connection_ids, run_gold_models};
use eltbench_task::Suite;

use super::record::{Recorder, status_of};
use super::{AgentInput, AgentRun, TrialAgent, gold};

/// dbt's output of the gold models, in the trial directory.
pub const DBT_LOG: &str = "dbt.log";

pub struct OracleAgent {
    suite: Arc<Suite>,
    dbt: DbtToolchain,
}

impl OracleAgent {
    pub fn new(suite: Arc<Suite>, dbt: DbtToolchain) -> Self {
        Self { suite, dbt }
    }
}

#[async_trait::async_trait]
impl TrialAgent for OracleAgent {
    async fn run(&self, input: AgentInput) -> AgentRun {
        let (suite, dbt) = (self.suite.clone(), self.dbt.clone());
        let instruction = input.ctx.instruction.clone();
        let joined = tokio::task::spawn_blocking(move || {
            let mut recorder = Recorder::new("oracle", &input.ctx.instruction);
            let outcome = match steps(&suite, &dbt, &input, &mut recorder) {
                Ok(()) => Outcome::Finished {
                    answer: "gold solution applied".into(),
                },
                Err(message) => Outcome::Error { message },
            };
            recorder.finish(outcome, (0, 0), None)
        })
        .await;
        let trajectory = joined.unwrap_or_else(|e| {
            Recorder::new("oracle", &instruction).finish(
                Outcome::Error {
                    message: format!("the oracle panicked: {e}"),
                },
                (0, 0),
                None,
            )
        });
        AgentRun {
            status: status_of(&trajectory.outcome),
            trajectory,
            sandboxed: None,
            sandbox_mode: None,
        }
    }
}

/// The oracle's actions, each recorded as a step; the first failure ends it.
fn steps(
    suite: &Suite,
    dbt: &DbtToolchain,
    input: &AgentInput,
    rec: &mut Recorder,
) -> Result<(), String> {
    let ws = &input.workspace;
    let started = Instant::now();
    let text = gold::gold_main_tf(suite, &input.db, ws)?;
    let main_tf = ws.elt().join("main.tf");
    std::fs::write(&main_tf, &text).map_err(|e| format!("{}: {e}", main_tf.display()))?;
    let wrote = format!("Wrote elt/main.tf ({} bytes).", text.len());
    let action = Action::EditFile {
        filepath: "elt/main.tf".into(),
        content: text,
    };
    rec.step("write the gold pipeline", action, started, wrote);
    for args in [&["init"][..], &["apply", "-auto-approve"][..]] {
        cancelled(input)?;
        terraform(input, args, rec)?;
    }
    let ids = connection_ids(&ws.elt().join("terraform.tfstate")).map_err(|e| e.to_string())?;
    let api = ApiClient::new(&ws.airbyte_url);
    for (name, id) in &ids {
        cancelled(input)?;
        let started = Instant::now();
        let job = api.sync(id).map_err(|e| e.to_string())?;
        let code = format!(
            "POST /jobs {{\"jobType\": \"sync\", \"connectionId\": \"{id}\"}}, then GET /jobs/<id> until terminal"
        );
        let observation = format!("connection {name}: job {job} succeeded");
        rec.step(
            "sync once and wait",
            Action::Bash { code },
            started,
            observation,
        );
    }
    if suite
        .root()
        .join("gold")
        .join(&input.db)
        .join("models")
        .is_dir()
    {
        cancelled(input)?;
        gold_models(suite, dbt, input, rec)?;
    }
    Ok(())
}

fn cancelled(input: &AgentInput) -> Result<(), String> {
    match input.ctx.cancel.is_cancelled() {
        true => Err("cancelled".into()),
        false => Ok(()),
    }
}

/// `bin/terraform <args>` in `elt/`, as an agent runs it.
fn terraform(input: &AgentInput, args: &[&str], rec: &mut Recorder) -> Result<(), String> {
    let ws = &input.workspace;
    let program = ws.bin().join("terraform");
    let started = Instant::now();
    let output = Command::new(&program)
        .args(args)
        .current_dir(ws.elt())
        .envs(&input.ctx.env)
        .env("TF_IN_AUTOMATION", "1")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let text = format!(
        "{}{}[exit code: {}]",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
        output.status.code().unwrap_or(-1)
    );
    let code = format!("cd elt && terraform {}", args.join(" "));
    rec.step(
        "apply the pipeline",
        Action::Bash { code },
        started,
        text.clone(),
    );
    match output.status.success() {
        true => Ok(()),
        false => Err(format!("terraform {} failed: {text}", args.join(" "))),
    }
}

/// The gold dbt models in the workspace's `dbt/` project; dbt's output to `dbt.log`.
fn gold_models(
    suite: &Suite,
    dbt: &DbtToolchain,
    input: &AgentInput,
    rec: &mut Recorder,
) -> Result<(), String> {
    let ws = &input.workspace;
    let started = Instant::now();
    let result = run_gold_models(suite, &input.db, &ws.warehouse, &ws.dbt(), dbt);
    let observation = match &result {
        Ok(outcome) => format!("{}{}", outcome.stdout, outcome.stderr),
        Err(e) => e.to_string(),
    };
    write_log(&input.trial_dir.join(DBT_LOG), &observation);
    let code = "cd dbt && dbt run".to_owned();
    rec.step(
        "build the gold models",
        Action::Bash { code },
        started,
        observation,
    );
    result.map(|_| ()).map_err(|e| e.to_string())
}

fn write_log(path: &Path, text: &str) {
    let _ = std::fs::write(path, text);
}
