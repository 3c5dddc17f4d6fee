//! The S3 source's objects: each `aws_s3.data` table written in the format its key's
//! extension names (csv, jsonl, json, parquet) as object `s3://<bucket>/<key>` under
//! the endpoint's root directory. Serving belongs to `eltbench-s3`; this module only
//! writes objects.

use std::path::Path;

use eltbench_task::{FileFormat, S3Object};

use crate::formats::{FormatError, write_table};
use crate::table::Table;

/// Why an S3 object could not be written.
#[derive(Debug, thiserror::Error)]
pub enum S3LoadError {
    #[error("S3 path `{path}` of table {table} is not `s3://bucket/key`")]
    BadPath { table: String, path: String },
    #[error(
        "S3 path `{path}` of table {table} has no known format extension (csv, jsonl, json, parquet)"
    )]
    UnknownFormat { table: String, path: String },
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error(transparent)]
    Store(#[from] eltbench_s3::S3Error),
}

/// The object's bucket, key and format, or why the config entry is unusable.
pub fn target(object: &S3Object) -> Result<(&str, &str, FileFormat), S3LoadError> {
    let (bucket, key) = object
        .bucket_and_key()
        .ok_or_else(|| S3LoadError::BadPath {
            table: object.table.clone(),
            path: object.path.clone(),
        })?;
    let format = object.format().ok_or_else(|| S3LoadError::UnknownFormat {
        table: object.table.clone(),
        path: object.path.clone(),
    })?;
    Ok((bucket, key, format))
}

/// Writes `table` as the object `object` names under `root`; returns its size in bytes.
pub fn put_table(root: &Path, object: &S3Object, table: &Table) -> Result<usize, S3LoadError> {
    let (bucket, key, format) = target(object)?;
    let bytes = write_table(table, format)?;
    eltbench_s3::put_object(root, bucket, key, &bytes)?;
    Ok(bytes.len())
}
