//! The source resources of the gold `main.tf`, one per source kind in the
//! rewritten `config.yaml` (one per file for flat files, one per bucket for
//! S3), each with the streams its connection syncs. Text only.

use std::collections::BTreeMap;
use std::path::Path;

use eltbench_task::{FileFormat, FlatFile, S3Object, TaskConfig};
use serde_json::{Map, Value};

use super::error::OracleError;
use super::hcl::{Item, attr, attr_str, inline, quote};

/// The mode the original configs name for every table.
const DEFAULT_SYNC_MODE: &str = "full_refresh_append";

/// One source resource and the streams its connection syncs.
pub struct Source {
    pub resource: &'static str,
    pub name: String,
    pub body: Vec<Item>,
    /// `(stream, sync_mode)`.
    pub streams: Vec<(String, String)>,
}

/// Every source of `config` (`raw`: the same YAML, for `base_url`).
pub fn sources(
    config: &TaskConfig,
    raw: &serde_yaml::Value,
    db: &str,
    path: &Path,
) -> Result<Vec<Source>, OracleError> {
    let mut out = Vec::new();
    if let Some(pg) = &config.postgres {
        out.push(Source {
            resource: "airbyte_source_postgres",
            name: "postgres".into(),
            body: vec![Item::Object(
                "configuration".into(),
                vec![
                    attr_str("host", &pg.host),
                    attr("port", pg.port.to_string()),
                    attr_str("database", &pg.database),
                    attr_str("username", &pg.user),
                    attr_str("password", &pg.password),
                    attr(
                        "schemas",
                        format!("[{}]", quote(schema_or_public(&pg.schema))),
                    ),
                    empty_variant("ssl_mode", "disable"),
                    empty_variant(
                        "replication_method",
                        "scan_changes_with_user_defined_cursor",
                    ),
                    empty_variant("tunnel_method", "no_tunnel"),
                ],
            )],
            streams: streams(&pg.tables, &pg.sync_mode),
        });
    }
    if let Some(m) = &config.mongodb {
        let replica_set = vec![
            attr_str("connection_string", &m.connection_string),
            attr_str("database", &m.database),
        ];
        out.push(Source {
            resource: "airbyte_source_mongodb_v2",
            name: "mongodb".into(),
            body: vec![Item::Object(
                "configuration".into(),
                vec![Item::Object(
                    "database_config".into(),
                    vec![Item::Object("self_managed_replica_set".into(), replica_set)],
                )],
            )],
            streams: streams(&m.tables, &m.sync_mode),
        });
    }
    if let Some(api) = &config.custom_api {
        let json = custom_configuration(&api.configuration, raw, db, &api.tables, path)?;
        out.push(Source {
            resource: "airbyte_source_custom",
            name: "custom_api".into(),
            body: vec![
                attr(
                    "definition_id",
                    quote(eltbench_airbyte::CUSTOM_API_DEFINITION_ID),
                ),
                attr("configuration", format!("jsonencode({})", inline(&json))),
            ],
            streams: streams(&api.tables, &api.sync_mode),
        });
    }
    if let Some(s3) = &config.aws_s3 {
        for (bucket, objects) in by_bucket(&s3.data, path)? {
            out.push(s3_source(s3, &bucket, &objects));
        }
    }
    if let Some(files) = &config.flat_files {
        out.extend(files.0.iter().map(file_source));
    }
    Ok(out)
}

fn schema_or_public(schema: &str) -> &str {
    if schema.is_empty() { "public" } else { schema }
}

/// `key = { variant = {} }`.
fn empty_variant(key: &str, variant: &str) -> Item {
    Item::Object(key.into(), vec![attr(variant, "{}")])
}

fn streams(tables: &[String], mode: &str) -> Vec<(String, String)> {
    tables
        .iter()
        .map(|t| (t.clone(), sync_mode(mode)))
        .collect()
}

fn sync_mode(mode: &str) -> String {
    if mode.is_empty() {
        DEFAULT_SYNC_MODE
    } else {
        mode
    }
    .to_owned()
}

