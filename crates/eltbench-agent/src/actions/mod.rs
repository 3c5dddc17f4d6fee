//! The builtin agent's action space ([`Action`]) and the environment that carries
//! actions out in a workspace ([`Actions`]).
//!
//! Every action produces an observation string, never an error: a failing command
//! or query is something the model must see and react to. Nothing here reads API
//! keys; the caller decides which environment variables commands get.

mod bash;
mod files;
mod shell;
mod sql;
mod table;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

pub use bash::command_env;
pub use shell::{DirectShell, Shell, ShellProcess, ShellRequest, ShellWatch};

/// One action the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Run `code` with `bash -lc` in the workspace.
    Bash { code: String },
    /// Create a new file (fails when it exists).
    CreateFile { filepath: String, content: String },
    /// Replace a file's whole content (creates it when missing).
    EditFile { filepath: String, content: String },
    /// Run SQL on the warehouse.
    Sql { query: String },
    /// List the warehouse's tables.
    ListTables,
    /// Columns and types of one table.
    TableInfo { table: String },
    /// The first `rows` rows of one table.
    SampleRows { table: String, rows: u32 },
    /// The task is done.
    Terminate { answer: String },
}

/// Most rows SampleRows returns, whatever the model asks.
pub const MAX_SAMPLE_ROWS: u32 = 1000;

/// The place actions run: a workspace, the environment for commands, the warehouse.
#[derive(Debug, Clone)]
pub struct Actions {
    workspace: PathBuf,
    env: BTreeMap<String, String>,
    warehouse: Option<PathBuf>,
    shell: Arc<dyn Shell>,
}

/// Per-action budget: how long it may run and what stops it early.
#[derive(Debug, Clone)]
pub struct ActionBudget {
    pub timeout: Duration,
    pub cancel: CancellationToken,
    /// Output beyond this many characters is not kept (the observation will be
    /// truncated anyway).
    pub max_chars: usize,
}

impl Actions {
    /// `env` is the complete set of variables a Bash command sees (see
    /// [`command_env`]); `warehouse` is the DuckDB file for the SQL actions.
    /// Bash commands run through [`DirectShell`] unless [`Actions::with_shell`].
    pub fn new(
        workspace: impl Into<PathBuf>,
        env: BTreeMap<String, String>,
        warehouse: Option<PathBuf>,
    ) -> Self {
        Actions {
            workspace: workspace.into(),
            env,
            warehouse,
            shell: Arc::new(DirectShell),
        }
    }

    /// Bash commands run through `shell`.
    pub fn with_shell(mut self, shell: Arc<dyn Shell>) -> Self {
        self.shell = shell;
        self
    }

    pub fn has_warehouse(&self) -> bool {
        self.warehouse.is_some()
    }

    /// Carries out `action` and returns what the model should see.
    pub async fn execute(&self, action: &Action, budget: &ActionBudget) -> String {
        match action {
            Action::Bash { code } => {
                bash::run(&*self.shell, &self.workspace, &self.env, code, budget).await
            }
            Action::CreateFile { filepath, content } => {
                files::create(&self.workspace, filepath, content).await
            }
            Action::EditFile { filepath, content } => {
                files::edit(&self.workspace, filepath, content).await
            }
            Action::Terminate { answer } => format!("The run is finished. Answer: {answer}"),
            sql_action => self.execute_sql(sql_action, budget).await,
        }
    }

    async fn execute_sql(&self, action: &Action, budget: &ActionBudget) -> String {
        let Some(db) = &self.warehouse else {
            return "No warehouse is configured for this run, so SQL actions are unavailable."
                .to_owned();
        };
        let request = match action {
            Action::Sql { query } => sql::Request::Query(query.clone()),
            Action::ListTables => sql::Request::ListTables,
            Action::TableInfo { table } => sql::Request::TableInfo(table.clone()),
            Action::SampleRows { table, rows } => {
                sql::Request::SampleRows(table.clone(), (*rows).min(MAX_SAMPLE_ROWS))
            }
            other => return format!("internal error: {other:?} is not an SQL action"),
        };
        sql::run(db, request, budget).await
    }
}
