//! Writing buckets and objects straight to the root directory, before or while the
//! endpoint serves it (the sources layer puts a task's csv/jsonl/parquet files here).
//!
//! Only the layout rules apply here; this module must never bypass them (a key that the
//! endpoint could not serve is refused, not written).

use std::path::{Path, PathBuf};

use crate::error::S3Error;
use crate::layout;

/// Creates the directory of `bucket` under `root` (and `root` itself); returns its path.
/// An existing bucket is left as it is.
pub fn create_bucket(root: &Path, bucket: &str) -> Result<PathBuf, S3Error> {
    let dir = layout::bucket_dir(root, bucket)?;
    std::fs::create_dir_all(&dir).map_err(|source| S3Error::Write {
        path: dir.clone(),
        source,
    })?;
    Ok(dir)
}

/// Writes `bytes` as object `key` of `bucket` under `root`, creating the bucket when
/// needed and replacing an existing object; returns the file's path.
pub fn put_object(root: &Path, bucket: &str, key: &str, bytes: &[u8]) -> Result<PathBuf, S3Error> {
    create_bucket(root, bucket)?;
    let path = layout::object_path(root, bucket, key)?;
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| S3Error::Write { path, source }
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(write_err(parent))?;
    }
    std::fs::write(&path, bytes).map_err(write_err(&path))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_object_creates_bucket_and_nested_dirs() {
        let root = tempfile::tempdir().unwrap();
        let path = put_object(root.path(), "address-bucket", "geo/CBSA.jsonl", b"{}\n").unwrap();
        assert_eq!(path, root.path().join("address-bucket/geo/CBSA.jsonl"));
        assert_eq!(std::fs::read(&path).unwrap(), b"{}\n");
    }

    #[test]
    fn put_object_refuses_escaping_keys() {
        let root = tempfile::tempdir().unwrap();
        let err = put_object(root.path(), "bkt", "../outside", b"x").unwrap_err();
        assert!(err.to_string().contains("../outside"), "{err}");
        assert!(!root.path().join("outside").exists());
    }
}
