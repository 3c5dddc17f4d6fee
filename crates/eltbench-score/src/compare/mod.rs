//! Comparing one model's table with its ground truth: single values
//! ([`value`]), whole frames under the fixed rule ([`frame`]), and the
//! outcome types both rules report.
//!
//! Nothing here touches a warehouse or a file: callers hand in the ground
//! truth and the model's [`eltbench_warehouse::Frame`].

pub(crate) mod align;
pub(crate) mod frame;
pub(crate) mod temporal;
pub mod value;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

/// How the rows of both sides were put in correspondence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Alignment {
    /// Both sides sorted on the eval keys (numeric-aware), ties broken by the
    /// remaining ground-truth columns.
    EvalKeys {
        /// The key columns used, as the ground truth spells them.
        keys: Vec<String>,
    },
    /// The model has no eval keys: both sides sorted on whole rows. Flagged
    /// in reports, since the original could not score such a model this way.
    FullRow,
    /// The original scorer's way: the model in the warehouse's `ORDER BY`
    /// of the eval keys, the ground truth in file order.
    WarehouseOrder {
        /// The `ORDER BY` columns (empty: the warehouse's own order).
        order_by: Vec<String>,
    },
}

/// One key column's value in a differing row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyValue {
    /// Key column.
    pub column: String,
    /// Its ground-truth value (`None` = NULL).
    pub value: Option<String>,
}

/// The first row where a column differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowDiff {
    /// 0-based row index after alignment.
    pub row: usize,
    /// The ground-truth row's key values (empty when aligned by whole rows).
    pub key: Vec<KeyValue>,
    /// The ground-truth value.
    pub expected: Option<String>,
    /// The model's value.
    pub actual: Option<String>,
}

/// A ground-truth column the model does not reproduce.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnMismatch {
    /// The column, as the ground truth spells it.
    pub column: String,
    /// How many aligned rows differ (0 when the row counts differ and no
    /// rows were compared).
    pub rows_differing: usize,
    /// The first differing row (`None` when the row counts differ).
    pub first_diff: Option<RowDiff>,
}

/// The outcome of comparing one model with its ground truth.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameComparison {
    /// How rows were aligned.
    pub alignment: Alignment,
    /// Ground-truth rows.
    pub rows_expected: usize,
    /// Model rows.
    pub rows_actual: usize,
    /// Ground-truth columns the model matches.
    pub matched_columns: Vec<String>,
    /// Ground-truth columns it does not match.
    pub unmatched_columns: Vec<ColumnMismatch>,
    /// Ground-truth columns absent from the model (case-insensitive).
    pub missing_columns: Vec<String>,
    /// Ground-truth columns not scored (`columns_left_empty`).
    pub skipped_columns: Vec<String>,
}

impl FrameComparison {
    /// Every ground-truth column present and matching, and the same row count.
    pub fn matched(&self) -> bool {
        self.missing_columns.is_empty()
            && self.unmatched_columns.is_empty()
            && self.rows_expected == self.rows_actual
    }
}

/// Whether `name` is in `list`, compared case-insensitively.
pub(crate) fn contains_ignore_case(list: &[String], name: &str) -> bool {
    list.iter().any(|n| n.eq_ignore_ascii_case(name))
}
