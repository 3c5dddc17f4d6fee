//! Which ground-truth columns are compared with which model columns, and the
//! order rows are sorted in before comparing.
//!
//! Column names match case-insensitively (the original upper-cased every
//! name on Snowflake). This module never compares values.

use std::cmp::Ordering;

use eltbench_warehouse::Frame;

use super::contains_ignore_case;
use super::value::SortKey;

/// The columns one comparison covers.
#[derive(Debug, Clone, Default)]
pub(crate) struct ColumnPlan {
    /// `(ground-truth index, model index)` of every compared column, in
    /// ground-truth order.
    pub compared: Vec<(usize, usize)>,
    /// Ground-truth columns the model lacks.
    pub missing: Vec<String>,
    /// Ground-truth columns not scored.
    pub skipped: Vec<String>,
}

impl ColumnPlan {
    /// Matches every ground-truth column to a model column.
    pub(crate) fn new(header: &[String], model: &Frame, skip: &[String]) -> Self {
        let mut plan = Self::default();
        for (gt_index, name) in header.iter().enumerate() {
            if contains_ignore_case(skip, name) {
                plan.skipped.push(name.clone());
            } else if let Some(model_index) = model.column_index(name) {
                plan.compared.push((gt_index, model_index));
            } else {
                plan.missing.push(name.clone());
            }
        }
        plan
    }

    /// Positions in [`Self::compared`] of the eval keys that are compared
    /// columns (a skipped or missing key cannot order anything), deduplicated.
    pub(crate) fn key_positions(&self, header: &[String], keys: &[String]) -> Vec<usize> {
        let mut positions = Vec::new();
        for key in keys {
            let found = self
                .compared
                .iter()
                .position(|(gt, _)| header[*gt].eq_ignore_ascii_case(key));
            if let Some(p) = found.filter(|p| !positions.contains(p)) {
                positions.push(p);
            }
        }
        positions
    }

    /// The sort order: key positions first, then every other compared column.
    pub(crate) fn sort_order(&self, keys: &[usize]) -> Vec<usize> {
        let rest = (0..self.compared.len()).filter(|p| !keys.contains(p));
        keys.iter().copied().chain(rest).collect()
    }
}

/// Row indices of `rows` sorted by the [`SortKey`]s of the cells at
/// `columns` (indices into each row), in that priority.
pub(crate) fn sorted_rows(rows: &[Vec<Option<String>>], columns: &[usize]) -> Vec<usize> {
    let keys: Vec<Vec<SortKey>> = rows
        .iter()
        .map(|row| {
            columns
                .iter()
                .map(|c| SortKey::of(row.get(*c).and_then(|v| v.as_deref())))
                .collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|a, b| compare_keys(&keys[*a], &keys[*b]));
    order
}

fn compare_keys(a: &[SortKey], b: &[SortKey]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.cmp(y))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(data: &[&[&str]]) -> Vec<Vec<Option<String>>> {
        data.iter()
            .map(|r| {
                r.iter()
                    .map(|v| (!v.is_empty()).then(|| v.to_string()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn sorts_numerically_with_nulls_first_and_breaks_ties_on_later_columns() {
        let data = rows(&[&["10", "b"], &["9", "z"], &["", "q"], &["10", "a"]]);
        assert_eq!(sorted_rows(&data, &[0, 1]), vec![2, 1, 3, 0]);
    }
}
