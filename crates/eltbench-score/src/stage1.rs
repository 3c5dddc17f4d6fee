//! Stage 1 (SRDEL) for one task: every expected source table is a base table
//! in `airbyte_schema` (case-insensitive) with exactly the expected row count,
//! as the original's `eva_stage1.py` checked on Snowflake.
//!
//! This module only reads the warehouse; it never repairs or writes.

use std::collections::BTreeMap;

use eltbench_warehouse::{DEFAULT_SCHEMA, TableKind, Warehouse, WarehouseError};
use serde::{Deserialize, Serialize};

/// One expected source table's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum TableStatus {
    /// Present with the expected row count.
    Ok {
        /// Its rows.
        rows: u64,
    },
    /// No relation of that name in `airbyte_schema`.
    Missing,
    /// Present with another row count (a sync run twice doubles it).
    WrongCount {
        /// Expected rows.
        expected: u64,
        /// Rows found.
        actual: u64,
    },
    /// Present, but as a view (the original listed base tables only).
    NotBaseTable,
}

/// The stage-1 verdict of one task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stage1Score {
    /// Every expected table is [`TableStatus::Ok`] (false when none is expected).
    pub passed: bool,
    /// Per expected table, by name (absent in a record: empty).
    #[serde(default)]
    pub tables: BTreeMap<String, TableStatus>,
}

impl Stage1Score {
    /// The verdict for a task whose warehouse could not be read.
    pub fn unavailable() -> Self {
        Self {
            passed: false,
            tables: BTreeMap::new(),
        }
    }

    /// The tables that are not [`TableStatus::Ok`].
    pub fn problems(&self) -> impl Iterator<Item = (&String, &TableStatus)> {
        self.tables
            .iter()
            .filter(|(_, s)| !matches!(s, TableStatus::Ok { .. }))
    }
}

/// Checks every table of `expected` (`{table: rows}`) in `warehouse`.
pub fn score_stage1(
    warehouse: &dyn Warehouse,
    expected: &BTreeMap<String, u64>,
) -> Result<Stage1Score, WarehouseError> {
    let present = warehouse.tables_in(DEFAULT_SCHEMA)?;
    let mut tables = BTreeMap::new();
    for (name, &rows) in expected {
        let found = present.iter().find(|t| t.name.eq_ignore_ascii_case(name));
        let status = match found {
            None => TableStatus::Missing,
            Some(t) if t.kind != TableKind::BaseTable => TableStatus::NotBaseTable,
            Some(t) => match warehouse.row_count(t)? {
                actual if actual == rows => TableStatus::Ok { rows },
                actual => TableStatus::WrongCount {
                    expected: rows,
                    actual,
                },
            },
        };
        tables.insert(name.clone(), status);
    }
    let passed = !tables.is_empty() && tables.values().all(|s| matches!(s, TableStatus::Ok { .. }));
    Ok(Stage1Score { passed, tables })
}

#[cfg(test)]
mod tests {
    use super::*;
    use eltbench_warehouse::{Access, DuckDbWarehouse};

    #[test]
    fn reports_each_kind_of_table_problem() {
        let dir = tempfile::tempdir().unwrap();
        let wh =
            DuckDbWarehouse::open(&dir.path().join("t.duckdb"), "t", Access::ReadWrite).unwrap();
        wh.execute_batch(
            "CREATE SCHEMA AIRBYTE_SCHEMA; \
             CREATE TABLE AIRBYTE_SCHEMA.USERS AS SELECT * FROM range(3); \
             CREATE TABLE airbyte_schema.events AS SELECT * FROM range(4); \
             CREATE VIEW airbyte_schema.tags AS SELECT 1 AS x;",
        )
        .unwrap();
        let expected: BTreeMap<String, u64> =
            [("users", 3), ("events", 2), ("tags", 1), ("orders", 5)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
        let score = score_stage1(&wh, &expected).unwrap();
        assert!(!score.passed);
        assert_eq!(score.tables["users"], TableStatus::Ok { rows: 3 });
        assert_eq!(
            score.tables["events"],
            TableStatus::WrongCount {
                expected: 2,
                actual: 4
            }
        );
        assert_eq!(score.tables["tags"], TableStatus::NotBaseTable);
        assert_eq!(score.tables["orders"], TableStatus::Missing);

        let only_users: BTreeMap<String, u64> = [("users".to_string(), 3)].into();
        assert!(score_stage1(&wh, &only_users).unwrap().passed);
    }
}
