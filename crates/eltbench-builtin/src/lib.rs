//! The built-in suite's generated half: six original tasks (bike rental, clinic,
//! library, parcel logistics, retail store, SaaS billing) whose source data,
//! `config.yaml`, schema files and `source_row_counts.json` come from seeded
//! generators, so the same bytes come out on every machine.
//!
//! The generated files are committed under `suites/builtin/`; [`check`] proves
//! they are what the generator writes (a test runs it), [`write`] regenerates
//! them (`cargo run -p eltbench-builtin --example write_suite`). The
//! hand-written half (data models, gold dbt models, testing queries) and the
//! ground truth produced by running the gold (`eltbench tasks verify
//! --write-gt`) live beside them and are never touched here.

mod domains;
mod error;
mod seeded;
mod spec;
mod write;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use error::BuiltinError;
pub use spec::{Format, Place, Table, TaskSpec};

/// The built-in suite in this repository (`<repo>/suites/builtin`).
pub fn default_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../suites/builtin")
}

/// Every built-in task, sorted by database name.
pub fn tasks() -> Vec<TaskSpec> {
    domains::all()
}

/// Every generated file, by path relative to the suite root, with its bytes.
pub fn generated_files() -> BTreeMap<String, Vec<u8>> {
    write::render(&tasks())
}

/// Writes every generated file under `root`; the number written.
pub fn write(root: &Path) -> Result<usize, BuiltinError> {
    let files = generated_files();
    for (rel, bytes) in &files {
        put(&root.join(rel), bytes)?;
    }
    Ok(files.len())
}

/// Writes the generated files missing under `root` (existing ones are left
/// alone); the number written.
pub fn ensure_data(root: &Path) -> Result<usize, BuiltinError> {
    let mut written = 0;
    for (rel, bytes) in generated_files() {
        let path = root.join(rel);
        if !path.exists() {
            put(&path, &bytes)?;
            written += 1;
        }
    }
    Ok(written)
}

/// The generated files under `root` that are missing or differ from what the
/// generator writes, sorted; empty when the suite is up to date.
pub fn check(root: &Path) -> Vec<String> {
    generated_files()
        .into_iter()
        .filter(|(rel, bytes)| std::fs::read(root.join(rel)).ok().as_ref() != Some(bytes))
        .map(|(rel, _)| rel)
        .collect()
}

fn put(path: &Path, bytes: &[u8]) -> Result<(), BuiltinError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| BuiltinError::io(dir, e))?;
    }
    std::fs::write(path, bytes).map_err(|e| BuiltinError::io(path, e))
}
