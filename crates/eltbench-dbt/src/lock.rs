//! An exclusive lock on a file, held across processes while a virtualenv is
//! being created, so two eltbench processes racing on the same home install once.
//!
//! Uses the operating system's advisory file lock (`flock` on Linux): the lock is
//! released when the guard drops or the process dies. Never deletes the lock file
//! (deleting it while another process waits would split the lock in two).

use std::fs::{File, OpenOptions};
use std::path::Path;

use crate::DbtError;

/// Holds the lock until dropped.
#[derive(Debug)]
pub(crate) struct LockGuard {
    _file: File,
}

/// Blocks until the exclusive lock on `path` is held (the file is created if needed).
pub(crate) fn lock_exclusive(path: &Path) -> Result<LockGuard, DbtError> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(DbtError::io("cannot open the lock file", path))?;
    file.lock().map_err(DbtError::io("cannot lock", path))?;
    Ok(LockGuard { _file: file })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[test]
    fn holders_never_overlap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let inside = Arc::new(AtomicUsize::new(0));
        let max_seen = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (path, inside, max_seen) = (path.clone(), inside.clone(), max_seen.clone());
                std::thread::spawn(move || {
                    let _guard = lock_exclusive(&path).unwrap();
                    let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                    max_seen.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(30));
                    inside.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(max_seen.load(Ordering::SeqCst), 1);
    }
}
