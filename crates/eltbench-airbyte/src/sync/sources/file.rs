//! source-file (`airbyte_source_file`): one stream, `dataset_name`, read from a URL
//! over HTTP(S) or from a local path, in csv, json, jsonl or parquet `format`
//! (`reader_options` may set the CSV `sep`). Like source-file it offers full refresh
//! only; CSV columns are strings and pandas' NA strings are null. A local file (or a
//! downloaded copy) is discovered from its head (CSV), one parallel scan (JSON Lines)
//! or its footer, and read by DuckDB's `read_csv` / `read_json` / `read_parquet`
//! straight into the destination when the native paths accept it (the parsers in
//! `formats` otherwise, with the same results).

use async_trait::async_trait;
use bytes::Bytes;
use serde_json::Value;

use super::{blocking, http, optional_str, required_str};
use crate::enums::SyncMode;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::sync::connector::{
    BatchSink, DiscoveredStream, NativeLoad, ReadRequest, SourceConnector, TempFile,
};
use crate::sync::error::ConnectorError;
use crate::sync::formats::{
    CsvOptions, FileFormat, native_csv_select, native_json_infer, native_json_select,
    native_parquet_select,
};
use crate::sync::typing::StreamSchema;
use std::sync::Arc;

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

fn local_path(config: &FileConfig) -> Option<PathBuf> {
    (config.storage == "local")
        .then(|| PathBuf::from(config.url.strip_prefix("file://").unwrap_or(&config.url)))
}

/// The schema of a file on disk without parsing all of it (CSV: its head; JSON
/// Lines: one parallel scan; Parquet: its footer); `None`: infer from the bytes.
async fn local_schema(config: &FileConfig, path: PathBuf) -> Option<StreamSchema> {
    let (format, url) = (config.format.clone(), config.url.clone());
    let work = move || match format {
        FileFormat::Csv(options) => {
            let (head, size) = read_head(&path).ok()?;
            let larger = (head.len() as u64) < size;
            larger.then(|| options.infer_head(&head, &url)).flatten()
        }
        FileFormat::Jsonl | FileFormat::Json => native_json_infer(&path),
        FileFormat::Parquet => {
            let file = std::fs::File::open(&path).ok()?;
            crate::sync::formats::parquet::infer_from(file, &url).ok()
        }
    };
    tokio::task::spawn_blocking(work).await.ok().flatten()
}

/// A temporary copy of a downloaded file for DuckDB (`None` when it cannot be
/// written).
async fn download(config: &FileConfig, bytes: &Bytes) -> Option<TempFile> {
    let suffix = match config.format {
        FileFormat::Csv(_) => ".csv",
        FileFormat::Jsonl | FileFormat::Json => ".jsonl",
        FileFormat::Parquet => ".parquet",
    };
    let bytes = bytes.clone();
    tokio::task::spawn_blocking(move || TempFile::write(&bytes, suffix).ok())
        .await
        .ok()
        .flatten()
}

/// The first MiB of a local file (enough for its header row) and its size.
fn read_head(path: &Path) -> std::io::Result<(Vec<u8>, u64)> {
    let file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    let mut head = Vec::new();
    file.take(1 << 20).read_to_end(&mut head)?;
    Ok((head, size))
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
        let local = match local_path(&config) {
            Some(path) => local_schema(&config, path).await,
            None => None,
        };
        let schema = match local {
            Some(schema) => schema,
            None => {
                let bytes = fetch(&config).await?;
                // Over HTTP only JSON Lines gains from DuckDB (a CSV header is cheap).
                let json = matches!(config.format, FileFormat::Jsonl | FileFormat::Json);
                let native = if local_path(&config).is_none() && json {
                    match download(&config, &bytes).await {
                        Some(file) => local_schema(&config, file.path.clone()).await,
                        None => None,
                    }
                } else {
                    None
                };
                let (format, url) = (config.format.clone(), config.url.clone());
                match native {
                    Some(schema) => schema,
                    None => blocking(move || format.infer(&bytes, &url)).await?,
                }
            }
        };
        let mut stream = DiscoveredStream::new(&config.dataset, None, &schema);
        stream.sync_modes = vec![SyncMode::FullRefreshOverwrite, SyncMode::FullRefreshAppend];
        Ok(vec![stream])
    }

    async fn native_load(
        &self,
        request: &ReadRequest<'_>,
    ) -> Result<Option<NativeLoad>, ConnectorError> {
        let config = parse_config(request.config)?;
        let (path, file) = match local_path(&config) {
            Some(path) => (path, None),
            None => {
                let Some(file) = download(&config, &fetch(&config).await?).await else {
                    return Ok(None);
                };
                (file.path.clone(), Some(Arc::new(file)))
            }
        };
        let (format, url, schema) = (
            config.format.clone(),
            config.url.clone(),
            request.schema.clone(),
        );
        // Reads the file's head, footer or (JSON Lines, unless discovery did) all of it.
        let planned = tokio::task::spawn_blocking(move || {
            let Ok((head, bytes)) = read_head(&path) else {
                return Ok(None);
            };
            let select = match &format {
                FileFormat::Csv(options) => {
                    let names = options.header_names(&head, &url)?;
                    native_csv_select(options, &path, &names, &schema)
                }
                FileFormat::Jsonl | FileFormat::Json if !head.starts_with(b"\xef\xbb\xbf") => {
                    native_json_select(&path, &schema)
                }
                FileFormat::Parquet => native_parquet_select(&path, &schema),
                _ => None,
            };
            Ok(select.map(|select| (select, bytes)))
        })
        .await
        .map_err(|e| ConnectorError::Data(format!("Reading {} stopped: {e}", config.url)))?;
        let Some((select, bytes)) = planned? else {
            return Ok(None);
        };
        Ok(Some(NativeLoad {
            select,
            bytes,
            download: file,
        }))
    }

    async fn read(&self, request: ReadRequest<'_>, sink: &BatchSink) -> Result<(), ConnectorError> {
        let config = parse_config(request.config)?;
        let bytes = fetch(&config).await?;
        let (schema, sink) = (request.schema.clone(), sink.clone());
        blocking(move || config.format.read(&bytes, &config.url, &schema, &[], &sink)).await
    }
}
