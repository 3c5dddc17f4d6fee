//! The on-disk layout: `<root>/<bucket>/<key path>`, one directory per bucket, one file
//! per object, `/` in a key becoming a directory separator.
//!
//! This module decides which names are buckets and keys and maps them to paths. It must
//! never let a key escape its bucket directory (`..`, absolute paths, empty segments).

use std::path::{Path, PathBuf};

use crate::error::S3Error;

/// Directory under the root for uploads in flight; its leading dot keeps it from ever
/// being a bucket name.
pub(crate) const UPLOADS_DIR: &str = ".uploads";

/// The longest key S3 accepts, in bytes.
const MAX_KEY_LEN: usize = 1024;

/// Why `bucket` is not an S3 bucket name, or `None` when it is one.
pub(crate) fn bucket_name_problem(bucket: &str) -> Option<&'static str> {
    let bytes = bucket.as_bytes();
    if !(3..=63).contains(&bytes.len()) {
        return Some("bucket names are 3 to 63 characters long");
    }
    let allowed = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'.' || *b == b'-';
    if !bytes.iter().all(allowed) {
        return Some("bucket names use only lowercase letters, digits, '.' and '-'");
    }
    let edge = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if !edge(bytes.first()) || !edge(bytes.last()) {
        return Some("bucket names begin and end with a letter or digit");
    }
    None
}

/// Why `key` cannot be stored as a file, or `None` when it can.
pub(crate) fn key_problem(key: &str) -> Option<&'static str> {
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Some("keys are 1 to 1024 bytes long");
    }
    if key.contains('\0') {
        return Some("keys must not contain NUL");
    }
    if key
        .split('/')
        .any(|seg| seg.is_empty() || seg == "." || seg == "..")
    {
        return Some("keys stored on disk have no empty, '.' or '..' segments");
    }
    None
}

/// The directory of `bucket` under `root`.
pub(crate) fn bucket_dir(root: &Path, bucket: &str) -> Result<PathBuf, S3Error> {
    match bucket_name_problem(bucket) {
        Some(reason) => Err(S3Error::InvalidBucket {
            bucket: bucket.to_owned(),
            reason,
        }),
        None => Ok(root.join(bucket)),
    }
}

/// The file holding `key` in `bucket` under `root`.
pub(crate) fn object_path(root: &Path, bucket: &str, key: &str) -> Result<PathBuf, S3Error> {
    let dir = bucket_dir(root, bucket)?;
    match key_problem(key) {
        Some(reason) => Err(S3Error::InvalidKey {
            bucket: bucket.to_owned(),
            key: key.to_owned(),
            reason,
        }),
        None => Ok(key.split('/').fold(dir, |path, seg| path.join(seg))),
    }
}

/// The key of the file at `path` inside `bucket_dir`, or `None` for a path outside it or
/// a name that is not UTF-8.
pub(crate) fn key_of(bucket_dir: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(bucket_dir).ok()?;
    let segs: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    let key = segs?.join("/");
    key_problem(&key).is_none().then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_names_follow_s3_rules() {
        assert_eq!(bucket_name_problem("address-bucket"), None);
        assert_eq!(bucket_name_problem("a.b1"), None);
        assert!(bucket_name_problem("ab").is_some());
        assert!(bucket_name_problem("Upper").is_some());
        assert!(bucket_name_problem("-dash").is_some());
        assert!(bucket_name_problem(UPLOADS_DIR).is_some());
    }

    #[test]
    fn keys_cannot_escape_the_bucket() {
        for bad in ["", "../x", "a/../b", "/abs", "a//b", "dir/", "./a"] {
            assert!(key_problem(bad).is_some(), "{bad:?} should be rejected");
        }
        assert_eq!(key_problem("CBSA.jsonl"), None);
        assert_eq!(key_problem("a/b c/d.csv"), None);
    }

    #[test]
    fn key_maps_to_nested_path_and_back() {
        let root = Path::new("/srv/s3");
        let path = object_path(root, "bkt", "a/b/c.csv").unwrap();
        assert_eq!(path, Path::new("/srv/s3/bkt/a/b/c.csv"));
        assert_eq!(
            key_of(&root.join("bkt"), &path).as_deref(),
            Some("a/b/c.csv")
        );
        assert!(object_path(root, "bkt", "a/../../etc").is_err());
    }
}
