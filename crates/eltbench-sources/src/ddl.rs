//! The DDL catalog: column types and primary keys the original PostgreSQL source tables
//! were created with (`postgres_ddl.json`, `{db: {table: {columns, primary_key}}}`).
//!
//! It only parses and looks up; it never decides how a table is loaded.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::types::ColumnType;

/// One column as the DDL declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DdlColumn {
    pub name: String,
    pub ty: ColumnType,
    pub not_null: bool,
}

/// One table as the DDL declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDdl {
    pub columns: Vec<DdlColumn>,
    pub primary_key: Vec<String>,
}

impl TableDdl {
    /// The declared column whose name equals `name` ignoring ASCII case (the original
    /// DDL used unquoted identifiers, which PostgreSQL folds to lower case).
    pub fn column(&self, name: &str) -> Option<&DdlColumn> {
        self.columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }
}

/// All declared tables, by database then table name.
#[derive(Clone, Debug, Default)]
pub struct DdlCatalog {
    tables: BTreeMap<String, BTreeMap<String, TableDdl>>,
}

/// Why the DDL file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum DdlError {
    #[error("cannot read DDL file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "DDL file {path} is not valid JSON of the form {{db: {{table: {{columns, primary_key}}}}}}: {source}"
    )]
    Parse {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("DDL file {path}: {db}.{table} column `{column}`: {source}")]
    Type {
        path: PathBuf,
        db: String,
        table: String,
        column: String,
        source: crate::types::UnknownType,
    },
}

#[derive(Deserialize)]
struct RawTable {
    columns: Vec<RawColumn>,
    #[serde(default)]
    primary_key: Vec<String>,
}

#[derive(Deserialize)]
struct RawColumn {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    not_null: bool,
}

type RawCatalog = BTreeMap<String, BTreeMap<String, RawTable>>;

impl DdlCatalog {
    /// Loads `postgres_ddl.json` (or a file of the same shape).
    pub fn load(path: &Path) -> Result<Self, DdlError> {
        let text = std::fs::read_to_string(path).map_err(|source| DdlError::Read {
            path: path.into(),
            source,
        })?;
        let raw: RawCatalog = serde_json::from_str(&text).map_err(|source| DdlError::Parse {
            path: path.into(),
            source,
        })?;
        let mut tables = BTreeMap::new();
        for (db, db_tables) in raw {
            let mut converted = BTreeMap::new();
            for (table, t) in db_tables {
                let ddl = convert_table(&t).map_err(|(column, source)| DdlError::Type {
                    path: path.into(),
                    db: db.clone(),
                    table: table.clone(),
                    column,
                    source,
                })?;
                converted.insert(table, ddl);
            }
            tables.insert(db, converted);
        }
        Ok(Self { tables })
    }

    /// The declaration of `db.table`, if the catalog has one.
    pub fn table(&self, db: &str, table: &str) -> Option<&TableDdl> {
        self.tables.get(db)?.get(table)
    }

    /// The declaration of `db.table`, the table name matched exactly, then ignoring
    /// ASCII case (configs and the DDL spell some names differently).
    pub fn table_ci(&self, db: &str, table: &str) -> Option<&TableDdl> {
        let tables = self.tables.get(db)?;
        tables.get(table).or_else(|| {
            tables
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(table))
                .map(|(_, ddl)| ddl)
        })
    }

    /// Database names, sorted.
    pub fn databases(&self) -> impl Iterator<Item = &str> {
        self.tables.keys().map(String::as_str)
    }
}

fn convert_table(raw: &RawTable) -> Result<TableDdl, (String, crate::types::UnknownType)> {
    let columns = raw
        .columns
        .iter()
        .map(|c| {
            let ty = ColumnType::parse_sql(&c.ty).map_err(|e| (c.name.clone(), e))?;
            Ok(DdlColumn {
                name: c.name.clone(),
                ty,
                not_null: c.not_null,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(TableDdl {
        columns,
        primary_key: raw.primary_key.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(json: &str) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), json).unwrap();
        f
    }

    #[test]
    fn loads_tables_and_matches_columns_case_insensitively() {
        let f = write(
            r#"{"db": {"t": {"columns": [{"name": "MEETS_THRESHOLD", "type": "BOOLEAN", "not_null": true}], "primary_key": ["MEETS_THRESHOLD"]}}}"#,
        );
        let cat = DdlCatalog::load(f.path()).unwrap();
        let t = cat.table("db", "t").unwrap();
        assert_eq!(t.column("meets_threshold").unwrap().ty, ColumnType::Boolean);
        assert!(t.column("meets_threshold").unwrap().not_null);
        assert!(cat.table("db", "other").is_none());
    }

    #[test]
    fn bad_type_names_the_table_and_column() {
        let f = write(
            r#"{"db": {"t": {"columns": [{"name": "c", "type": "BLOB", "not_null": false}], "primary_key": []}}}"#,
        );
        let err = DdlCatalog::load(f.path()).unwrap_err().to_string();
        assert!(
            err.contains("db.t column `c`") && err.contains("BLOB"),
            "{err}"
        );
    }

    #[test]
    fn the_reference_ddl_loads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/elt-bench/postgres_ddl.json");
        let cat = DdlCatalog::load(&path).unwrap();
        let event = cat.table("amplitude", "event").unwrap();
        assert_eq!(
            event.column("user_id").unwrap().ty,
            ColumnType::Varchar(Some(100))
        );
        assert_eq!(cat.databases().count(), 93);
    }
}
