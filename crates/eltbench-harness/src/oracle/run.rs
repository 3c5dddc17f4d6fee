//! One stage-1 oracle run of a task: the task's sources up, the Airbyte API on
//! the real sync engine, the gold `elt/main.tf` applied with eltbench's
//! Terraform, one sync per connection, then the warehouse scored. Every
//! service it starts is stopped when the run is scored or dropped; it writes
//! only inside its run directory.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use eltbench_airbyte::{AirbyteServer, SyncEngine, SyncEngineOptions};
use eltbench_score::{Compat, TaskScore, score_task_file};
use eltbench_sources::env::{CONFIG_YAML, EnvOptions, Environment};
use eltbench_task::Suite;

use super::error::OracleError;
use super::jobs::ApiClient;
use super::main_tf::gold_main_tf;
use super::terraform::terraform;
use super::tfstate::connection_ids;

/// The pipeline's directory under the run directory.
pub const ELT_DIR: &str = "elt";

/// A task with its sources, Airbyte and applied gold pipeline up.
pub struct OracleRun {
    db: String,
    warehouse: PathBuf,
    elt_dir: PathBuf,
    api: ApiClient,
    connections: BTreeMap<String, String>,
    // Dropped in this order: Airbyte first (it releases the warehouse), then
    // the sources.
    server: Option<AirbyteServer>,
    env: Option<Environment>,
}

impl OracleRun {
    /// Brings task `db` up in `run_dir` and applies its gold `main.tf` (no sync yet).
    pub fn start(suite: &Suite, db: &str, run_dir: &Path) -> Result<Self, OracleError> {
        create_readable_dir(run_dir)?;
        let env = Environment::start(suite, db, EnvOptions::new(run_dir)).map_err(|e| {
            OracleError::Environment {
                db: db.to_owned(),
                message: e.to_string(),
            }
        })?;
        let server = start_airbyte()?;
        let warehouse = run_dir.join(format!("{db}.duckdb"));
        let elt_dir = run_dir.join(ELT_DIR);
        let mut run = Self {
            db: db.to_owned(),
            warehouse,
            elt_dir,
            api: ApiClient::new(&server.base_url()),
            connections: BTreeMap::new(),
            server: Some(server),
            env: Some(env),
        };
        run.apply(&run_dir.join(CONFIG_YAML))?;
        Ok(run)
    }

    /// Writes `elt/main.tf`, runs `terraform init` and `apply -auto-approve`,
    /// and reads the connection ids from the state.
    fn apply(&mut self, config_path: &Path) -> Result<(), OracleError> {
        let yaml =
            std::fs::read_to_string(config_path).map_err(|e| OracleError::io(config_path, e))?;
        let url = self.api_url();
        let text = gold_main_tf(&yaml, config_path, &self.warehouse, &url)?;
        std::fs::create_dir_all(&self.elt_dir).map_err(|e| OracleError::io(&self.elt_dir, e))?;
        let main_tf = self.elt_dir.join("main.tf");
        std::fs::write(&main_tf, text).map_err(|e| OracleError::io(&main_tf, e))?;
        terraform(&self.elt_dir, &["init"])?;
        terraform(&self.elt_dir, &["apply", "-auto-approve"])?;
        self.connections = connection_ids(&self.elt_dir.join("terraform.tfstate"))?;
        Ok(())
    }

    fn api_url(&self) -> String {
        self.server
            .as_ref()
            .map(AirbyteServer::base_url)
            .unwrap_or_default()
    }

    /// The task database.
    pub fn db(&self) -> &str {
        &self.db
    }

    /// The warehouse file.
    pub fn warehouse(&self) -> &Path {
        &self.warehouse
    }

    /// `elt/` (holding `main.tf` and `terraform.tfstate`).
    pub fn elt_dir(&self) -> &Path {
        &self.elt_dir
    }

    /// `connection resource name → connection id`, from the state.
    pub fn connections(&self) -> &BTreeMap<String, String> {
        &self.connections
    }

    /// One sync of one connection, waited for; its job id.
    pub fn sync(&self, connection_id: &str) -> Result<i64, OracleError> {
        self.api.sync(connection_id)
    }

    /// One sync of every connection, one after the other.
    pub fn sync_all(&self) -> Result<(), OracleError> {
        for id in self.connections.values() {
            self.sync(id)?;
        }
        Ok(())
    }

    /// Stops Airbyte (releasing the warehouse), scores the warehouse, then
    /// stops the sources.
    pub fn score(mut self, suite: &Suite) -> Result<TaskScore, OracleError> {
        drop(self.server.take());
        let scored = score_task_file(suite, &self.db, &self.warehouse, Compat::Fixed);
        let stopped = self.env.take().map(Environment::stop).transpose();
        let score = scored.map_err(|e| OracleError::Score {
            db: self.db.clone(),
            path: self.warehouse.clone(),
            message: e.to_string(),
        })?;
        stopped.map_err(|e| OracleError::Environment {
            db: self.db.clone(),
            message: format!("stopping: {e}"),
        })?;
        Ok(score)
    }
}

impl Drop for OracleRun {
    fn drop(&mut self) {
        drop(self.server.take());
        if let Some(env) = self.env.take() {
            let _ = env.stop();
        }
    }
}

/// The whole stage-1 oracle for task `db` in `run_dir`: up, apply, sync every
/// connection once, score, tear down.
pub fn run_stage1_oracle(
    suite: &Suite,
    db: &str,
    run_dir: &Path,
) -> Result<TaskScore, OracleError> {
    let run = OracleRun::start(suite, db, run_dir)?;
    run.sync_all()?;
    run.score(suite)
}

fn start_airbyte() -> Result<AirbyteServer, OracleError> {
    let engine = SyncEngine::new(SyncEngineOptions::default()).map_err(OracleError::Airbyte)?;
    let engine = Arc::new(engine);
    let bind = SocketAddr::from(([127, 0, 0, 1], 0));
    AirbyteServer::start(bind, engine.airbyte_config())
        .map_err(|e| OracleError::Airbyte(e.to_string()))
}

/// Creates `dir` readable by other users (the PostgreSQL server runs as
/// `postgres` and must reach its files under it).
fn create_readable_dir(dir: &Path) -> Result<(), OracleError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).map_err(|e| OracleError::io(dir, e))?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| OracleError::io(dir, e))
}
