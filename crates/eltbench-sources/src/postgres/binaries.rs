//! Finding the PostgreSQL server programs (`initdb`, `pg_ctl`, `postgres`).
//!
//! Order: `pg_config --bindir`, then each `PATH` entry, then the newest
//! `/usr/lib/postgresql/<version>/bin` (the Debian layout). A directory counts only if
//! it holds all three programs. This module only looks; it never installs anything.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::PgError;

/// The programs the cluster guard runs.
pub const PROGRAMS: [&str; 3] = ["initdb", "pg_ctl", "postgres"];

/// Where the server programs live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgBinaries {
    pub bindir: PathBuf,
}

impl PgBinaries {
    /// Finds a directory with all server programs, or says which package to install.
    pub fn locate() -> Result<Self, PgError> {
        let candidates = candidate_dirs();
        match candidates.iter().find(|d| has_all_programs(d)) {
            Some(dir) => Ok(Self {
                bindir: dir.clone(),
            }),
            None => Err(PgError::BinariesMissing {
                searched: candidates
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }

    /// The full path of one program (`initdb`, `pg_ctl`, `postgres`).
    pub fn program(&self, name: &str) -> PathBuf {
        self.bindir.join(name)
    }
}

fn candidate_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = pg_config_bindir().into_iter().collect();
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.extend(debian_bindirs(Path::new("/usr/lib/postgresql")));
    dirs
}

fn pg_config_bindir() -> Option<PathBuf> {
    let out = Command::new("pg_config").arg("--bindir").output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    out.status.success().then(|| PathBuf::from(text.trim()))
}

/// `<root>/<version>/bin`, newest version first.
fn debian_bindirs(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut versions: Vec<(Vec<u32>, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let key: Option<Vec<u32>> = name.split('.').map(|p| p.parse().ok()).collect();
            Some((key?, e.path().join("bin")))
        })
        .collect();
    versions.sort_by(|a, b| b.0.cmp(&a.0));
    versions.into_iter().map(|(_, dir)| dir).collect()
}

fn has_all_programs(dir: &Path) -> bool {
    PROGRAMS.iter().all(|p| dir.join(p).is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_debian_version_comes_first() {
        let root = tempfile::tempdir().unwrap();
        for v in ["9.6", "15", "13", "notes"] {
            std::fs::create_dir_all(root.path().join(v).join("bin")).unwrap();
        }
        let dirs = debian_bindirs(root.path());
        let names: Vec<_> = dirs
            .iter()
            .map(|d| d.parent().unwrap().file_name().unwrap().to_owned())
            .collect();
        assert_eq!(names, ["15", "13", "9.6"]);
    }

    #[test]
    fn a_directory_needs_every_program() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("initdb"), "").unwrap();
        assert!(!has_all_programs(dir.path()));
        std::fs::write(dir.path().join("pg_ctl"), "").unwrap();
        std::fs::write(dir.path().join("postgres"), "").unwrap();
        assert!(has_all_programs(dir.path()));
    }
}
