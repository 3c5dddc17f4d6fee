//! Connector definitions: which definition id means which source or destination type.
//!
//! A source's `sourceType` (and a destination's `destinationType`) comes from the
//! `sourceType` field of its configuration or, failing that, from its `definitionId`.
//! The built-in ids are Airbyte's real ones (from each connector's `metadata.yaml`), so
//! configurations written for real Airbyte resolve the same way. This module is a
//! table; it must never know how a connector reads or writes data.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Whether a definition or resource is a source or a destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActorKind {
    Source,
    Destination,
}

impl ActorKind {
    /// The configuration field that names the type (`sourceType`, `destinationType`).
    pub fn type_field(self) -> &'static str {
        match self {
            Self::Source => "sourceType",
            Self::Destination => "destinationType",
        }
    }

    /// The response field that carries the id (`sourceId`, `destinationId`).
    pub fn id_field(self) -> &'static str {
        match self {
            Self::Source => "sourceId",
            Self::Destination => "destinationId",
        }
    }

    /// Lower-case noun for messages.
    pub fn noun(self) -> &'static str {
        match self {
            Self::Source => "source",
            Self::Destination => "destination",
        }
    }
}

/// One connector definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Definition {
    pub id: String,
    pub kind: ActorKind,
    /// The type name as the API reports it (`postgres`, `mongodb-v2`, `duckdb`...).
    pub type_name: String,
    /// Human name, as Airbyte's connector registry shows it.
    pub name: String,
}

/// The definition id eltbench gives its custom REST API connector (the original
/// benchmark registered a custom Airbyte connector for its REST API source).
pub const CUSTOM_API_DEFINITION_ID: &str = "8d5f1c3e-2b7a-4e6f-9c1d-5a4b3e2f1d0c";

/// `(id, kind, type, name)` for the connectors ELT-Bench tasks use.
const BUILTIN: &[(&str, ActorKind, &str, &str)] = &[
    (
        "decd338e-5647-4c0b-adf4-da0e75f5a750",
        ActorKind::Source,
        "postgres",
        "Postgres",
    ),
    (
        "b2e713cd-cc36-4c0a-b5bd-b47cb8a0561e",
        ActorKind::Source,
        "mongodb-v2",
        "MongoDb",
    ),
    (
        "69589781-7828-43c5-9f63-8925b1c1ccc2",
        ActorKind::Source,
        "s3",
        "S3",
    ),
    (
        "778daa7c-feaf-4db6-96f3-70fd645acc77",
        ActorKind::Source,
        "file",
        "File (CSV, JSON, Excel, Feather, Parquet)",
    ),
    (
        CUSTOM_API_DEFINITION_ID,
        ActorKind::Source,
        "custom-api",
        "ELT-Bench REST API",
    ),
    (
        "94bd199c-2ff0-4aa2-b98e-17f0acb72610",
        ActorKind::Destination,
        "duckdb",
        "DuckDB",
    ),
    (
        "424892c4-daac-4491-b35d-c6688ba547ba",
        ActorKind::Destination,
        "snowflake",
        "Snowflake",
    ),
];

/// All definitions the server knows, keyed by id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definitions {
    by_id: BTreeMap<String, Definition>,
}

impl Default for Definitions {
    fn default() -> Self {
        let mut definitions = Self {
            by_id: BTreeMap::new(),
        };
        for (id, kind, type_name, name) in BUILTIN {
            definitions.insert(Definition {
                id: (*id).to_owned(),
                kind: *kind,
                type_name: (*type_name).to_owned(),
                name: (*name).to_owned(),
            });
        }
        definitions
    }
}

impl Definitions {
    /// Adds or replaces a definition (for custom connectors).
    pub fn insert(&mut self, definition: Definition) {
        self.by_id.insert(definition.id.to_lowercase(), definition);
    }

    /// The definition with this id, if it is of the wanted kind.
    pub fn by_id(&self, kind: ActorKind, id: &str) -> Option<&Definition> {
        self.by_id
            .get(&id.to_lowercase())
            .filter(|d| d.kind == kind)
    }

    /// The first definition of this kind whose type name matches.
    pub fn by_type(&self, kind: ActorKind, type_name: &str) -> Option<&Definition> {
        self.by_id
            .values()
            .find(|d| d.kind == kind && d.type_name == type_name)
    }

    /// Type names of one kind, sorted, for error messages.
    pub fn type_names(&self, kind: ActorKind) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .by_id
            .values()
            .filter(|d| d.kind == kind)
            .map(|d| d.type_name.as_str())
            .collect();
        names.sort_unstable();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_definition_ids_resolve_to_their_types() {
        let defs = Definitions::default();
        let pg = defs.by_id(ActorKind::Source, "decd338e-5647-4c0b-adf4-da0e75f5a750");
        assert_eq!(pg.map(|d| d.type_name.as_str()), Some("postgres"));
        let duck = defs.by_id(
            ActorKind::Destination,
            "94BD199C-2FF0-4AA2-B98E-17F0ACB72610",
        );
        assert_eq!(duck.map(|d| d.type_name.as_str()), Some("duckdb"));
    }

    #[test]
    fn a_source_id_is_not_a_destination() {
        let defs = Definitions::default();
        assert!(
            defs.by_id(
                ActorKind::Destination,
                "decd338e-5647-4c0b-adf4-da0e75f5a750"
            )
            .is_none()
        );
        assert!(defs.by_type(ActorKind::Destination, "postgres").is_none());
        assert_eq!(
            defs.type_names(ActorKind::Destination),
            vec!["duckdb", "snowflake"]
        );
    }
}
