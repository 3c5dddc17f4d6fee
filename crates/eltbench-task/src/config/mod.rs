//! `config.yaml`: the task's sources, Airbyte settings and destination.
//!
//! Parsing keeps unknown top-level keys (reported by validation as unknown
//! source kinds) instead of failing on them. This module never rewrites
//! connection details and never touches the network.

mod sources;

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use sources::{
    AwsS3Source, CustomApiSource, FlatFile, FlatFiles, MongodbSource, PostgresSource, S3Object,
};

use crate::SuiteError;
use crate::error::yaml_error;
use crate::source::{SourceBlock, SourceKind};

/// Every top-level key `config.yaml` may have that is not a source kind.
const NON_SOURCE_KEYS: [&str; 2] = ["Airbyte", "snowflake"];

/// A parsed `config.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TaskConfig {
    /// `Airbyte.config`: where the original's Airbyte ran and its connector ids.
    pub airbyte: Option<AirbyteConfig>,
    /// `postgres.config`.
    pub postgres: Option<PostgresSource>,
    /// `mongodb.config`.
    pub mongodb: Option<MongodbSource>,
    /// `custom_api.config`.
    pub custom_api: Option<CustomApiSource>,
    /// `aws_s3`.
    pub aws_s3: Option<AwsS3Source>,
    /// `flat_files`.
    pub flat_files: Option<FlatFiles>,
    /// `snowflake.config`: the original destination.
    pub snowflake: Option<SnowflakeDestination>,
    /// Top-level keys that are neither a source kind nor a known block.
    pub unknown_keys: Vec<String>,
}

/// `Airbyte.config`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AirbyteConfig {
    /// Airbyte API base URL of the original (a Docker host name).
    pub server_url: Option<String>,
    /// Connection namespace definition (`destination`).
    pub namespace_definition: Option<String>,
    /// PostgreSQL source definition id.
    pub postgres_definition_id: Option<String>,
    /// MongoDB source definition id.
    pub mongodb_definition_id: Option<String>,
    /// S3 source definition id.
    pub s3_definition_id: Option<String>,
    /// File source definition id (flat files).
    pub files_definition_id: Option<String>,
    /// Snowflake destination definition id.
    pub snowflake_definition_id: Option<String>,
}

impl AirbyteConfig {
    /// The value of a `*_definition_id` key by name.
    pub fn definition_id(&self, key: &str) -> Option<&str> {
        let value = match key {
            "postgres_definition_id" => &self.postgres_definition_id,
            "mongodb_definition_id" => &self.mongodb_definition_id,
            "s3_definition_id" => &self.s3_definition_id,
            "files_definition_id" => &self.files_definition_id,
            "snowflake_definition_id" => &self.snowflake_definition_id,
            _ => return None,
        };
        value.as_deref()
    }
}

/// `snowflake.config`: the destination of the original.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnowflakeDestination {
    /// Database (the task's db name).
    pub database: String,
    /// Schema (`AIRBYTE_SCHEMA`).
    pub schema: String,
    /// User name.
    pub username: String,
    /// Password.
    pub password: String,
    /// Role.
    pub role: String,
    /// Warehouse.
    pub warehouse: String,
}

/// Blocks nested under a `config:` key in the file.
#[derive(Deserialize)]
struct Nested<T> {
    config: T,
}

#[derive(Deserialize)]
struct RawConfig {
    #[serde(rename = "Airbyte")]
    airbyte: Option<Nested<AirbyteConfig>>,
    postgres: Option<Nested<PostgresSource>>,
    mongodb: Option<Nested<MongodbSource>>,
    custom_api: Option<Nested<CustomApiSource>>,
    aws_s3: Option<AwsS3Source>,
    flat_files: Option<Vec<FlatFile>>,
    snowflake: Option<Nested<SnowflakeDestination>>,
}

impl TaskConfig {
    /// Parses the text of `config.yaml` (`path` is for messages).
    pub fn parse(text: &str, path: &Path) -> Result<Self, SuiteError> {
        let raw: RawConfig = serde_yaml::from_str(text).map_err(|e| yaml_error(path, &e))?;
        let keys: serde_yaml::Mapping =
            serde_yaml::from_str(text).map_err(|e| yaml_error(path, &e))?;
        Ok(Self {
            airbyte: raw.airbyte.map(|n| n.config),
            postgres: raw.postgres.map(|n| n.config),
            mongodb: raw.mongodb.map(|n| n.config),
            custom_api: raw.custom_api.map(|n| n.config),
            aws_s3: raw.aws_s3,
            flat_files: raw.flat_files.map(FlatFiles),
            snowflake: raw.snowflake.map(|n| n.config),
            unknown_keys: unknown_keys(&keys),
        })
    }

    /// The source blocks present, in [`SourceKind::ALL`] order.
    pub fn sources(&self) -> Vec<&dyn SourceBlock> {
        let blocks: [Option<&dyn SourceBlock>; 5] = [
            self.postgres.as_ref().map(|b| b as &dyn SourceBlock),
            self.mongodb.as_ref().map(|b| b as &dyn SourceBlock),
            self.custom_api.as_ref().map(|b| b as &dyn SourceBlock),
            self.aws_s3.as_ref().map(|b| b as &dyn SourceBlock),
            self.flat_files.as_ref().map(|b| b as &dyn SourceBlock),
        ];
        blocks.into_iter().flatten().collect()
    }

    /// The source block of one kind, if the task has it.
    pub fn source(&self, kind: SourceKind) -> Option<&dyn SourceBlock> {
        self.sources().into_iter().find(|b| b.kind() == kind)
    }
}

fn unknown_keys(keys: &serde_yaml::Mapping) -> Vec<String> {
    let known = |k: &str| {
        NON_SOURCE_KEYS.contains(&k) || SourceKind::ALL.iter().any(|s| s.config_key() == k)
    };
    keys.keys()
        .map(|k| k.as_str().map_or_else(|| format!("{k:?}"), str::to_owned))
        .filter(|k| !known(k))
        .collect()
}

#[cfg(test)]
mod tests;
