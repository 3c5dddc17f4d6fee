//! source-s3 (file-based CDK): streams come from the configuration's `streams`, each
//! selecting objects of `bucket` by `globs` and parsing them as csv, jsonl or parquet.
//! Every record also carries `_ab_source_file_last_modified` and `_ab_source_file_url`
//! (the default cursor). Objects are listed and fetched with aws-sdk-s3 against
//! `endpoint` (path style), so any S3-compatible server works.

mod client;
mod glob;

use async_trait::async_trait;
use serde_json::Value;

use super::{blocking, optional_str};
use crate::sync::connector::{BatchSink, DiscoveredStream, ReadRequest, SourceConnector};
use crate::sync::error::ConnectorError;
use crate::sync::formats::{CsvOptions, FileFormat, merge_schemas};
use crate::sync::typing::{AirbyteType, ColumnSpec, StreamSchema};
use client::{Bucket, Object};

/// The record columns every S3 stream gets.
pub const LAST_MODIFIED: &str = "_ab_source_file_last_modified";
pub const FILE_URL: &str = "_ab_source_file_url";

/// Files read to infer a schema (the CDK's `recent_n_files_to_read_for_schema_discovery`).
const SCHEMA_FILES: usize = 10;

/// The S3 source.
#[derive(Debug, Default)]
pub struct S3Connector;

struct StreamConfig {
    name: String,
    globs: Vec<String>,
    format: FileFormat,
    input_schema: Option<StreamSchema>,
}

fn stream_configs(config: &Value) -> Result<Vec<StreamConfig>, ConnectorError> {
    let items = config
        .get("streams")
        .and_then(Value::as_array)
        .ok_or_else(|| ConnectorError::missing("streams"))?;
    items.iter().map(stream_config).collect()
}

fn stream_config(item: &Value) -> Result<StreamConfig, ConnectorError> {
    let name =
        optional_str(item, "name").ok_or_else(|| ConnectorError::missing("streams[].name"))?;
    let globs: Vec<String> = item
        .get("globs")
        .and_then(Value::as_array)
        .map(|g| {
            g.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_else(|| vec!["**".to_owned()]);
    let format = item.get("format").cloned().unwrap_or(Value::Null);
    let format = match format
        .get("filetype")
        .and_then(Value::as_str)
        .unwrap_or("csv")
    {
        "csv" => FileFormat::Csv(CsvOptions::from_s3_format(&format)?),
        "jsonl" => FileFormat::Jsonl,
        "parquet" => FileFormat::Parquet,
        other => {
            return Err(ConnectorError::Config(format!(
                "File type `{other}` of stream `{name}` is not supported here (supported: csv, jsonl, parquet)"
            )));
        }
    };
    Ok(StreamConfig {
        name: name.to_owned(),
        globs,
        format,
        input_schema: optional_str(item, "input_schema")
            .map(parse_input_schema)
            .transpose()?,
    })
}

/// `input_schema`: a JSON object `{"column": "type"}` (or a JSON schema).
fn parse_input_schema(text: &str) -> Result<StreamSchema, ConnectorError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ConnectorError::Config(format!("`input_schema` is not valid JSON: {e}")))?;
    if value.get("properties").is_some() {
        return Ok(StreamSchema::from_json_schema(&value));
    }
    let columns = value
        .as_object()
        .ok_or_else(|| ConnectorError::Config("`input_schema` must be a JSON object".to_owned()))?
        .iter()
        .map(|(name, ty)| {
            let schema = serde_json::json!({ "type": ty.as_str().unwrap_or("string") });
            ColumnSpec::new(name, AirbyteType::from_json_schema(&schema))
        })
        .collect();
    Ok(StreamSchema { columns })
}

fn with_file_columns(mut schema: StreamSchema) -> StreamSchema {
    schema
        .columns
        .retain(|c| c.source_name != LAST_MODIFIED && c.source_name != FILE_URL);
    schema
        .columns
        .push(ColumnSpec::new(LAST_MODIFIED, AirbyteType::String));
    schema
        .columns
        .push(ColumnSpec::new(FILE_URL, AirbyteType::String));
    schema
}

fn no_files(stream: &str) -> ConnectorError {
    ConnectorError::NotFound(format!(
        "No files were identified in the stream `{stream}`. This may be because there are no files in the specified container, or because your glob patterns did not match any files. Please verify that your source contains files and that your glob patterns are not overly strict."
    ))
}

