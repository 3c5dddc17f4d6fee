//! Bytes held by the writable directories, for the disk-written limit. Walks without
//! following symlinks; unreadable entries count as empty. Must never modify anything.

use std::path::{Path, PathBuf};

/// Total apparent size of the regular files under `roots`. Iterative, so a hostile
/// directory nesting cannot overflow the supervisor's stack.
pub(crate) fn usage<P: AsRef<Path>>(roots: &[P]) -> u64 {
    let mut pending: Vec<PathBuf> = roots.iter().map(|r| r.as_ref().to_path_buf()).collect();
    let mut total = 0;
    while let Some(path) = pending.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_file() {
            total += meta.len();
        } else if meta.is_dir()
            && let Ok(entries) = std::fs::read_dir(&path)
        {
            pending.extend(entries.flatten().map(|e| e.path()));
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_files_without_following_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("a")).unwrap();
        std::fs::write(dir.path().join("a/f"), vec![0u8; 1000]).unwrap();
        std::fs::write(dir.path().join("g"), vec![0u8; 24]).unwrap();
        std::os::unix::fs::symlink("/usr", dir.path().join("link")).unwrap();
        assert_eq!(usage(&[dir.path()]), 1024);
    }
}
