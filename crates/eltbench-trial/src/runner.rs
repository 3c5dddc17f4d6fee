//! [`AgentTrialRunner`]: one trial from start to score.
//!
//! ```text
//! <trial>/env/                  the sources' run directory (0755)
//! <trial>/warehouse/<db>.duckdb the warehouse (written by Airbyte and dbt)
//! <trial>/workspace/            the agent's workspace (see crate::workspace)
//! <trial>/trajectory.json       the agent's steps
//! <trial>/agent.log, agent.stderr.log, sync.log, dbt.log
//! <trial>/sandbox.json          the command agent's isolation and resource usage
//! ```
//!
//! Sources and Airbyte up (a failure is `Err`: a harness failure), workspace,
//! agent, then Airbyte stopped (releasing the warehouse), the warehouse scored
//! read-only and the sources stopped. The agent's processes are gone before
//! scoring: the command agent kills its sandbox, the builtin agent the
//! sandbox of each command. Last, the LLM API keys of the harness's environment are redacted
//! from the trial's logs and trajectory (`crate::redact`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use eltbench_agent::{AgentContext, Limits, write_trajectory};
use eltbench_dbt::DbtToolchain;
use eltbench_harness::{
    AgentStatus, HarnessError, JobSpec, TrialContext, TrialOutcome, TrialRunner,
};
use eltbench_score::{Compat, TaskScore, score_task_file};
use eltbench_task::Suite;

use crate::agents::{
    AgentInput, AgentRun, SANDBOX_JSON, STDERR_LOG, STDOUT_LOG, TrialAgent, build_agent,
};
use crate::redact::{redact, redact_file, secrets};
use crate::sandbox::{SandboxOptions, TrialView, hidden_paths, toolchain_paths, trial_spec};
use crate::services::{Services, create_readable_dir};
use crate::workspace::{Inputs, Workspace, build};
use crate::{AgentSpec, TrialError, instruction};

/// The Airbyte jobs and their logs, in the trial directory.
pub const SYNC_LOG: &str = "sync.log";

/// What the runner needs besides the job spec.
#[derive(Debug, Clone)]
pub struct RunnerOptions {
    /// The eltbench executable: the workspace's `terraform` and `eltbench`.
    pub eltbench_bin: PathBuf,
    /// The dbt toolchain: the workspace's `dbt`.
    pub dbt: DbtToolchain,
    /// How the command agent and the builtin agent's commands are sandboxed
    /// and limited.
    pub sandbox: SandboxOptions,
}

/// The trial runner for every agent kind.
pub struct AgentTrialRunner {
    suite: Arc<Suite>,
    agent: Arc<dyn TrialAgent>,
    options: RunnerOptions,
    compat: Compat,
    /// Read-only inside every sandbox (see [`toolchain_paths`]).
    toolchain: Vec<PathBuf>,
}

impl AgentTrialRunner {
    /// A runner for `spec`: loads the suite and builds (and checks) the agent.
    pub fn new(spec: &JobSpec, options: RunnerOptions) -> Result<Self, TrialError> {
        let suite = Suite::load(&spec.suite).map_err(|e| TrialError::Suite {
            path: spec.suite.clone(),
            message: e.to_string(),
        })?;
        let suite = Arc::new(suite);
        let agent_spec = AgentSpec::parse(&spec.agent)?;
        let agent = build_agent(&agent_spec, &spec.agent, suite.clone(), options.dbt.clone())?;
        let toolchain = toolchain_paths(&options.eltbench_bin, &options.dbt);
        Ok(Self {
            suite,
            agent,
            options,
            compat: spec.compat.into(),
            toolchain,
        })
    }

    async fn run_trial(&self, trial: &TrialContext) -> Result<TrialOutcome, TrialError> {
        let dir = trial.dir.path().to_path_buf();
        let (services, ws) = self.start(trial.db(), &dir).await?;
        let input = self.input(trial, &ws, services.ports());
        let run = self.agent.run(input).await;
        write_trajectory(&dir, &run.trajectory).map_err(|e| TrialError::Config {
            path: dir.join(eltbench_agent::TRAJECTORY_FILE),
            message: e.to_string(),
        })?;
        let score = self.finish(services, trial.db(), &dir, &ws).await?;
        let secrets = secrets();
        for name in REDACTED_FILES {
            redact_file(&dir.join(name), &secrets)?;
        }
        Ok(outcome(run, score, &secrets))
    }

    /// Sources, Airbyte and the workspace, in a blocking task.
    async fn start(&self, db: &str, dir: &Path) -> Result<(Services, Workspace), TrialError> {
        let (suite, options) = (self.suite.clone(), self.options.clone());
        let (db, dir) = (db.to_owned(), dir.to_path_buf());
        tokio::task::spawn_blocking(move || setup(&suite, &db, &dir, &options))
            .await
            .map_err(|e| TrialError::Join(e.to_string()))?
    }

