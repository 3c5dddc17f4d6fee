//! The one table of source connectors, keyed by source type and definition id.
//!
//! The engine resolves a source actor to its connector here and nowhere else; a new
//! source kind is one [`Registry::register`] call. This module must never read data.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::connector::SourceConnector;
use super::error::ConnectorError;
use super::sources;
use crate::model::Actor;

/// Source connectors by `sourceType`, with their definition ids.
#[derive(Clone, Default)]
pub struct Registry {
    by_type: BTreeMap<String, Arc<dyn SourceConnector>>,
    type_by_definition: BTreeMap<String, String>,
}

impl Registry {
    /// The built-in connectors: postgres, mongodb-v2, s3, file and the custom REST API.
    pub fn builtin() -> Self {
        let mut registry = Self::default();
        for connector in sources::builtin() {
            registry.register(connector);
        }
        registry
    }

    /// Adds or replaces the connector of its source type.
    pub fn register(&mut self, connector: Arc<dyn SourceConnector>) {
        let source_type = connector.source_type().to_owned();
        self.type_by_definition.insert(
            connector.definition_id().to_ascii_lowercase(),
            source_type.clone(),
        );
        self.by_type.insert(source_type, connector);
    }

    /// The connector for a source: by its `sourceType`, else by its definition id.
    pub fn resolve(&self, source: &Actor) -> Result<Arc<dyn SourceConnector>, ConnectorError> {
        let by_definition = || {
            let id = source.definition_id.as_deref()?.to_ascii_lowercase();
            self.type_by_definition
                .get(&id)
                .and_then(|t| self.by_type.get(t))
        };
        self.by_type
            .get(&source.type_name)
            .or_else(by_definition)
            .cloned()
            .ok_or_else(|| {
                ConnectorError::Config(format!(
                    "No connector is available for source type `{}` (available: {})",
                    source.type_name,
                    self.source_types().join(", ")
                ))
            })
    }

    /// Registered source types, sorted.
    pub fn source_types(&self) -> Vec<&str> {
        self.by_type.keys().map(String::as_str).collect()
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("source_types", &self.source_types())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definitions::{ActorKind, Definitions};

    fn actor(type_name: &str, definition: Option<&str>) -> Actor {
        Actor {
            id: "s".into(),
            kind: ActorKind::Source,
            name: "s".into(),
            workspace_id: "w".into(),
            type_name: type_name.into(),
            definition_id: definition.map(str::to_owned),
            configuration: serde_json::json!({}),
            secret_id: None,
            created_at: 0,
            seq: 0,
            deleted: false,
        }
    }

    #[test]
    fn every_builtin_source_definition_has_a_connector() {
        let registry = Registry::builtin();
        let defs = Definitions::default();
        for ty in defs.type_names(ActorKind::Source) {
            let definition = defs.by_type(ActorKind::Source, ty).map(|d| d.id.clone());
            let connector = registry.resolve(&actor("unknown", definition.as_deref()));
            assert_eq!(connector.map(|c| c.source_type()).ok(), Some(ty), "{ty}");
        }
    }

    #[test]
    fn unknown_types_name_the_available_ones() {
        let err = Registry::builtin().resolve(&actor("oracle", None)).err();
        let message = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.contains("`oracle`") && message.contains("postgres"),
            "{message}"
        );
    }
}
