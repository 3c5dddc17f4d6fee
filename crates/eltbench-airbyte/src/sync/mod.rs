//! The sync engine: reads sources through one [`SourceConnector`] per source type and
//! loads the records into DuckDB as Airbyte Destinations V2 final tables.
//!
//! [`SyncEngine`] implements both seams of the API server ([`crate::SyncExecutor`] and
//! [`crate::SourceCatalog`]). Source types are looked up in one [`Registry`]; adding a
//! source kind means implementing [`SourceConnector`] and registering it, never adding a
//! `match` on the kind anywhere else. Readers are clients of real protocols (PostgreSQL,
//! MongoDB, S3, HTTP) and must never reach into the servers' own crates.

mod cast;
mod connector;
mod destination;
mod engine;
mod error;
mod formats;
mod job;
mod modes;
mod naming;
mod records;
mod registry;
pub mod sources;
mod state;
mod type_tables;
mod typing;

pub use connector::{BatchSink, DiscoveredStream, ReadRequest, SourceConnector};
pub use destination::{DuckDbDestination, LOCK_MESSAGE};
pub use engine::{SyncEngine, SyncEngineOptions};
pub use error::ConnectorError;
pub use naming::normalize_name;
pub use records::{CHANGES_COLUMN, RowBatchBuilder};
pub use registry::Registry;
pub use state::{ConnectionState, StateStore, StreamState};
pub use typing::{AirbyteType, ColumnSpec, StreamSchema};
