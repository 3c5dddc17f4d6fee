//! The custom REST API source of ELT-Bench: each stream is `GET <base_url><path>`
//! returning a JSON array of records, the path being `/<database>/<table>` unless the
//! stream names its own. Configuration: `base_url` (or `url`), optional `database`,
//! optional `streams` (names, or `{name, path, json_schema}`); what is missing comes
//! from the engine's [`RestDefaults`] (the original connector had its streams built
//! in and an empty configuration). Schemas are the declared ones, else inferred.

use std::collections::BTreeMap;

use async_trait::async_trait;
use serde_json::Value;

use super::{blocking, http, optional_str};
use crate::definitions::CUSTOM_API_DEFINITION_ID;
use crate::sync::connector::{BatchSink, DiscoveredStream, ReadRequest, SourceConnector};
use crate::sync::error::ConnectorError;
use crate::sync::formats::FileFormat;
use crate::sync::typing::StreamSchema;

/// One REST stream: its path under the base URL and, optionally, its JSON schema.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RestStream {
    pub path: String,
    pub json_schema: Option<Value>,
}

/// What the connector uses when a source's configuration leaves it out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RestDefaults {
    pub base_url: Option<String>,
    pub streams: BTreeMap<String, RestStream>,
}

/// The custom REST API source.
#[derive(Debug, Clone, Default)]
pub struct RestApiConnector {
    defaults: RestDefaults,
}

impl RestApiConnector {
    pub fn with_defaults(defaults: RestDefaults) -> Self {
        Self { defaults }
    }

    fn base_url(&self, config: &Value) -> Result<String, ConnectorError> {
        ["base_url", "url", "api_url"]
            .iter()
            .find_map(|f| optional_str(config, f))
            .map(str::to_owned)
            .or_else(|| self.defaults.base_url.clone())
            .map(|u| u.trim_end_matches('/').to_owned())
            .ok_or_else(|| ConnectorError::missing("base_url"))
    }

    fn streams(&self, config: &Value) -> Result<BTreeMap<String, RestStream>, ConnectorError> {
        let database = optional_str(config, "database");
        let Some(items) = config.get("streams").and_then(Value::as_array) else {
            if self.defaults.streams.is_empty() {
                return Err(ConnectorError::missing("streams"));
            }
            return Ok(self.defaults.streams.clone());
        };
        items
            .iter()
            .map(|item| self.stream(item, database))
            .collect()
    }

    fn stream(
        &self,
        item: &Value,
        database: Option<&str>,
    ) -> Result<(String, RestStream), ConnectorError> {
        let name = item
            .as_str()
            .or_else(|| optional_str(item, "name"))
            .ok_or_else(|| {
                ConnectorError::Config(format!("Invalid stream entry {item}: expected a name"))
            })?;
        let known = self.defaults.streams.get(name).cloned();
        let path = optional_str(item, "path")
            .map(str::to_owned)
            .or_else(|| database.map(|db| format!("/{db}/{name}")))
            .or_else(|| known.as_ref().map(|k| k.path.clone()))
            .unwrap_or_else(|| format!("/{name}"));
        let json_schema = item
            .get("json_schema")
            .cloned()
            .or_else(|| known.and_then(|k| k.json_schema));
        Ok((name.to_owned(), RestStream { path, json_schema }))
    }
}

async fn fetch_records(url: &str) -> Result<bytes::Bytes, ConnectorError> {
    http::get(&http::client(), url).await
}

#[async_trait]
impl SourceConnector for RestApiConnector {
    fn source_type(&self) -> &'static str {
        "custom-api"
    }

    fn definition_id(&self) -> &'static str {
        CUSTOM_API_DEFINITION_ID
    }

    async fn discover(&self, config: &Value) -> Result<Vec<DiscoveredStream>, ConnectorError> {
        let base = self.base_url(config)?;
        let mut found = Vec::new();
        for (name, stream) in self.streams(config)? {
            let schema = match &stream.json_schema {
                Some(schema) => StreamSchema::from_json_schema(schema),
                None => {
                    let url = format!("{base}{}", stream.path);
                    let bytes = fetch_records(&url).await?;
                    blocking(move || FileFormat::Json.infer(&bytes, &url)).await?
                }
            };
            found.push(DiscoveredStream::new(&name, None, &schema));
        }
        Ok(found)
    }

    async fn read(&self, request: ReadRequest<'_>, sink: &BatchSink) -> Result<(), ConnectorError> {
        let base = self.base_url(request.config)?;
        let streams = self.streams(request.config)?;
        let stream = streams.get(&request.stream.name).ok_or_else(|| {
            ConnectorError::NotFound(format!(
                "Stream `{}` is not configured",
                request.stream.name
            ))
        })?;
        let url = format!("{base}{}", stream.path);
        let bytes = fetch_records(&url).await?;
        let (schema, sink) = (request.schema.clone(), sink.clone());
        blocking(move || FileFormat::Json.read(&bytes, &url, &schema, &[], &sink)).await
    }
}
