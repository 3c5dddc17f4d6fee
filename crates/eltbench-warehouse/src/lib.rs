//! The destination warehouse that extract-load writes into, dbt transforms in,
//! and the scorer reads from.
//!
//! Callers see the [`Warehouse`] trait only: a catalog named after the task's
//! database (`<db>`), schemas and tables inside it matched case-insensitively
//! (the original ELT-Bench upper-cased every name on Snowflake), and table
//! contents as a [`Frame`] of typed columns with values in their textual form.
//! DuckDB ([`DuckDbWarehouse`]) is the one backend today; PostgreSQL or
//! Snowflake come in by implementing the trait, without touching callers.
//!
//! This crate must never decide whether a value is *right*: that is the
//! scorer's job. It only reports what is there.

mod duckdb_backend;
mod error;
mod frame;

pub use duckdb_backend::{Access, DuckDbWarehouse};
pub use error::WarehouseError;
pub use frame::{ColumnInfo, Frame, ValueKind};

/// The schema the original ELT-Bench loads into and reads models from.
pub const DEFAULT_SCHEMA: &str = "airbyte_schema";

/// Whether a relation is a stored table or a view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TableKind {
    /// `BASE TABLE` in `information_schema.tables`.
    BaseTable,
    /// A view (dbt's default materialization).
    View,
    /// Anything else the backend reports (temporary tables, ...).
    Other,
}

/// One relation in the warehouse, with its names as stored.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TableInfo {
    /// Schema as stored (case preserved).
    pub schema: String,
    /// Table name as stored (case preserved).
    pub name: String,
    /// Base table, view or other.
    pub kind: TableKind,
}

impl TableInfo {
    /// Whether this relation is `schema.name`, compared case-insensitively.
    pub fn is(&self, schema: &str, name: &str) -> bool {
        self.schema.eq_ignore_ascii_case(schema) && self.name.eq_ignore_ascii_case(name)
    }
}

/// A task's warehouse: one catalog named after the task's database.
///
/// Every name argument is matched case-insensitively. Implementations must
/// quote identifiers themselves; callers pass plain names.
pub trait Warehouse {
    /// Short backend name for reports (`duckdb`).
    fn backend(&self) -> &'static str;

    /// The catalog name (`<db>`), as in `SELECT * FROM <db>.airbyte_schema.t`.
    fn database(&self) -> &str;

    /// Every relation in every schema of the catalog, sorted by schema then name.
    fn tables(&self) -> Result<Vec<TableInfo>, WarehouseError>;

    /// The relations of one schema (case-insensitive), sorted by name.
    fn tables_in(&self, schema: &str) -> Result<Vec<TableInfo>, WarehouseError> {
        Ok(self
            .tables()?
            .into_iter()
            .filter(|t| t.schema.eq_ignore_ascii_case(schema))
            .collect())
    }

    /// Finds `schema.name` case-insensitively.
    fn find_table(&self, schema: &str, name: &str) -> Result<Option<TableInfo>, WarehouseError> {
        Ok(self.tables()?.into_iter().find(|t| t.is(schema, name)))
    }

    /// `SELECT count(*)` of a relation.
    fn row_count(&self, table: &TableInfo) -> Result<u64, WarehouseError>;

    /// Reads a whole relation, `ORDER BY` the given columns (matched
    /// case-insensitively; an empty list keeps the backend's order).
    fn read_table(&self, table: &TableInfo, order_by: &[String]) -> Result<Frame, WarehouseError>;
}
