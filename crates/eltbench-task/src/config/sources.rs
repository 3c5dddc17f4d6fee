//! The five source blocks of `config.yaml` and their [`SourceBlock`] impls.
//!
//! Field names follow the original file; connection details are kept as
//! written (Docker host names included): rewriting them for a local run is
//! the `sources` crate's job, never this one's.

use serde::{Deserialize, Serialize};

use crate::source::{FileFormat, SourceBlock, SourceKind};

/// `postgres.config`: a PostgreSQL database.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PostgresSource {
    /// Host name (`elt-postgres` in the original).
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// Database name.
    pub database: String,
    /// User name.
    pub user: String,
    /// Password.
    pub password: String,
    /// Schema holding the tables.
    pub schema: String,
    /// Airbyte sync mode for every table.
    pub sync_mode: String,
    /// Table names.
    pub tables: Vec<String>,
}

/// `mongodb.config`: a MongoDB database.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MongodbSource {
    /// `mongodb://...` connection string.
    pub connection_string: String,
    /// Database name.
    pub database: String,
    /// Airbyte sync mode for every collection.
    pub sync_mode: String,
    /// Collection names.
    pub tables: Vec<String>,
}

/// `custom_api.config`: the REST API served at `/<db>/<table>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomApiSource {
    /// Connector configuration (`{}` in every original task).
    #[serde(default)]
    pub configuration: serde_json::Map<String, serde_json::Value>,
    /// Airbyte sync mode for every stream.
    pub sync_mode: String,
    /// Stream (table) names.
    pub tables: Vec<String>,
}

/// `aws_s3`: objects in an S3 bucket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AwsS3Source {
    /// `AWS_ACCESS_KEY_ID`.
    #[serde(rename = "AWS_ACCESS_KEY_ID")]
    pub access_key_id: String,
    /// `AWS_SECRET_ACCESS_KEY`.
    #[serde(rename = "AWS_SECRET_ACCESS_KEY")]
    pub secret_access_key: String,
    /// `AWS_DEFAULT_REGION`.
    #[serde(rename = "AWS_DEFAULT_REGION", default)]
    pub default_region: Option<String>,
    /// `AWS_ENDPOINT_URL` (LocalStack in the original).
    #[serde(rename = "AWS_ENDPOINT_URL", default)]
    pub endpoint_url: Option<String>,
    /// One object per table.
    pub data: Vec<S3Object>,
}

/// One `aws_s3.data` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct S3Object {
    /// `s3://bucket/key`.
    pub path: String,
    /// Airbyte sync mode.
    pub sync_mode: String,
    /// The table it loads into.
    pub table: String,
}

impl S3Object {
    /// `(bucket, key)` of an `s3://bucket/key` path.
    pub fn bucket_and_key(&self) -> Option<(&str, &str)> {
        let rest = self.path.strip_prefix("s3://")?;
        let (bucket, key) = rest.split_once('/')?;
        (!bucket.is_empty() && !key.is_empty()).then_some((bucket, key))
    }

    /// The object's format, from its extension.
    pub fn format(&self) -> Option<FileFormat> {
        FileFormat::from_path(&self.path)
    }
}

/// One `flat_files` entry: a file downloaded over HTTP(S).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlatFile {
    /// File format.
    pub format: FileFormat,
    /// URL of the file (a remote file host in the original).
    pub path: String,
    /// Airbyte sync mode.
    pub sync_mode: String,
    /// The table it loads into.
    pub table: String,
}

/// The `flat_files` list as one block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FlatFiles(pub Vec<FlatFile>);

impl SourceBlock for PostgresSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Postgres
    }
    fn tables(&self) -> Vec<&str> {
        self.tables.iter().map(String::as_str).collect()
    }
    fn sync_modes(&self) -> Vec<&str> {
        vec![self.sync_mode.as_str(); self.tables.len()]
    }
}

impl SourceBlock for MongodbSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Mongodb
    }
    fn tables(&self) -> Vec<&str> {
        self.tables.iter().map(String::as_str).collect()
    }
    fn sync_modes(&self) -> Vec<&str> {
        vec![self.sync_mode.as_str(); self.tables.len()]
    }
}

impl SourceBlock for CustomApiSource {
    fn kind(&self) -> SourceKind {
        SourceKind::CustomApi
    }
    fn tables(&self) -> Vec<&str> {
        self.tables.iter().map(String::as_str).collect()
    }
    fn sync_modes(&self) -> Vec<&str> {
        vec![self.sync_mode.as_str(); self.tables.len()]
    }
}

impl SourceBlock for AwsS3Source {
    fn kind(&self) -> SourceKind {
        SourceKind::AwsS3
    }
    fn tables(&self) -> Vec<&str> {
        self.data.iter().map(|o| o.table.as_str()).collect()
    }
    fn sync_modes(&self) -> Vec<&str> {
        self.data.iter().map(|o| o.sync_mode.as_str()).collect()
    }
    fn check(&self) -> Vec<(String, String)> {
        let mut found = Vec::new();
        for object in &self.data {
            if object.bucket_and_key().is_none() {
                found.push((
                    object.table.clone(),
                    format!("S3 path `{}` is not `s3://bucket/key`", object.path),
                ));
            } else if object.format().is_none() {
                let message = format!(
                    "S3 path `{}` has no known format extension (csv, jsonl, parquet, json)",
                    object.path
                );
                found.push((object.table.clone(), message));
            }
        }
        found
    }
}

impl SourceBlock for FlatFiles {
    fn kind(&self) -> SourceKind {
        SourceKind::FlatFiles
    }
    fn tables(&self) -> Vec<&str> {
        self.0.iter().map(|f| f.table.as_str()).collect()
    }
    fn sync_modes(&self) -> Vec<&str> {
        self.0.iter().map(|f| f.sync_mode.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(path: &str) -> S3Object {
        S3Object {
            path: path.into(),
            sync_mode: "full_refresh_append".into(),
            table: "t".into(),
        }
    }

    #[test]
    fn s3_paths_split_into_bucket_and_key() {
        assert_eq!(
            object("s3://address-bucket/CBSA.jsonl").bucket_and_key(),
            Some(("address-bucket", "CBSA.jsonl"))
        );
        assert_eq!(object("s3://bucket/").bucket_and_key(), None);
        assert_eq!(object("https://bucket/a.csv").bucket_and_key(), None);
    }

    #[test]
    fn s3_check_flags_bad_paths_and_formats() {
        let block = AwsS3Source {
            access_key_id: "test".into(),
            secret_access_key: "test".into(),
            default_region: None,
            endpoint_url: None,
            data: vec![
                object("s3://b/a.csv"),
                object("b/a.csv"),
                object("s3://b/a.xlsx"),
            ],
        };
        let found = block.check();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].1.contains("not `s3://bucket/key`"));
        assert!(found[1].1.contains("no known format"));
    }
}
