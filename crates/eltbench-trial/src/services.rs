//! The services of one trial: the task's sources ([`Environment`]) and an
//! Airbyte API server on the real sync engine, owned by one guard. Stopping
//! Airbyte first releases the warehouse for scoring; the sources stop last.
//!
//! Starting and stopping block (call them from `spawn_blocking`). Dropping
//! the guard anywhere, even on an async worker, stops everything: the guards
//! are moved to a plain thread to be dropped there. Never signals a process
//! it did not start.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use eltbench_airbyte::{AirbyteServer, State, SyncEngine, SyncEngineOptions};
use eltbench_sources::env::{CONFIG_YAML, EnvOptions, Environment};
use eltbench_task::Suite;

use crate::TrialError;

/// The running services of a trial.
pub struct Services {
    airbyte: Option<AirbyteServer>,
    env: Option<Environment>,
    env_dir: PathBuf,
}

impl Services {
    /// Brings task `db`'s sources up in `env_dir` (created 0755: PostgreSQL
    /// runs as `postgres` and must reach it) and starts Airbyte. Blocking.
    pub fn start(suite: &Suite, db: &str, env_dir: &Path) -> Result<Self, TrialError> {
        create_readable_dir(env_dir)?;
        let env = Environment::start(suite, db, EnvOptions::new(env_dir)).map_err(|e| {
            TrialError::Environment {
                db: db.to_owned(),
                message: e.to_string(),
            }
        })?;
        let mut services = Self {
            airbyte: None,
            env: Some(env),
            env_dir: env_dir.to_path_buf(),
        };
        services.airbyte = Some(start_airbyte()?);
        Ok(services)
    }

    /// The Airbyte API base URL (`http://127.0.0.1:<port>/api/public/v1`).
    pub fn airbyte_url(&self) -> String {
        self.airbyte
            .as_ref()
            .map(AirbyteServer::base_url)
            .unwrap_or_default()
    }

    /// Every TCP port of 127.0.0.1 this trial serves: the sources' and the
    /// Airbyte API's (what the agent's sandbox may reach), sorted.
    pub fn ports(&self) -> Vec<u16> {
        let sources = self
            .env
            .iter()
            .flat_map(|e| e.record().endpoints.ports().into_values());
        let airbyte = self.airbyte.iter().map(|a| a.addr().port());
        let mut ports: Vec<u16> = sources.chain(airbyte).collect();
        ports.sort_unstable();
        ports.dedup();
        ports
    }

    /// The environment's rewritten `config.yaml`.
    pub fn env_config(&self) -> PathBuf {
        self.env_dir.join(CONFIG_YAML)
    }

    /// Stops Airbyte (cancelling running jobs, releasing the warehouse) and
    /// writes its jobs and their logs to `sync_log`. Blocking.
    pub fn stop_airbyte(&mut self, sync_log: &Path) -> Result<(), TrialError> {
        let Some(server) = self.airbyte.take() else {
            return Ok(());
        };
        let state = server.state();
        drop(server);
        std::fs::write(sync_log, render_jobs(&state)).map_err(|e| TrialError::io(sync_log, e))
    }

    /// Stops everything. Blocking.
    pub fn stop(mut self, db: &str) -> Result<(), TrialError> {
        drop(self.airbyte.take());
        match self.env.take() {
            Some(env) => env.stop().map_err(|e| TrialError::Environment {
                db: db.to_owned(),
                message: format!("stopping: {e}"),
            }),
            None => Ok(()),
        }
    }
}

impl Drop for Services {
    fn drop(&mut self) {
        let airbyte = self.airbyte.take();
        let env = self.env.take();
        if airbyte.is_none() && env.is_none() {
            return;
        }
        // Their runtimes may not be dropped on an async worker thread.
        let stopper = std::thread::spawn(move || {
            drop(airbyte);
            if let Some(env) = env {
                let _ = env.stop();
            }
        });
        let _ = stopper.join();
    }
}

/// One block per sync job: a header line, then its log.
fn render_jobs(state: &State) -> String {
    let mut out = String::new();
    for job in state.jobs.values() {
        let status = serde_json::to_value(job.status).unwrap_or_default();
        let _ = writeln!(
            out,
            "== job {} {:?} connection {} status {} rows {}",
            job.id,
            job.job_type,
            job.connection_id,
            status.as_str().unwrap_or("?"),
            job.rows_synced.map_or("-".to_owned(), |r| r.to_string()),
        );
        for line in &job.log {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

fn start_airbyte() -> Result<AirbyteServer, TrialError> {
    let engine = SyncEngine::new(SyncEngineOptions::default()).map_err(TrialError::Airbyte)?;
    let bind = SocketAddr::from(([127, 0, 0, 1], 0));
    AirbyteServer::start(bind, Arc::new(engine).airbyte_config())
        .map_err(|e| TrialError::Airbyte(e.to_string()))
}

/// Creates `dir` and its missing parents, readable by other users.
pub fn create_readable_dir(dir: &Path) -> Result<(), TrialError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).map_err(|e| TrialError::io(dir, e))?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| TrialError::io(dir, e))
}