    fn input(&self, trial: &TrialContext, ws: &Workspace, ports: Vec<u16>) -> AgentInput {
        let limits = Limits {
            max_steps: trial.spec.max_steps.map_or(100, |s| s as usize),
            max_cost_usd: trial.spec.max_cost_usd,
            deadline: Some(trial.deadline.into_std()),
            ..Limits::default()
        };
        let ctx = AgentContext {
            workspace: ws.root.clone(),
            instruction: instruction(trial.db()),
            limits,
            cancel: trial.cancel.clone(),
            env: ws.command_env(&self.options.dbt),
            warehouse: Some(ws.warehouse.clone()),
            shell: Arc::new(eltbench_agent::DirectShell),
        };
        let view = TrialView {
            workspace: ws,
            dbt: &self.options.dbt,
            toolchain: &self.toolchain,
            hidden: hidden_paths(self.suite.root(), trial.dir.path()),
            ports,
            time_left: Some(
                trial
                    .deadline
                    .into_std()
                    .saturating_duration_since(Instant::now()),
            ),
        };
        AgentInput {
            ctx,
            db: trial.db().to_owned(),
            trial_dir: trial.dir.path().to_path_buf(),
            workspace: ws.clone(),
            sandbox: trial_spec(view, &self.options.sandbox),
        }
    }

    /// Stops Airbyte, scores, stops the sources (blocking task). A warehouse
    /// that cannot be scored yields `None` (the agent's failure).
    async fn finish(
        &self,
        mut services: Services,
        db: &str,
        dir: &Path,
        ws: &Workspace,
    ) -> Result<Option<TaskScore>, TrialError> {
        let (suite, compat) = (self.suite.clone(), self.compat);
        let (db, dir, warehouse) = (db.to_owned(), dir.to_path_buf(), ws.warehouse.clone());
        tokio::task::spawn_blocking(move || {
            services.stop_airbyte(&dir.join(SYNC_LOG))?;
            let score = score_task_file(&suite, &db, &warehouse, compat);
            services.stop(&db)?;
            Ok(score.ok())
        })
        .await
        .map_err(|e| TrialError::Join(e.to_string()))?
    }
}

#[async_trait::async_trait]
impl TrialRunner for AgentTrialRunner {
    async fn run(&self, trial: &TrialContext) -> Result<TrialOutcome, HarnessError> {
        self.run_trial(trial).await.map_err(HarnessError::from)
    }
}

fn setup(
    suite: &Suite,
    db: &str,
    dir: &Path,
    options: &RunnerOptions,
) -> Result<(Services, Workspace), TrialError> {
    create_readable_dir(dir)?;
    let services = Services::start(suite, db, &dir.join("env"))?;
    let warehouse_dir = dir.join("warehouse");
    std::fs::create_dir_all(&warehouse_dir).map_err(|e| TrialError::io(&warehouse_dir, e))?;
    let env_config_path = services.env_config();
    let env_config = std::fs::read_to_string(&env_config_path)
        .map_err(|e| TrialError::io(&env_config_path, e))?;
    let task = suite.task(db).ok_or_else(|| TrialError::Suite {
        path: suite.root().to_path_buf(),
        message: format!("no task `{db}`"),
    })?;
    let inputs = Inputs {
        task,
        env_config: &env_config,
        env_config_path: &env_config_path,
        warehouse: &warehouse_dir.join(format!("{db}.duckdb")),
        airbyte_url: &services.airbyte_url(),
        eltbench_bin: &options.eltbench_bin,
        dbt: &options.dbt,
    };
    let ws = build(&dir.join("workspace"), &inputs)?;
    Ok((services, ws))
}

/// Files of the trial directory the API keys are redacted from.
const REDACTED_FILES: &[&str] = &[
    STDOUT_LOG,
    STDERR_LOG,
    SANDBOX_JSON,
    eltbench_agent::TRAJECTORY_FILE,
    SYNC_LOG,
    "dbt.log",
];

fn outcome(run: AgentRun, score: Option<TaskScore>, secrets: &[String]) -> TrialOutcome {
    let totals = &run.trajectory.totals;
    let status = match run.status {
        AgentStatus::Error { message } => AgentStatus::Error {
            message: redact(&message, secrets),
        },
        other => other,
    };
    let mut outcome = TrialOutcome::bare(status);
    outcome.sandboxed = run.sandboxed;
    outcome.sandbox_mode = run.sandbox_mode;
    outcome.steps = totals.steps as u64;
    outcome.input_tokens = totals.input_tokens;
    outcome.output_tokens = totals.output_tokens;
    outcome.cost_usd = totals.cost_usd;
    outcome.score = score;
    outcome
}
