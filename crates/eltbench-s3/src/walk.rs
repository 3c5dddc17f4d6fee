//! Reading a bucket directory into listing entries, sorted by key.
//!
//! Blocking file-system code, meant to run on `spawn_blocking`. It only reads and must
//! never follow a path outside the bucket directory (symlinked directories are skipped).

use std::io;
use std::path::Path;

use crate::layout;
use crate::list::Entry;

/// Every object in `bucket_dir` whose key could start with `prefix`, sorted by key.
pub(crate) fn bucket_entries(bucket_dir: &Path, prefix: &str) -> io::Result<Vec<Entry>> {
    let mut out = Vec::new();
    walk(bucket_dir, bucket_dir, prefix, &mut out)?;
    out.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(out)
}

fn walk(bucket_dir: &Path, dir: &Path, prefix: &str, out: &mut Vec<Entry>) -> io::Result<()> {
    for item in std::fs::read_dir(dir)? {
        let item = item?;
        let path = item.path();
        let Some(key) = layout::key_of(bucket_dir, &path) else {
            continue;
        };
        let file_type = item.file_type()?;
        if file_type.is_dir() {
            let dir_prefix = format!("{key}/");
            if dir_prefix.starts_with(prefix) || prefix.starts_with(&dir_prefix) {
                walk(bucket_dir, &path, prefix, out)?;
            }
        } else if key.starts_with(prefix) {
            // Follows a symlinked file to its target's size, as a regular file would read.
            let meta = std::fs::metadata(&path)?;
            if meta.is_file() {
                out.push(Entry {
                    key,
                    size: meta.len(),
                    modified: meta.modified()?,
                    path,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::materialise::put_object;

    #[test]
    fn entries_are_sorted_and_pruned_by_prefix() {
        let root = tempfile::tempdir().unwrap();
        for key in ["b.csv", "a/2.csv", "a/1.csv", "c/skip.csv"] {
            put_object(root.path(), "bkt", key, key.as_bytes()).unwrap();
        }
        let dir = root.path().join("bkt");
        let all: Vec<String> = bucket_entries(&dir, "")
            .unwrap()
            .into_iter()
            .map(|e| e.key)
            .collect();
        assert_eq!(all, ["a/1.csv", "a/2.csv", "b.csv", "c/skip.csv"]);
        let a = bucket_entries(&dir, "a/").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].size, 7);
    }
}
