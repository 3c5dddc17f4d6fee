//! What a report needs to know about the suite: which source kind serves
//! each table of each task, to group stage-1 results by kind.
//!
//! Lookups are case-insensitive, as stage 1 matches tables. This module
//! only reads a loaded suite; it never loads files itself.

use std::collections::BTreeMap;

use eltbench_task::{SourceKind, Suite};

/// The source kind of every table of every task.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SuiteInfo {
    /// `db` → lower-cased table name → kind.
    kinds: BTreeMap<String, BTreeMap<String, SourceKind>>,
}

impl SuiteInfo {
    /// Every task's source tables.
    pub fn from_suite(suite: &Suite) -> Self {
        let mut info = Self::default();
        for task in suite.tasks() {
            for table in task.source_tables() {
                info.insert(&task.db, &table.name, table.kind);
            }
        }
        info
    }

    /// Records that `kind` serves `db`'s `table`.
    pub fn insert(&mut self, db: &str, table: &str, kind: SourceKind) {
        let tables = self.kinds.entry(db.to_owned()).or_default();
        tables.insert(table.to_lowercase(), kind);
    }

    /// The kind serving `db`'s `table`, if known.
    pub fn kind(&self, db: &str, table: &str) -> Option<SourceKind> {
        let tables = self.kinds.get(db)?;
        tables.get(&table.to_lowercase()).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn kinds_are_found_case_insensitively() {
        let mut info = SuiteInfo::default();
        info.insert("a", "Airlines", SourceKind::Postgres);
        assert_eq!(info.kind("a", "AIRLINES"), Some(SourceKind::Postgres));
        assert_eq!(info.kind("b", "airlines"), None);
        assert_eq!(info.kind("a", "other"), None);
    }

    #[test]
    fn reads_kinds_from_the_shared_suite() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench");
        let suite = Suite::load_lenient(&root).unwrap();
        let info = SuiteInfo::from_suite(&suite);
        let task = suite.tasks().next().unwrap();
        let table = &task.source_tables()[0];
        assert_eq!(
            info.kind(&task.db, &table.name.to_uppercase()),
            Some(table.kind)
        );
    }
}
