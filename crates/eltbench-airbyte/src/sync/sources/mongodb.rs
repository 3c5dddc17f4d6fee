//! source-mongodb-v2: streams are the collections of `database_config.database`,
//! namespaced by the database. The schema is inferred by sampling up to
//! `discover_sample_size` documents; top-level fields become columns (numbers are
//! `number`, `_id` a string), the primary key is `_id`. Read with the official driver.

use std::time::Duration;

use async_trait::async_trait;
use bson::{Bson, Document};
use futures_util::TryStreamExt;
use mongodb::options::{ClientOptions, Credential};
use mongodb::{Client, Database};
use serde_json::Value;

use super::{optional_str, required_str};
use crate::sync::connector::{BatchSink, DiscoveredStream, ReadRequest, SourceConnector};
use crate::sync::error::ConnectorError;
use crate::sync::formats::wider;
use crate::sync::records::{BATCH_ROWS, RowBatchBuilder};
use crate::sync::type_tables::{MONGODB_TYPES, lookup};
use crate::sync::typing::{AirbyteType, ColumnSpec, StreamSchema};

/// The MongoDB source.
#[derive(Debug, Default)]
pub struct MongoDbConnector;

struct MongoConfig {
    uri: String,
    database: String,
    username: Option<String>,
    password: Option<String>,
    auth_source: String,
    sample_size: i64,
}

fn parse_config(config: &Value) -> Result<MongoConfig, ConnectorError> {
    let db = config.get("database_config").unwrap_or(config);
    Ok(MongoConfig {
        uri: required_str(db, "connection_string")?.to_owned(),
        database: required_str(db, "database")?.to_owned(),
        username: optional_str(db, "username").map(str::to_owned),
        password: optional_str(db, "password").map(str::to_owned),
        auth_source: optional_str(db, "auth_source")
            .unwrap_or("admin")
            .to_owned(),
        sample_size: config
            .get("discover_sample_size")
            .and_then(Value::as_i64)
            .unwrap_or(10_000),
    })
}

async fn connect(config: &MongoConfig) -> Result<Database, ConnectorError> {
    let mut options = ClientOptions::parse(&config.uri).await.map_err(|e| {
        ConnectorError::Config(format!("Invalid connection string {}: {e}", config.uri))
    })?;
    options.server_selection_timeout = Some(Duration::from_secs(5));
    options.connect_timeout = Some(Duration::from_secs(5));
    options.app_name = Some("eltbench-airbyte".to_owned());
    if let Some(username) = &config.username {
        options.credential = Some(
            Credential::builder()
                .username(username.clone())
                .password(config.password.clone())
                .source(config.auth_source.clone())
                .build(),
        );
    }
    let client = Client::with_options(options).map_err(|e| mongo_error(&config.uri, &e))?;
    let database = client.database(&config.database);
    database
        .run_command(bson::doc! { "ping": 1 })
        .await
        .map_err(|e| mongo_error(&config.uri, &e))?;
    Ok(database)
}

fn mongo_error(target: &str, error: &mongodb::error::Error) -> ConnectorError {
    use mongodb::error::ErrorKind;
    match error.kind.as_ref() {
        ErrorKind::Authentication { message, .. } => {
            ConnectorError::credentials(&format!("MongoDB at {target}"), message)
        }
        ErrorKind::ServerSelection { message, .. } => ConnectorError::refused(target, message),
        ErrorKind::Command(c) if c.code == 18 || c.code == 13 => {
            ConnectorError::credentials(&format!("MongoDB at {target}"), &c.message)
        }
        _ => ConnectorError::Connection(format!("MongoDB at {target} failed: {error}")),
    }
}

fn bson_type(value: &Bson) -> Option<AirbyteType> {
    match value {
        Bson::Null | Bson::Undefined => None,
        other => Some(lookup(MONGODB_TYPES, other.element_type()).unwrap_or(AirbyteType::String)),
    }
}

/// Columns in first-seen order; `_id` is always a string.
fn infer(documents: &[Document]) -> StreamSchema {
    let mut columns: Vec<(String, Option<AirbyteType>)> =
        vec![("_id".to_owned(), Some(AirbyteType::String))];
    for document in documents {
        for (key, value) in document {
            let ty = bson_type(value);
            match columns.iter_mut().find(|(k, _)| k == key) {
                Some((k, _)) if k == "_id" => {}
                Some((_, existing)) => {
                    *existing = match (*existing, ty) {
                        (Some(a), Some(b)) => Some(wider(a, b)),
                        (a, b) => a.or(b),
                    }
                }
                None => columns.push((key.clone(), ty)),
            }
        }
    }
    StreamSchema {
        columns: columns
            .into_iter()
            .map(|(k, t)| ColumnSpec::new(&k, t.unwrap_or(AirbyteType::String)))
            .collect(),
    }
}

