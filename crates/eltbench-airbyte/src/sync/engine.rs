//! [`SyncEngine`]: the real [`SyncExecutor`] and [`SourceCatalog`] behind the API
//! server. It resolves connectors through the [`Registry`], keeps sync state, and
//! serialises writes to each destination file within this process.
//!
//! The steps of one job live in `job`; this module wires and must never parse data.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;

use super::destination::{DuckDbDestination, WriteLocks};
use super::error::ConnectorError;
use super::job;
use super::registry::Registry;
use super::state::StateStore;
use crate::config::AirbyteConfig;
use crate::enums::JobType;
use crate::executor::{
    CatalogError, JobContext, LogSink, SourceCatalog, StreamInfo, SyncExecutor, SyncFailure,
    SyncStats,
};
use crate::model::Actor;

/// The destination type this engine writes.
pub const DUCKDB_TYPE: &str = "duckdb";

/// Settings of a [`SyncEngine`].
#[derive(Debug, Clone)]
pub struct SyncEngineOptions {
    /// Where `destination_path` values under `/local/` point (Airbyte's `LOCAL_ROOT`).
    pub local_root: Option<PathBuf>,
    /// How long a commit waits for another process to release the destination file.
    pub lock_wait: Duration,
    /// Where incremental cursors are mirrored (none: memory only).
    pub state_file: Option<PathBuf>,
}

impl Default for SyncEngineOptions {
    fn default() -> Self {
        Self {
            local_root: None,
            lock_wait: Duration::from_secs(5),
            state_file: None,
        }
    }
}

/// Runs sync and reset jobs and discovers streams with real connectors.
pub struct SyncEngine {
    pub(super) registry: Registry,
    pub(super) options: SyncEngineOptions,
    pub(super) state: StateStore,
    pub(super) locks: WriteLocks,
}

impl SyncEngine {
    /// An engine with the built-in connectors; fails if the state file is unreadable.
    pub fn new(options: SyncEngineOptions) -> Result<Self, String> {
        let state = match &options.state_file {
            Some(file) => StateStore::with_file(file)?,
            None => StateStore::in_memory(),
        };
        Ok(Self {
            registry: Registry::builtin(),
            options,
            state,
            locks: WriteLocks::default(),
        })
    }

    /// Replaces the connector table (to add or swap a source kind).
    pub fn with_registry(mut self, registry: Registry) -> Self {
        self.registry = registry;
        self
    }

    /// The connector table.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// A server configuration that runs jobs and discovery on this engine.
    pub fn airbyte_config(self: &Arc<Self>) -> AirbyteConfig {
        AirbyteConfig::new(self.clone(), self.clone())
    }

    pub(super) fn destination(&self, actor: &Actor) -> Result<DuckDbDestination, ConnectorError> {
        if actor.type_name != DUCKDB_TYPE {
            return Err(ConnectorError::Destination(format!(
                "Destination type `{}` is not supported by this engine: only `{DUCKDB_TYPE}` destinations are written",
                actor.type_name
            )));
        }
        DuckDbDestination::from_config(&actor.configuration, self.options.local_root.as_deref())
    }
}

#[async_trait]
impl SyncExecutor for SyncEngine {
    async fn run(&self, job: JobContext, log: LogSink) -> Result<SyncStats, SyncFailure> {
        let outcome = match job.job_type {
            JobType::Reset | JobType::Clear => job::clear(self, &job, &log).await,
            JobType::Sync | JobType::Refresh => job::sync(self, &job, &log).await,
        };
        outcome.map_err(|error| {
            let failure = error.into_failure();
            match failure.origin {
                crate::executor::FailureOrigin::Destination => log.destination(&failure.message),
                _ => log.source(&failure.message),
            }
            failure
        })
    }
}

#[async_trait]
impl SourceCatalog for SyncEngine {
    async fn streams(&self, source: &Actor) -> Result<Vec<StreamInfo>, CatalogError> {
        let connector = self.registry.resolve(source)?;
        let streams = connector.discover(&source.configuration).await?;
        Ok(streams.iter().map(|s| s.info()).collect())
    }
}

impl std::fmt::Debug for SyncEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SyncEngine")
            .field("registry", &self.registry)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}
