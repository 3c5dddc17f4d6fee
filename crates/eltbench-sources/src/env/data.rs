//! Finding and reading a task's canonical tables: `<suite>/data/<db>/<table>.csv`, or,
//! with a data-directory override (synthetic data), `<dir>/<db>/<table>.csv` when
//! `<dir>/<db>/` exists and `<dir>/<table>.csv` otherwise. File names match the
//! config's table names exactly, then ignoring ASCII case. Every table is read (and
//! every row checked) before anything starts, so bad data fails fast and leaves
//! nothing running. This module never writes.

use std::path::{Path, PathBuf};

use eltbench_task::{SourceKind, Suite, Task};

use super::EnvError;
use crate::ddl::DdlCatalog;
use crate::rest::RestStreams;
use crate::table::Table;

/// The suite-level metadata files read when present.
const DDL_FILE: &str = "postgres_ddl.json";
const STREAMS_FILE: &str = "rest_api_streams.json";

/// A task's tables, by source kind, in config order.
#[derive(Debug, Default)]
pub struct TaskTables {
    pub tables: Vec<(SourceKind, Table)>,
}

impl TaskTables {
    /// The table of `kind` called `name` (as the config spells it).
    pub fn get(&self, kind: SourceKind, name: &str) -> Option<&Table> {
        self.tables
            .iter()
            .find(|(k, t)| *k == kind && t.name == name)
            .map(|(_, t)| t)
    }

    /// Every table of `kind`.
    pub fn of_kind(&self, kind: SourceKind) -> impl Iterator<Item = &Table> {
        self.tables
            .iter()
            .filter(move |(k, _)| *k == kind)
            .map(|(_, t)| t)
    }

    /// Total number of rows.
    pub fn rows(&self) -> usize {
        self.tables.iter().map(|(_, t)| t.len()).sum()
    }
}

/// The directory holding the task's CSV files.
pub fn data_dir(suite: &Suite, db: &str, override_dir: Option<&Path>) -> PathBuf {
    match override_dir {
        Some(dir) if dir.join(db).is_dir() => dir.join(db),
        Some(dir) => dir.to_path_buf(),
        None => suite.root().join("data").join(db),
    }
}

/// `<dir>/<table>.csv`, or a file whose stem equals `table` ignoring ASCII case.
pub fn find_csv(dir: &Path, table: &str) -> Option<PathBuf> {
    let exact = dir.join(format!("{table}.csv"));
    if exact.is_file() {
        return Some(exact);
    }
    let entries = std::fs::read_dir(dir).ok()?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "csv")
                && p.file_stem()
                    .and_then(|s| s.to_str())
                    .is_some_and(|s| s.eq_ignore_ascii_case(table))
        })
        .collect();
    found.sort();
    found.into_iter().next()
}

/// The suite's DDL catalog, when it has `postgres_ddl.json`.
pub fn catalog(suite: &Suite) -> Result<Option<DdlCatalog>, EnvError> {
    let path = suite.root().join(DDL_FILE);
    Ok(path
        .is_file()
        .then(|| DdlCatalog::load(&path))
        .transpose()?)
}

/// The suite's REST stream schemas, when it has `rest_api_streams.json`.
pub fn streams(suite: &Suite) -> Result<RestStreams, EnvError> {
    let path = suite.root().join(STREAMS_FILE);
    if !path.is_file() {
        return Ok(RestStreams::default());
    }
    Ok(RestStreams::load(&path)?)
}

/// Reads every source table of `task` from `dir`, typed with `catalog`.
pub fn read_tables(
    task: &Task,
    dir: &Path,
    catalog: Option<&DdlCatalog>,
) -> Result<TaskTables, EnvError> {
    let mut out = TaskTables::default();
    for source in task.source_tables() {
        let path = find_csv(dir, &source.name).ok_or_else(|| EnvError::MissingData {
            db: task.db.clone(),
            table: source.name.clone(),
            looked: dir.join(format!("{}.csv", source.name)),
        })?;
        let ddl = catalog.and_then(|c| c.table_ci(&task.db, &source.name));
        let table = crate::read_table(&path, &source.name, ddl)?;
        out.tables.push((source.kind, table));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_files_match_exactly_then_ignoring_case() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Airlines.csv"), "a\n").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "").unwrap();
        let found = find_csv(dir.path(), "airlines").unwrap();
        assert_eq!(found.file_name().unwrap(), "Airlines.csv");
        assert!(find_csv(dir.path(), "notes").is_none());
        assert!(find_csv(&dir.path().join("missing"), "a").is_none());
    }
}
