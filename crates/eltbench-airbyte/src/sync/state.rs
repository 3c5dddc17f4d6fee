//! Per-connection sync state: each stream's incremental cursor and its data
//! generation, kept in memory and optionally mirrored to a JSON file so that
//! incremental syncs resume after a restart (Airbyte keeps this in its platform).
//!
//! Only the engine writes here, after a successful commit; this module must never
//! decide what a cursor means.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

/// One stream's state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamState {
    /// The largest cursor value committed, as text.
    #[serde(default)]
    pub cursor: Option<String>,
    /// Airbyte's `_airbyte_generation_id`: bumped by every overwrite and clear.
    #[serde(default)]
    pub generation: i64,
}

/// The streams of one connection, keyed by `namespace.name` (or `name`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectionState {
    pub streams: BTreeMap<String, StreamState>,
}

/// The state of every connection.
#[derive(Debug, Clone, Default)]
pub struct StateStore {
    inner: Arc<Mutex<BTreeMap<String, ConnectionState>>>,
    file: Option<PathBuf>,
}

/// The key of a stream within its connection.
pub fn stream_key(namespace: Option<&str>, name: &str) -> String {
    match namespace {
        Some(ns) if !ns.is_empty() => format!("{ns}.{name}"),
        _ => name.to_owned(),
    }
}

impl StateStore {
    /// State kept in memory only.
    pub fn in_memory() -> Self {
        Self::default()
    }

    /// State mirrored to `file`, loaded from it when it exists (a corrupt file is
    /// reported, not ignored).
    pub fn with_file(file: &Path) -> Result<Self, String> {
        let state = match std::fs::read_to_string(file) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| format!("Could not read sync state {}: {e}", file.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(e) => return Err(format!("Could not read sync state {}: {e}", file.display())),
        };
        Ok(Self {
            inner: Arc::new(Mutex::new(state)),
            file: Some(file.to_path_buf()),
        })
    }

    /// A copy of one connection's state.
    pub fn connection(&self, connection_id: &str) -> ConnectionState {
        self.inner
            .lock()
            .map(|s| s.get(connection_id).cloned().unwrap_or_default())
            .unwrap_or_default()
    }

    /// Replaces one connection's state; returns a message if the file write failed.
    pub fn save(&self, connection_id: &str, state: ConnectionState) -> Option<String> {
        let snapshot = {
            let Ok(mut all) = self.inner.lock() else {
                return Some("sync state lock poisoned".to_owned());
            };
            all.insert(connection_id.to_owned(), state);
            serde_json::to_string_pretty(&*all).ok()
        };
        let (Some(file), Some(text)) = (&self.file, snapshot) else {
            return None;
        };
        std::fs::write(file, text)
            .err()
            .map(|e| format!("Could not write sync state {}: {e}", file.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_survives_a_reload_from_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("sync-state.json");
        let store = StateStore::with_file(&file).unwrap();
        let mut state = ConnectionState::default();
        state.streams.insert(
            stream_key(Some("public"), "users"),
            StreamState {
                cursor: Some("5".into()),
                generation: 2,
            },
        );
        assert_eq!(store.save("c1", state.clone()), None);
        let reloaded = StateStore::with_file(&file).unwrap();
        assert_eq!(reloaded.connection("c1"), state);
        assert_eq!(reloaded.connection("c2"), ConnectionState::default());
        std::fs::write(&file, "{oops").unwrap();
        assert!(StateStore::with_file(&file).is_err());
    }
}
