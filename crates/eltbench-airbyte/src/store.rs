//! The server's state: resources and jobs in memory, mirrored to `state.json`.
//!
//! Every change goes through [`Store::write`], which rewrites the snapshot file (when
//! one is configured) while still holding the lock, so the file always reflects a
//! consistent state and writes never interleave. Job log lines are appended without
//! a snapshot write; the next status change flushes them. This module must never
//! validate requests or decide job transitions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::definitions::ActorKind;
use crate::errors::Error;
use crate::model::{Actor, Connection, Job, Workspace};

/// Everything the API has been told, as written to `state.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct State {
    pub workspace: Workspace,
    pub sources: BTreeMap<String, Actor>,
    pub destinations: BTreeMap<String, Actor>,
    pub connections: BTreeMap<String, Connection>,
    pub jobs: BTreeMap<i64, Job>,
    pub next_seq: u64,
    pub next_job_id: i64,
}

impl State {
    pub fn new(workspace: Workspace) -> Self {
        Self {
            workspace,
            sources: BTreeMap::new(),
            destinations: BTreeMap::new(),
            connections: BTreeMap::new(),
            jobs: BTreeMap::new(),
            next_seq: 1,
            next_job_id: 1,
        }
    }

    pub fn actors(&self, kind: ActorKind) -> &BTreeMap<String, Actor> {
        match kind {
            ActorKind::Source => &self.sources,
            ActorKind::Destination => &self.destinations,
        }
    }

    pub fn actors_mut(&mut self, kind: ActorKind) -> &mut BTreeMap<String, Actor> {
        match kind {
            ActorKind::Source => &mut self.sources,
            ActorKind::Destination => &mut self.destinations,
        }
    }

    /// A live (not deleted) source or destination.
    pub fn live_actor(&self, kind: ActorKind, id: &str) -> Option<&Actor> {
        self.actors(kind).get(id).filter(|a| !a.deleted)
    }

    /// A live (not deleted) connection.
    pub fn live_connection(&self, id: &str) -> Option<&Connection> {
        self.connections.get(id).filter(|c| !c.deleted)
    }

    /// Takes the next creation sequence number.
    pub fn take_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// The pending or running job of a connection, if any.
    pub fn active_job(&self, connection_id: &str) -> Option<&Job> {
        self.jobs
            .values()
            .find(|j| j.connection_id == connection_id && !j.status.is_terminal())
    }
}

struct Inner {
    state: State,
    tokens: BTreeMap<i64, CancellationToken>,
    snapshot: Option<PathBuf>,
    snapshot_error: Option<String>,
}

/// Shared handle to the state.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Mutex<Inner>>,
}

impl Store {
    pub fn new(state: State, snapshot: Option<PathBuf>) -> Self {
        let inner = Inner {
            state,
            tokens: BTreeMap::new(),
            snapshot,
            snapshot_error: None,
        };
        let store = Self {
            inner: Arc::new(Mutex::new(inner)),
        };
        store.write(|_| ());
        store
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Reads the state.
    pub fn read<R>(&self, f: impl FnOnce(&State) -> R) -> R {
        f(&self.lock().state)
    }

    /// Changes the state and rewrites the snapshot.
    pub fn write<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        let mut inner = self.lock();
        let result = f(&mut inner.state);
        if let Some(path) = inner.snapshot.clone() {
            inner.snapshot_error = write_snapshot(&path, &inner.state)
                .err()
                .map(|e| e.to_string());
        }
        result
    }

    /// Appends one line to a job's log (no snapshot write).
    pub fn append_log(&self, job_id: i64, line: String) {
        if let Some(job) = self.lock().state.jobs.get_mut(&job_id) {
            job.log.push(line);
        }
    }

    /// Remembers the cancellation token of a running job.
    pub fn register_token(&self, job_id: i64, token: CancellationToken) {
        self.lock().tokens.insert(job_id, token);
    }

    /// Forgets the token of a finished job.
    pub fn forget_token(&self, job_id: i64) {
        self.lock().tokens.remove(&job_id);
    }

    /// Fires the cancellation token of a job, if it has one.
    pub fn cancel_token(&self, job_id: i64) {
        if let Some(token) = self.lock().tokens.get(&job_id) {
            token.cancel();
        }
    }

    /// Fires every token (server shutdown).
    pub fn cancel_all(&self) {
        for token in self.lock().tokens.values() {
            token.cancel();
        }
    }

    /// The last snapshot write failure, if the last write failed.
    pub fn snapshot_error(&self) -> Option<String> {
        self.lock().snapshot_error.clone()
    }
}

/// Writes `state` as pretty JSON to `path` atomically (temp file + rename).
pub fn write_snapshot(path: &Path, state: &State) -> Result<(), Error> {
    let encode = |source| Error::SnapshotEncode {
        path: path.to_owned(),
        source,
    };
    let io = |source| Error::Snapshot {
        path: path.to_owned(),
        source,
    };
    let mut text = serde_json::to_string_pretty(state).map_err(encode)?;
    text.push('\n');
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::DataResidency;

    fn workspace() -> Workspace {
        Workspace {
            workspace_id: "w".to_owned(),
            name: "Default Workspace".to_owned(),
            data_residency: DataResidency::Auto,
        }
    }

    #[test]
    fn every_write_refreshes_the_snapshot() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        let store = Store::new(State::new(workspace()), Some(path.clone()));
        let first: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(first["nextSeq"], 1);
        store.write(|s| s.take_seq());
        let second: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(second["nextSeq"], 2);
        assert_eq!(store.snapshot_error(), None);
    }

    #[test]
    fn unwritable_snapshot_is_reported_not_fatal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-dir").join("state.json");
        let store = Store::new(State::new(workspace()), Some(path));
        let error = store.snapshot_error().unwrap_or_default();
        assert!(error.contains("missing-dir"), "{error}");
        assert_eq!(store.write(|s| s.take_seq()), 1);
    }
}