/// `custom_api.config.configuration` plus the API's `base_url` (from the
/// rewritten config), the task database and the streams.
fn custom_configuration(
    configuration: &Map<String, Value>,
    raw: &serde_yaml::Value,
    db: &str,
    tables: &[String],
    path: &Path,
) -> Result<Value, OracleError> {
    let mut json = configuration.clone();
    if !json.contains_key("base_url") {
        let base_url = raw
            .get("custom_api")
            .and_then(|b| b.get("config"))
            .and_then(|c| c.get("base_url"))
            .and_then(serde_yaml::Value::as_str)
            .ok_or_else(|| OracleError::Config {
                path: path.to_path_buf(),
                message: "custom_api.config.base_url missing (not a rewritten config?)".into(),
            })?;
        json.insert("base_url".into(), Value::from(base_url));
    }
    json.entry("database").or_insert_with(|| Value::from(db));
    json.entry("streams")
        .or_insert_with(|| Value::from(tables.to_vec()));
    Ok(Value::Object(json))
}

/// S3 objects with their keys, by bucket.
type Buckets<'a> = BTreeMap<String, Vec<(&'a S3Object, String)>>;

fn by_bucket<'a>(objects: &'a [S3Object], path: &Path) -> Result<Buckets<'a>, OracleError> {
    let mut map = Buckets::new();
    for object in objects {
        let (bucket, key) = object.bucket_and_key().ok_or_else(|| OracleError::Config {
            path: path.to_path_buf(),
            message: format!("aws_s3 table {}: bad path {}", object.table, object.path),
        })?;
        map.entry(bucket.to_owned())
            .or_default()
            .push((object, key.to_owned()));
    }
    Ok(map)
}

fn s3_source(
    s3: &eltbench_task::AwsS3Source,
    bucket: &str,
    objects: &[(&S3Object, String)],
) -> Source {
    let stream_items: Vec<String> = objects
        .iter()
        .map(|(object, key)| {
            let format = format_name(object.format().unwrap_or(FileFormat::Csv));
            format!(
                "{{ name = {}, globs = [{}], format = {{ {format}_format = {{}} }} }}",
                quote(&object.table),
                quote(key)
            )
        })
        .collect();
    let mut config = vec![attr_str("bucket", bucket)];
    if let Some(endpoint) = &s3.endpoint_url {
        config.push(attr_str("endpoint", endpoint));
    }
    if let Some(region) = &s3.default_region {
        config.push(attr_str("region_name", region));
    }
    config.push(attr_str("aws_access_key_id", &s3.access_key_id));
    config.push(attr_str("aws_secret_access_key", &s3.secret_access_key));
    config.push(Item::List("streams".into(), stream_items));
    Source {
        resource: "airbyte_source_s3",
        name: label("s3", bucket),
        body: vec![Item::Object("configuration".into(), config)],
        streams: objects
            .iter()
            .map(|(o, _)| (o.table.clone(), sync_mode(&o.sync_mode)))
            .collect(),
    }
}

fn file_source(file: &FlatFile) -> Source {
    Source {
        resource: "airbyte_source_file",
        name: label("file", &file.table),
        body: vec![Item::Object(
            "configuration".into(),
            vec![
                attr_str("dataset_name", &file.table),
                attr_str("format", format_name(file.format)),
                attr_str("url", &file.path),
                empty_variant("provider", "https_public_web"),
            ],
        )],
        streams: vec![(file.table.clone(), sync_mode(&file.sync_mode))],
    }
}

fn format_name(format: FileFormat) -> &'static str {
    match format {
        FileFormat::Csv => "csv",
        FileFormat::Jsonl => "jsonl",
        FileFormat::Parquet => "parquet",
        FileFormat::Json => "json",
    }
}

/// A resource name `<prefix>_<text>` with every other character made `_`.
fn label(prefix: &str, text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{prefix}_{cleaned}")
}