async fn discover_stream(
    bucket: &Bucket,
    objects: &[Object],
    stream: &StreamConfig,
) -> Result<DiscoveredStream, ConnectorError> {
    let matched: Vec<&Object> = objects
        .iter()
        .filter(|o| glob::matches_any(&stream.globs, &o.key))
        .collect();
    let schema = match &stream.input_schema {
        Some(schema) => schema.clone(),
        None => {
            let mut schemas = Vec::new();
            for object in matched.iter().rev().take(SCHEMA_FILES) {
                let bytes = bucket.get(&object.key).await?;
                let (format, url) = (stream.format.clone(), bucket.url(&object.key));
                schemas.push(blocking(move || format.infer(&bytes, &url)).await?);
            }
            merge_schemas(schemas)
        }
    };
    let mut discovered = DiscoveredStream::new(&stream.name, None, &with_file_columns(schema));
    discovered.default_cursor = vec![LAST_MODIFIED.to_owned()];
    discovered.source_defined_cursor = true;
    Ok(discovered)
}

#[async_trait]
impl SourceConnector for S3Connector {
    fn source_type(&self) -> &'static str {
        "s3"
    }

    fn definition_id(&self) -> &'static str {
        "69589781-7828-43c5-9f63-8925b1c1ccc2"
    }

    async fn discover(&self, config: &Value) -> Result<Vec<DiscoveredStream>, ConnectorError> {
        let streams = stream_configs(config)?;
        let bucket = Bucket::connect(config)?;
        let objects = bucket.list().await?;
        let mut found = Vec::new();
        for stream in &streams {
            found.push(discover_stream(&bucket, &objects, stream).await?);
        }
        Ok(found)
    }

    async fn read(&self, request: ReadRequest<'_>, sink: &BatchSink) -> Result<(), ConnectorError> {
        let streams = stream_configs(request.config)?;
        let stream = streams
            .into_iter()
            .find(|s| s.name == request.stream.name)
            .ok_or_else(|| {
                ConnectorError::NotFound(format!(
                    "Stream `{}` is not configured",
                    request.stream.name
                ))
            })?;
        let bucket = Bucket::connect(request.config)?;
        let mut objects: Vec<Object> = bucket
            .list()
            .await?
            .into_iter()
            .filter(|o| glob::matches_any(&stream.globs, &o.key))
            .collect();
        if objects.is_empty() {
            return Err(no_files(&stream.name));
        }
        objects.sort_by(|a, b| (&a.last_modified, &a.key).cmp(&(&b.last_modified, &b.key)));
        for object in objects {
            sink.check()?;
            let bytes = bucket.get(&object.key).await?;
            let url = bucket.url(&object.key);
            let extras = vec![
                (LAST_MODIFIED, object.last_modified.clone()),
                (FILE_URL, object.key.clone()),
            ];
            let (format, schema, sink) =
                (stream.format.clone(), request.schema.clone(), sink.clone());
            blocking(move || format.read(&bytes, &url, &schema, &extras, &sink)).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn streams_read_their_format_and_input_schema() {
        let streams = stream_configs(&json!({"streams": [
            {"name": "a", "globs": ["*.csv"], "format": {"filetype": "csv", "delimiter": ";"}, "input_schema": "{\"id\": \"integer\"}"},
            {"name": "b", "globs": ["*.jsonl"], "format": {"filetype": "jsonl"}}
        ]}))
        .unwrap();
        assert!(matches!(&streams[0].format, FileFormat::Csv(o) if o.delimiter == b';'));
        let input = streams[0].input_schema.clone().unwrap_or_default();
        assert_eq!(input.columns[0].airbyte_type, AirbyteType::Integer);
        assert_eq!(streams[1].format, FileFormat::Jsonl);
        let avro =
            stream_configs(&json!({"streams": [{"name": "x", "format": {"filetype": "avro"}}]}));
        assert!(avro.is_err());
    }

    #[test]
    fn file_columns_come_last() {
        let schema = with_file_columns(StreamSchema {
            columns: vec![ColumnSpec::new("id", AirbyteType::String)],
        });
        let names: Vec<_> = schema.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["id", LAST_MODIFIED, FILE_URL]);
    }
}
