//! The plan of a task: for every source table its row count, and for every
//! column its type, NULL share and where its values come from ([`Source`]).
//!
//! Planning is pure: it reads the task, the row counts and the type hints,
//! never data files, and decides everything generation needs so that
//! generating a table depends only on `(seed, db, table plan)`.

use eltbench_task::{Suite, Task};

use crate::hints::{TableHint, TypeHints};
use crate::keys::{self, Draft, DraftColumn};
use crate::rules::{self, Flavor};
use crate::types::{Base, ColumnType};
use crate::{SynthError, SynthOptions, rows};

/// The plan of one task.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TaskPlan {
    /// The task's database name.
    pub db: String,
    /// Its source tables, in `config.yaml` order.
    pub tables: Vec<TablePlan>,
}

/// The plan of one source table.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TablePlan {
    /// Table name as `config.yaml` writes it.
    pub table: String,
    /// Rows to generate (the effective, capped count).
    pub rows: u64,
    /// Columns in schema-file order.
    pub columns: Vec<ColumnPlan>,
    /// Primary-key column names (empty: none known or inferred).
    pub primary_key: Vec<String>,
}

/// The plan of one column.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ColumnPlan {
    /// Column name as the schema file writes it.
    pub name: String,
    /// Its type.
    #[serde(rename = "type")]
    pub ty: ColumnType,
    /// Percentage of rows left NULL (0 for keys and non-null columns).
    pub null_percent: u8,
    /// Where its values come from.
    pub source: Source,
}

/// Another table's key column that a column's values are drawn from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Reference {
    /// The referenced table.
    pub table: String,
    /// Its key column.
    pub column: String,
    /// Its row count: values are its keys number `0..rows`.
    pub rows: u64,
}

/// Where a column's values come from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "source")]
pub enum Source {
    /// Random values of the column's type.
    Random,
    /// Key number `(row / divisor) % modulus` (no modulus: `row / divisor`)
    /// written in `format`: a primary-key part or a unique column.
    Key {
        /// Rows per step of this part.
        divisor: u64,
        /// Distinct values of this part (`None`: unbounded).
        modulus: Option<u64>,
        /// The type whose keys are written (the referenced key's, if any).
        format: ColumnType,
        /// The table whose keys these are, for a key that is also a foreign key.
        references: Option<Reference>,
    },
    /// A random key of another table.
    Foreign {
        /// The type of the referenced key.
        format: ColumnType,
        /// The referenced key.
        references: Reference,
    },
}

impl TablePlan {
    /// `(column, reference)` for every column whose values are another
    /// table's keys.
    pub fn foreign_keys(&self) -> Vec<(&str, &Reference)> {
        self.columns
            .iter()
            .filter_map(|c| match &c.source {
                Source::Foreign { references, .. }
                | Source::Key {
                    references: Some(references),
                    ..
                } => Some((c.name.as_str(), references)),
                _ => None,
            })
            .collect()
    }
}

/// Plans a task of `suite`.
pub fn plan_task(
    suite: &Suite,
    hints: &TypeHints,
    db: &str,
    options: &SynthOptions,
) -> Result<TaskPlan, SynthError> {
    let task = suite.task(db).ok_or_else(|| SynthError::NoTask {
        suite: suite.root().to_path_buf(),
        db: db.to_owned(),
    })?;
    let counts = rows::effective_row_counts(suite, db, options.max_rows)?;
    let drafts = task
        .source_tables()
        .into_iter()
        .map(|t| {
            let rows = counts.get(&t.name).copied().unwrap_or(0);
            draft(task, hints.table(db, &t.name), &t.name, rows)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let tables = keys::resolve(&drafts)
        .into_iter()
        .zip(drafts)
        .map(|(keys, draft)| table_plan(draft, keys, options.seed, db))
        .collect();
    Ok(TaskPlan {
        db: db.to_owned(),
        tables,
    })
}

fn draft(
    task: &Task,
    hint: Option<&TableHint>,
    table: &str,
    rows: u64,
) -> Result<Draft, SynthError> {
    let schema = task.schema(table).ok_or_else(|| SynthError::NoSchema {
        db: task.db.clone(),
        table: table.to_owned(),
    })?;
    let columns = schema
        .columns
        .iter()
        .map(|c| {
            draft_column(
                &c.name,
                &c.description,
                hint.and_then(|h| h.column(&c.name)),
            )
        })
        .collect();
    Ok(Draft {
        table: table.to_owned(),
        rows,
        columns,
        declared_key: hint.map(|h| h.primary_key.clone()).unwrap_or_default(),
    })
}

fn draft_column(
    name: &str,
    description: &str,
    hint: Option<&crate::hints::ColumnHint>,
) -> DraftColumn {
    let flavor = rules::classify(name, description);
    let base = hint.and_then(|h| h.base);
    let kind = base.map_or_else(|| flavor.default_kind(), |b: Base| b.resolve(flavor));
    DraftColumn {
        name: name.to_owned(),
        ty: ColumnType::new(kind, flavor, name),
        not_null: hint.is_some_and(|h| h.not_null),
        unique: hint.is_some_and(|h| h.unique),
    }
}

fn table_plan(draft: Draft, keys: keys::TableKeys, seed: u64, db: &str) -> TablePlan {
    let columns = draft
        .columns
        .into_iter()
        .zip(keys.sources)
        .map(|(column, source)| {
            let in_key = keys.primary_key.contains(&column.name);
            let nullable = !column.not_null && !in_key && source == Source::Random;
            let null_percent = if nullable {
                null_percent(seed, db, &draft.table, &column.name, column.ty.flavor)
            } else {
                0
            };
            ColumnPlan {
                name: column.name,
                ty: column.ty,
                null_percent,
                source,
            }
        })
        .collect();
    TablePlan {
        table: draft.table,
        rows: draft.rows,
        columns,
        primary_key: keys.primary_key,
    }
}

/// One nullable column in four (chosen by a hash of its name and the seed)
/// gets 5% NULLs; flags and ids never do.
fn null_percent(seed: u64, db: &str, table: &str, column: &str, flavor: Flavor) -> u8 {
    if matches!(flavor, Flavor::Flag | Flavor::Id) {
        return 0;
    }
    let hash = crate::seed::stable_hash(seed, &[db, table, column, "nulls"]);
    if hash.is_multiple_of(4) { 5 } else { 0 }
}
