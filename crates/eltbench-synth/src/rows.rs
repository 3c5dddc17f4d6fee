//! Effective row counts: `source_row_counts.json`, capped per table.
//!
//! The capped count is what a generated suite expects at stage 1, so the
//! same function decides how many rows are generated and what is written to
//! the generated suite's `source_row_counts.json`.

use std::collections::BTreeMap;

use eltbench_task::Suite;

use crate::SynthError;

/// `table => rows` for every source table of task `db` (names as
/// `config.yaml` writes them), each capped at `max_rows` when given.
pub fn effective_row_counts(
    suite: &Suite,
    db: &str,
    max_rows: Option<u64>,
) -> Result<BTreeMap<String, u64>, SynthError> {
    let task = suite.task(db).ok_or_else(|| SynthError::NoTask {
        suite: suite.root().to_path_buf(),
        db: db.to_owned(),
    })?;
    let mut counts = BTreeMap::new();
    for table in task.source_tables() {
        let rows =
            suite
                .expected_rows_for(db, &table.name)
                .ok_or_else(|| SynthError::NoRowCount {
                    db: db.to_owned(),
                    table: table.name.clone(),
                })?;
        counts.insert(table.name, max_rows.map_or(rows, |cap| rows.min(cap)));
    }
    Ok(counts)
}
