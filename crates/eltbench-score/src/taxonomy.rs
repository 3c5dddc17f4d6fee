//! Why a model failed, in the paper's error categories: where its table is
//! (`not_built`, `wrong_schema`) and what is wrong with it
//! (`missing_columns`, `wrong_size`, `wrong_values`), plus `query_failed`
//! when the warehouse could not read it (a dbt view over a missing table).
//!
//! One category per model, the first that applies in that order. This module
//! never reads a warehouse: it classifies what others found.

use eltbench_warehouse::TableInfo;
use serde::{Deserialize, Serialize};

use crate::compare::FrameComparison;

/// The category of a model's failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ModelError {
    /// No relation with the model's name in any schema.
    NotBuilt,
    /// A relation with the model's name exists, but in another schema.
    WrongSchema {
        /// The schemas it was found in.
        found_in: Vec<String>,
    },
    /// The relation lacks ground-truth columns.
    MissingColumns {
        /// The missing columns, as the ground truth spells them.
        columns: Vec<String>,
    },
    /// The row count differs.
    WrongSize {
        /// Ground-truth rows.
        expected: usize,
        /// Model rows.
        actual: usize,
    },
    /// Values differ in these columns.
    WrongValues {
        /// The unmatched columns.
        columns: Vec<String>,
    },
    /// The warehouse could not read the relation.
    QueryFailed {
        /// The warehouse's message.
        message: String,
    },
}

impl ModelError {
    /// The category name, as serialized.
    pub fn name(&self) -> &'static str {
        match self {
            Self::NotBuilt => "not_built",
            Self::WrongSchema { .. } => "wrong_schema",
            Self::MissingColumns { .. } => "missing_columns",
            Self::WrongSize { .. } => "wrong_size",
            Self::WrongValues { .. } => "wrong_values",
            Self::QueryFailed { .. } => "query_failed",
        }
    }

    /// The category of a comparison's failure; `None` when it matched.
    pub fn of_comparison(comparison: &FrameComparison) -> Option<Self> {
        if !comparison.missing_columns.is_empty() {
            return Some(Self::MissingColumns {
                columns: comparison.missing_columns.clone(),
            });
        }
        if comparison.rows_expected != comparison.rows_actual {
            return Some(Self::WrongSize {
                expected: comparison.rows_expected,
                actual: comparison.rows_actual,
            });
        }
        if !comparison.unmatched_columns.is_empty() {
            return Some(Self::WrongValues {
                columns: comparison
                    .unmatched_columns
                    .iter()
                    .map(|c| c.column.clone())
                    .collect(),
            });
        }
        None
    }
}

/// Where a model's relation is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// At the expected `schema.name`.
    Found(TableInfo),
    /// Not there, but under the same name in other schemas.
    Elsewhere(Vec<String>),
    /// Nowhere.
    Absent,
}

/// Finds `schema.name` (case-insensitively) among `tables`.
pub fn locate(tables: &[TableInfo], schema: &str, name: &str) -> Location {
    if let Some(table) = tables.iter().find(|t| t.is(schema, name)) {
        return Location::Found(table.clone());
    }
    let elsewhere: Vec<String> = tables
        .iter()
        .filter(|t| t.name.eq_ignore_ascii_case(name))
        .map(|t| t.schema.clone())
        .collect();
    if elsewhere.is_empty() {
        Location::Absent
    } else {
        Location::Elsewhere(elsewhere)
    }
}

impl Location {
    /// The error a location implies, if any.
    pub fn error(&self) -> Option<ModelError> {
        match self {
            Self::Found(_) => None,
            Self::Elsewhere(schemas) => Some(ModelError::WrongSchema {
                found_in: schemas.clone(),
            }),
            Self::Absent => Some(ModelError::NotBuilt),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eltbench_warehouse::TableKind;

    fn table(schema: &str, name: &str) -> TableInfo {
        TableInfo {
            schema: schema.into(),
            name: name.into(),
            kind: TableKind::BaseTable,
        }
    }

    #[test]
    fn locates_case_insensitively_and_names_other_schemas() {
        let tables = [table("AIRBYTE_SCHEMA", "Orders"), table("main", "report")];
        assert!(matches!(
            locate(&tables, "airbyte_schema", "orders"),
            Location::Found(_)
        ));
        assert_eq!(
            locate(&tables, "airbyte_schema", "REPORT").error(),
            Some(ModelError::WrongSchema {
                found_in: vec!["main".into()]
            })
        );
        assert_eq!(
            locate(&tables, "airbyte_schema", "x").error(),
            Some(ModelError::NotBuilt)
        );
    }
}
