//! Settings of one API server: credentials, workspace, definitions, snapshot file,
//! and the executor and catalog that do the real work.
//!
//! Resolved once before the server starts; nothing here performs I/O.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::definitions::{Definition, Definitions};
use crate::executor::{SharedCatalog, SharedExecutor};

/// Airbyte OSS's default basic-auth user.
pub const DEFAULT_USERNAME: &str = "airbyte";
/// Airbyte OSS's default basic-auth password.
pub const DEFAULT_PASSWORD: &str = "password";
/// The id of the default workspace (stable across runs, so configs can name it).
pub const DEFAULT_WORKSPACE_ID: &str = "5ae6b09b-fdec-41af-aaf7-7d94cfc33ef6";

/// Everything [`crate::AirbyteServer::start`] needs.
#[derive(Clone)]
pub struct AirbyteConfig {
    pub username: String,
    pub password: String,
    /// Accepted `Authorization: Bearer <token>` values (none: bearer auth refused).
    pub bearer_tokens: Vec<String>,
    pub workspace_id: String,
    pub workspace_name: String,
    pub definitions: Definitions,
    /// Where to mirror the state as JSON after every change (`state.json`).
    pub state_file: Option<PathBuf>,
    /// How long a job stays `pending` before it starts running.
    pub job_start_delay: Duration,
    pub executor: SharedExecutor,
    pub catalog: SharedCatalog,
}

impl AirbyteConfig {
    /// Defaults: user `airbyte`, password `password`, the default workspace, the
    /// built-in definitions, no snapshot, jobs start at once.
    pub fn new(executor: SharedExecutor, catalog: SharedCatalog) -> Self {
        Self {
            username: DEFAULT_USERNAME.to_owned(),
            password: DEFAULT_PASSWORD.to_owned(),
            bearer_tokens: Vec::new(),
            workspace_id: DEFAULT_WORKSPACE_ID.to_owned(),
            workspace_name: "Default Workspace".to_owned(),
            definitions: Definitions::default(),
            state_file: None,
            job_start_delay: Duration::ZERO,
            executor,
            catalog,
        }
    }

    pub fn with_credentials(mut self, username: &str, password: &str) -> Self {
        self.username = username.to_owned();
        self.password = password.to_owned();
        self
    }

    pub fn with_bearer_token(mut self, token: &str) -> Self {
        self.bearer_tokens.push(token.to_owned());
        self
    }

    pub fn with_state_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.state_file = Some(path.into());
        self
    }

    pub fn with_job_start_delay(mut self, delay: Duration) -> Self {
        self.job_start_delay = delay;
        self
    }

    pub fn with_definition(mut self, definition: Definition) -> Self {
        self.definitions.insert(definition);
        self
    }
}

impl fmt::Debug for AirbyteConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AirbyteConfig")
            .field("username", &self.username)
            .field("workspace_id", &self.workspace_id)
            .field("state_file", &self.state_file)
            .field("job_start_delay", &self.job_start_delay)
            .finish_non_exhaustive()
    }
}