/// A top-level BSON value as the JSON Airbyte emits for it.
fn to_json(value: &Bson) -> Value {
    match value {
        Bson::ObjectId(id) => Value::String(id.to_hex()),
        Bson::DateTime(dt) => dt
            .try_to_rfc3339_string()
            .map_or_else(|_| Value::from(dt.timestamp_millis()), Value::String),
        Bson::Decimal128(d) => d
            .to_string()
            .parse::<f64>()
            .map_or_else(|_| Value::String(d.to_string()), Value::from),
        other => other.clone().into_relaxed_extjson(),
    }
}

#[async_trait]
impl SourceConnector for MongoDbConnector {
    fn source_type(&self) -> &'static str {
        "mongodb-v2"
    }

    fn definition_id(&self) -> &'static str {
        "b2e713cd-cc36-4c0a-b5bd-b47cb8a0561e"
    }

    async fn discover(&self, config: &Value) -> Result<Vec<DiscoveredStream>, ConnectorError> {
        let config = parse_config(config)?;
        let database = connect(&config).await?;
        let mut names = database
            .list_collection_names()
            .await
            .map_err(|e| mongo_error(&config.uri, &e))?;
        names.sort();
        let mut streams = Vec::new();
        for name in names.into_iter().filter(|n| !n.starts_with("system.")) {
            let sample: Vec<Document> = database
                .collection::<Document>(&name)
                .find(bson::doc! {})
                .limit(config.sample_size)
                .await
                .map_err(|e| mongo_error(&config.uri, &e))?
                .try_collect()
                .await
                .map_err(|e| mongo_error(&config.uri, &e))?;
            let mut stream = DiscoveredStream::new(&name, Some(&config.database), &infer(&sample));
            stream.primary_key = vec![vec!["_id".to_owned()]];
            stream.default_cursor = vec!["_id".to_owned()];
            stream.source_defined_cursor = true;
            streams.push(stream);
        }
        Ok(streams)
    }

    async fn read(&self, request: ReadRequest<'_>, sink: &BatchSink) -> Result<(), ConnectorError> {
        let config = parse_config(request.config)?;
        let database = connect(&config).await?;
        let mut cursor = database
            .collection::<Document>(&request.stream.name)
            .find(bson::doc! {})
            .batch_size(u32::try_from(BATCH_ROWS).unwrap_or(8192))
            .await
            .map_err(|e| mongo_error(&config.uri, &e))?;
        let mut rows = RowBatchBuilder::new(request.schema);
        let mut bytes = 0u64;
        while let Some(document) = cursor
            .try_next()
            .await
            .map_err(|e| mongo_error(&config.uri, &e))?
        {
            for (col, column) in request.schema.columns.iter().enumerate() {
                let value = document.get(&column.source_name).map(to_json);
                if let Some(v) = &value {
                    bytes += v.to_string().len() as u64;
                }
                rows.push_json(col, value.as_ref());
            }
            rows.end_row();
            if rows.len() >= BATCH_ROWS {
                sink.send(rows.finish()?, std::mem::take(&mut bytes))
                    .await?;
            }
        }
        if !rows.is_empty() {
            sink.send(rows.finish()?, bytes).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn sampled_fields_become_columns_with_numbers_as_number() {
        let docs = vec![
            doc! {"_id": bson::oid::ObjectId::new(), "n": 1, "name": "a"},
            doc! {"_id": 2, "n": 2.5, "tags": ["x"], "when": bson::DateTime::from_millis(0)},
        ];
        let schema = infer(&docs);
        let types: Vec<_> = schema
            .columns
            .iter()
            .map(|c| (c.source_name.as_str(), c.airbyte_type))
            .collect();
        assert_eq!(
            types,
            vec![
                ("_id", AirbyteType::String),
                ("n", AirbyteType::Number),
                ("name", AirbyteType::String),
                ("tags", AirbyteType::Json),
                ("when", AirbyteType::TimestampTz),
            ]
        );
        assert_eq!(
            to_json(&Bson::DateTime(bson::DateTime::from_millis(0))),
            Value::String("1970-01-01T00:00:00Z".into())
        );
    }
}
