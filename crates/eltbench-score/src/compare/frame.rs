//! The fixed rule over whole frames: every ground-truth column present
//! (case-insensitive, extra model columns allowed), the same row count, and
//! every value matching after both sides are sorted with one comparator.
//!
//! The verdict must never depend on the physical row order, the database's
//! collation or its NULL ordering: both sides go through [`sorted_rows`].

use eltbench_task::GroundTruth;
use eltbench_warehouse::Frame;

use super::align::{ColumnPlan, sorted_rows};
use super::value::values_match;
use super::{Alignment, ColumnMismatch, FrameComparison, KeyValue, RowDiff};

/// Compares `model` with `gt` under the fixed rule. `order_by` are the eval
/// keys (`None`: none known, rows are aligned on whole rows); `skip` are the
/// ground-truth columns not scored.
pub fn compare_fixed(
    gt: &GroundTruth,
    model: &Frame,
    order_by: Option<&[String]>,
    skip: &[String],
) -> FrameComparison {
    let plan = ColumnPlan::new(&gt.header, model, skip);
    let keys = order_by
        .map(|k| plan.key_positions(&gt.header, k))
        .unwrap_or_default();
    let alignment = match order_by {
        Some(_) => Alignment::EvalKeys {
            keys: keys
                .iter()
                .map(|p| gt.header[plan.compared[*p].0].clone())
                .collect(),
        },
        None => Alignment::FullRow,
    };
    let order = plan.sort_order(&keys);
    let gt_columns: Vec<usize> = order.iter().map(|p| plan.compared[*p].0).collect();
    let model_columns: Vec<usize> = order.iter().map(|p| plan.compared[*p].1).collect();
    let aligned = Aligned {
        gt,
        model,
        gt_order: sorted_rows(&gt.rows, &gt_columns),
        model_order: sorted_rows(&model.rows, &model_columns),
        key_columns: keys.iter().map(|p| plan.compared[*p].0).collect(),
    };
    let mut outcome = FrameComparison {
        alignment,
        rows_expected: gt.rows.len(),
        rows_actual: model.rows.len(),
        matched_columns: Vec::new(),
        unmatched_columns: Vec::new(),
        missing_columns: plan.missing.clone(),
        skipped_columns: plan.skipped.clone(),
    };
    for &(gt_index, model_index) in &plan.compared {
        let name = gt.header[gt_index].clone();
        match aligned.column_mismatch(gt_index, model_index) {
            None => outcome.matched_columns.push(name),
            Some(mut mismatch) => {
                mismatch.column = name;
                outcome.unmatched_columns.push(mismatch);
            }
        }
    }
    outcome
}

/// Both sides with their sorted row orders.
struct Aligned<'a> {
    gt: &'a GroundTruth,
    model: &'a Frame,
    gt_order: Vec<usize>,
    model_order: Vec<usize>,
    key_columns: Vec<usize>,
}

impl Aligned<'_> {
    /// `None` when the column matches on every aligned row.
    fn column_mismatch(&self, gt_index: usize, model_index: usize) -> Option<ColumnMismatch> {
        let mut mismatch = ColumnMismatch {
            column: String::new(),
            rows_differing: 0,
            first_diff: None,
        };
        if self.gt_order.len() != self.model_order.len() {
            return Some(mismatch);
        }
        for (row, (&g, &m)) in self.gt_order.iter().zip(&self.model_order).enumerate() {
            let expected = cell(&self.gt.rows[g], gt_index);
            let actual = cell(&self.model.rows[m], model_index);
            if values_match(expected, actual) {
                continue;
            }
            mismatch.rows_differing += 1;
            if mismatch.first_diff.is_none() {
                mismatch.first_diff = Some(self.diff(row, g, expected, actual));
            }
        }
        (mismatch.rows_differing > 0).then_some(mismatch)
    }

    fn diff(&self, row: usize, g: usize, expected: Option<&str>, actual: Option<&str>) -> RowDiff {
        let key = self
            .key_columns
            .iter()
            .map(|&k| KeyValue {
                column: self.gt.header[k].clone(),
                value: cell(&self.gt.rows[g], k).map(str::to_string),
            })
            .collect();
        RowDiff {
            row,
            key,
            expected: expected.map(str::to_string),
            actual: actual.map(str::to_string),
        }
    }
}

/// A cell's text (`None` for NULL or a short row).
pub(crate) fn cell(row: &[Option<String>], index: usize) -> Option<&str> {
    row.get(index).and_then(|v| v.as_deref())
}
