//! Helpers shared by the integration tests: the reference suite, clusters, and the
//! normalisation used to compare values read back from PostgreSQL with the CSV.
#![allow(dead_code)]

pub mod clients;
pub mod normalise;
pub mod pyclients;
pub mod readback;

use std::path::PathBuf;

use eltbench_sources::{PgCluster, PgClusterOptions};

/// `../shared/elt-bench` relative to the repository root.
pub fn suite() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench")
}

/// A started cluster in a fresh temporary run directory (kept alive by the returned dir).
pub fn start_cluster() -> (tempfile::TempDir, PgCluster) {
    let dir = tempfile::tempdir().unwrap();
    let cluster = PgCluster::start(&dir.path().join("pg"), PgClusterOptions::default()).unwrap();
    (dir, cluster)
}

/// Pids of processes whose working directory or command line mentions `data_dir`.
pub fn processes_of(data_dir: &std::path::Path) -> Vec<i32> {
    let needle = data_dir.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|c| c == data_dir);
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            cwd || String::from_utf8_lossy(&cmdline).contains(&needle)
        })
        .collect()
}
