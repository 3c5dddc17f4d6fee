//! A faithful subset of Airbyte's public API v1, served in-process.
//!
//! ELT-Bench agents create sources, destinations and connections through the
//! Terraform provider `airbytehq/airbyte` 0.6.5 (which calls this API), trigger sync
//! jobs with `POST /jobs`, and poll them with `GET /jobs`. [`AirbyteServer`] serves
//! the same paths, JSON shapes, status codes and error documents under both
//! `/api/public/v1` and `/v1`, with Basic or Bearer authentication.
//!
//! The API side does no data work: a [`SyncExecutor`] runs each job and a
//! [`SourceCatalog`] lists each source's streams. The API keeps its state (optionally
//! mirrored to `state.json`) and the job lifecycle, and must never read a source or
//! write a warehouse itself. The real executor and catalog are [`SyncEngine`] in
//! [`sync`] (`AirbyteServer::start(addr, engine.airbyte_config())`), which reads
//! sources through one connector per source type and loads DuckDB.

mod auth;
mod catalog;
mod config;
mod definitions;
mod enums;
mod errors;
mod executor;
mod jobs;
mod model;
mod requests;
mod routes;
mod server;
mod store;
pub mod sync;
mod timefmt;
pub mod wait;

pub use auth::Credentials;
pub use config::{AirbyteConfig, DEFAULT_PASSWORD, DEFAULT_USERNAME, DEFAULT_WORKSPACE_ID};
pub use definitions::{ActorKind, CUSTOM_API_DEFINITION_ID, Definition, Definitions};
pub use enums::{
    ConnectionStatus, DataResidency, JobStatus, JobType, NamespaceDefinition, NonBreakingBehavior,
    ScheduleType, SyncMode,
};
pub use errors::{ApiProblem, Error};
pub use executor::{
    CatalogError, FailureOrigin, JobContext, LogSink, SourceCatalog, StreamInfo, StreamStats,
    SyncExecutor, SyncFailure, SyncStats,
};
pub use model::{
    Actor, Attempt, ConfiguredStream, Connection, Job, Schedule, StreamConfig, Workspace,
};
pub use server::AirbyteServer;
pub use store::State;
pub use sync::{SyncEngine, SyncEngineOptions};

/// Re-exported so implementors of the traits use the same macro version.
pub use async_trait::async_trait;
/// Re-exported so executors can name the token type without another dependency.
pub use tokio_util::sync::CancellationToken;
