//! ETags: the hex MD5 of an object's bytes, as S3 gives for single-part uploads.
//!
//! Objects can be written straight to disk, so the MD5 is computed on first use and kept
//! per (path, length, mtime); this module must never return a cached ETag for a file
//! that changed since.

use std::collections::HashMap;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use s3s::crypto::{Checksum, Md5};

/// The identity of one version of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub len: u64,
    pub modified: SystemTime,
}

impl Stamp {
    pub(crate) fn of(meta: &std::fs::Metadata) -> io::Result<Self> {
        Ok(Self {
            len: meta.len(),
            modified: meta.modified()?,
        })
    }
}

/// MD5s of the files served, keyed by path and valid for one [`Stamp`].
#[derive(Debug, Default)]
pub(crate) struct EtagCache {
    known: Mutex<HashMap<PathBuf, (Stamp, String)>>,
}

impl EtagCache {
    /// The ETag of `path` as it is at `stamp`, computing it when not known.
    pub(crate) async fn etag(&self, path: &Path, stamp: Stamp) -> io::Result<String> {
        if let Some(etag) = self.lookup(path, &stamp) {
            return Ok(etag);
        }
        let owned = path.to_path_buf();
        let etag = tokio::task::spawn_blocking(move || md5_file(&owned))
            .await
            .map_err(io::Error::other)??;
        self.remember(path, stamp, etag.clone());
        Ok(etag)
    }

    /// Records the ETag of a file this process just wrote.
    pub(crate) fn remember(&self, path: &Path, stamp: Stamp, etag: String) {
        if let Ok(mut known) = self.known.lock() {
            known.insert(path.to_path_buf(), (stamp, etag));
        }
    }

    /// Drops what is known about `path` (after a delete).
    pub(crate) fn forget(&self, path: &Path) {
        if let Ok(mut known) = self.known.lock() {
            known.remove(path);
        }
    }

    fn lookup(&self, path: &Path, stamp: &Stamp) -> Option<String> {
        let known = self.known.lock().ok()?;
        let (seen, etag) = known.get(path)?;
        (seen == stamp).then(|| etag.clone())
    }
}

/// Lower-case hex of 16 digest bytes.
pub(crate) fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn md5_file(path: &Path) -> io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut md5 = Md5::new();
    let mut buf = vec![0; 1 << 20];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            return Ok(hex(&md5.finalize()));
        }
        md5.update(&buf[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn etag_is_md5_and_follows_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"hello").unwrap();
        let cache = EtagCache::default();
        let stamp = Stamp::of(&std::fs::metadata(&path).unwrap()).unwrap();
        let etag = cache.etag(&path, stamp).await.unwrap();
        assert_eq!(etag, "5d41402abc4b2a76b9719d911017c592");

        std::fs::write(&path, b"hello world").unwrap();
        let stamp = Stamp::of(&std::fs::metadata(&path).unwrap()).unwrap();
        let etag = cache.etag(&path, stamp).await.unwrap();
        assert_eq!(etag, "5eb63bbbe01eeed093cb22bb8f5acdc3");
    }
}
