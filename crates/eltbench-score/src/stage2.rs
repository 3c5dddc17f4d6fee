//! Stage 2 (SRDT) for one model: find its relation, read it, compare it with
//! the ground truth under the chosen rule, and classify any failure.
//!
//! The model is read from the eval key's table (`<db>.<schema>.<table>`),
//! else from `airbyte_schema.<model>`. This module reads only; whether the
//! result counts (the stage-1 gate, run-date buckets) is decided by callers.

use eltbench_task::{EvalKey, GroundTruth};
use eltbench_warehouse::{DEFAULT_SCHEMA, Frame, TableInfo, Warehouse, WarehouseError};
use serde::{Deserialize, Serialize};

use crate::compare::FrameComparison;
use crate::compare::frame::compare_fixed;
use crate::compat::{Compat, compare_original};
use crate::taxonomy::{ModelError, locate};

/// What scoring one model against the warehouse found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelOutcome {
    /// The relation read (`schema.table`), when found.
    pub relation: Option<String>,
    /// Why it failed; `None` when it matched.
    pub error: Option<ModelError>,
    /// The column-by-column comparison, when the relation could be read.
    pub comparison: Option<FrameComparison>,
}

impl ModelOutcome {
    /// Whether the model matched its ground truth.
    pub fn matched(&self) -> bool {
        self.error.is_none()
            && self
                .comparison
                .as_ref()
                .is_some_and(FrameComparison::matched)
    }
}

/// The `(schema, table)` a model is read from.
pub fn model_relation(model: &str, key: Option<&EvalKey>) -> (String, String) {
    let Some(table) = key.and_then(|k| k.table.as_deref()) else {
        return (DEFAULT_SCHEMA.to_string(), model.to_string());
    };
    let parts: Vec<&str> = table.split('.').collect();
    match parts.as_slice() {
        [.., schema, name] => ((*schema).to_string(), (*name).to_string()),
        _ => (DEFAULT_SCHEMA.to_string(), table.to_string()),
    }
}

/// Scores one model. `key` is its eval key (`order_by` `None` means the
/// original had no simple key: the fixed rule aligns whole rows); `skip` are
/// ground-truth columns not scored.
pub fn score_model(
    warehouse: &dyn Warehouse,
    model: &str,
    key: Option<&EvalKey>,
    gt: &GroundTruth,
    skip: &[String],
    compat: Compat,
) -> Result<ModelOutcome, WarehouseError> {
    let (schema, name) = model_relation(model, key);
    let location = locate(&warehouse.tables()?, &schema, &name);
    let crate::taxonomy::Location::Found(table) = location else {
        return Ok(ModelOutcome {
            relation: None,
            error: location.error(),
            comparison: None,
        });
    };
    let relation = Some(format!("{}.{}", table.schema, table.name));
    let order_by = key.and_then(|k| k.order_by.as_deref());
    let comparison = match read_and_compare(warehouse, &table, gt, order_by, skip, compat) {
        Ok(comparison) => comparison,
        Err(e) => {
            return Ok(ModelOutcome {
                relation,
                error: Some(ModelError::QueryFailed {
                    message: e.to_string(),
                }),
                comparison: None,
            });
        }
    };
    Ok(ModelOutcome {
        relation,
        error: ModelError::of_comparison(&comparison),
        comparison: Some(comparison),
    })
}

fn read_and_compare(
    warehouse: &dyn Warehouse,
    table: &TableInfo,
    gt: &GroundTruth,
    order_by: Option<&[String]>,
    skip: &[String],
    compat: Compat,
) -> Result<FrameComparison, WarehouseError> {
    match compat {
        Compat::Fixed => {
            let frame = warehouse.read_table(table, &[])?;
            Ok(compare_fixed(gt, &frame, order_by, skip))
        }
        Compat::Original => {
            let keys = order_by.unwrap_or_default();
            let frame = read_ordered(warehouse, table, keys)?;
            Ok(compare_original(gt, &frame, keys, skip))
        }
    }
}

/// Reads in `ORDER BY keys`; when a key column is absent (the original's
/// query would have failed) reads unordered, and the comparison then reports
/// the column as missing if the ground truth has it.
fn read_ordered(
    warehouse: &dyn Warehouse,
    table: &TableInfo,
    keys: &[String],
) -> Result<Frame, WarehouseError> {
    match warehouse.read_table(table, keys) {
        Err(WarehouseError::NoSuchColumn { .. }) => warehouse.read_table(table, &[]),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relation_comes_from_the_eval_key_table_or_the_model_name() {
        let key = EvalKey {
            table: Some("shop.Marts.orders_v".into()),
            order_by: None,
            note: None,
        };
        assert_eq!(
            model_relation("orders", Some(&key)),
            ("Marts".into(), "orders_v".into())
        );
        assert_eq!(
            model_relation("orders", None),
            ("airbyte_schema".into(), "orders".into())
        );
    }
}
