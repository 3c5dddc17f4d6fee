//! source-file (`airbyte_source_file`): one stream, `dataset_name`, read from a URL
//! over HTTP(S) or from a local path, in csv, json, jsonl or parquet `format`
//! (`reader_options` may set the CSV `sep`). Like source-file it offers full refresh
//! only; CSV columns are strings and pandas' NA strings are null.

use async_trait::async_trait;
use bytes::Bytes;
use serde_json::Value;

use super::{blocking, http, optional_str, required_str};
use crate::enums::SyncMode;
use crate::sync::connector::{BatchSink, DiscoveredStream, ReadRequest, SourceConnector};
use crate::sync::error::ConnectorError;
use crate::sync::formats::{CsvOptions, FileFormat};

/// The File source.
#[derive(Debug, Default)]
pub struct FileConnector;

struct FileConfig {
    dataset: String,
    url: String,
    storage: String,
    format: FileFormat,
}

fn parse_config(config: &Value) -> Result<FileConfig, ConnectorError> {
    let reader_options = match optional_str(config, "reader_options") {
        Some(text) => serde_json::from_str(text).map_err(|e| {
            ConnectorError::Config(format!("`reader_options` is not valid JSON: {e}"))
        })?,
        None => Value::Null,
    };
    let format = match optional_str(config, "format").unwrap_or("csv") {
        "csv" => FileFormat::Csv(CsvOptions::for_file_source(&reader_options)?),
        "json" => FileFormat::Json,
        "jsonl" => FileFormat::Jsonl,
        "parquet" => FileFormat::Parquet,
        other => {
            return Err(ConnectorError::Config(format!(
                "File format `{other}` is not supported here (supported: csv, json, jsonl, parquet)"
            )));
        }
    };
    let storage = config
        .pointer("/provider/storage")
        .and_then(Value::as_str)
        .unwrap_or("HTTPS")
        .to_owned();
    Ok(FileConfig {
        dataset: required_str(config, "dataset_name")?.to_owned(),
        url: required_str(config, "url")?.trim().to_owned(),
        storage,
        format,
    })
}

async fn fetch(config: &FileConfig) -> Result<Bytes, ConnectorError> {
    match config.storage.as_str() {
        "HTTPS" => http::get(&http::client(), &config.url).await,
        "local" => {
            let path = config.url.strip_prefix("file://").unwrap_or(&config.url);
            tokio::fs::read(path).await.map(Bytes::from).map_err(|e| {
                ConnectorError::NotFound(format!("Could not read local file {path}: {e}"))
            })
        }
        other => Err(ConnectorError::Config(format!(
            "Storage provider `{other}` is not supported here (supported: HTTPS, local)"
        ))),
    }
}

#[async_trait]
impl SourceConnector for FileConnector {
    fn source_type(&self) -> &'static str {
        "file"
    }

    fn definition_id(&self) -> &'static str {
        "778daa7c-feaf-4db6-96f3-70fd645acc77"
    }

    async fn discover(&self, config: &Value) -> Result<Vec<DiscoveredStream>, ConnectorError> {
        let config = parse_config(config)?;
        let bytes = fetch(&config).await?;
        let (format, url) = (config.format.clone(), config.url.clone());
        let schema = blocking(move || format.infer(&bytes, &url)).await?;
        let mut stream = DiscoveredStream::new(&config.dataset, None, &schema);
        stream.sync_modes = vec![SyncMode::FullRefreshOverwrite, SyncMode::FullRefreshAppend];
        Ok(vec![stream])
    }

    async fn read(&self, request: ReadRequest<'_>, sink: &BatchSink) -> Result<(), ConnectorError> {
        let config = parse_config(request.config)?;
        let bytes = fetch(&config).await?;
        let (schema, sink) = (request.schema.clone(), sink.clone());
        blocking(move || config.format.read(&bytes, &config.url, &schema, &[], &sink)).await
    }
}
