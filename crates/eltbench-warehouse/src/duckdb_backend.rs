//! DuckDB: one database file per task, attached under the catalog `<db>`.

use std::path::{Path, PathBuf};

use duckdb::Connection;

use crate::{ColumnInfo, Frame, TableInfo, TableKind, ValueKind, Warehouse, WarehouseError};

/// How a warehouse file is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Read-only, as the scorer opens it: the file must exist and nothing is written.
    ReadOnly,
    /// Read-write; the file is created when missing.
    ReadWrite,
}

/// A task's DuckDB warehouse file, attached as catalog `<db>`.
pub struct DuckDbWarehouse {
    conn: Connection,
    database: String,
    path: PathBuf,
}

impl std::fmt::Debug for DuckDbWarehouse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DuckDbWarehouse")
            .field("database", &self.database)
            .field("path", &self.path)
            .finish()
    }
}

/// Quotes an identifier for DuckDB.
pub(crate) fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Quotes a string literal for DuckDB.
pub(crate) fn quote_literal(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

impl DuckDbWarehouse {
    /// Opens `path` and attaches it as catalog `database`.
    pub fn open(path: &Path, database: &str, access: Access) -> Result<Self, WarehouseError> {
        if access == Access::ReadOnly && !path.is_file() {
            return Err(WarehouseError::Missing(path.to_path_buf()));
        }
        let open_err = |e: duckdb::Error| WarehouseError::Open {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let conn = Connection::open_in_memory().map_err(open_err)?;
        let mode = match access {
            Access::ReadOnly => " (READ_ONLY)",
            Access::ReadWrite => "",
        };
        let attach = format!(
            "ATTACH {} AS {}{mode}; USE {};",
            quote_literal(&path.to_string_lossy()),
            quote_ident(database),
            quote_ident(database),
        );
        conn.execute_batch(&attach).map_err(open_err)?;
        Ok(Self {
            conn,
            database: database.to_string(),
            path: path.to_path_buf(),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs statements (for loaders and tests; the scorer never writes).
    pub fn execute_batch(&self, sql: &str) -> Result<(), WarehouseError> {
        self.conn
            .execute_batch(sql)
            .map_err(|e| WarehouseError::Query {
                relation: self.path.display().to_string(),
                message: e.to_string(),
            })
    }

    /// Creates `schema.table` from a CSV file with DuckDB's own reader
    /// (header row, types detected). Replaces an existing table.
    pub fn load_csv(&self, schema: &str, table: &str, csv: &Path) -> Result<(), WarehouseError> {
        let sql = format!(
            "CREATE SCHEMA IF NOT EXISTS {s}; CREATE OR REPLACE TABLE {s}.{t} AS \
             SELECT * FROM read_csv({f}, header = true, sample_size = -1);",
            s = quote_ident(schema),
            t = quote_ident(table),
            f = quote_literal(&csv.to_string_lossy()),
        );
        self.conn
            .execute_batch(&sql)
            .map_err(|e| WarehouseError::Query {
                relation: format!("{schema}.{table} from {}", csv.display()),
                message: e.to_string(),
            })
    }

    fn qualified(&self, table: &TableInfo) -> String {
        format!(
            "{}.{}.{}",
            quote_ident(&self.database),
            quote_ident(&table.schema),
            quote_ident(&table.name)
        )
    }

    fn query_err(&self, table: &TableInfo) -> impl Fn(duckdb::Error) -> WarehouseError + '_ {
        let relation = format!("{}.{}.{}", self.database, table.schema, table.name);
        move |e| WarehouseError::Query {
            relation: relation.clone(),
            message: e.to_string(),
        }
    }

    fn columns(&self, table: &TableInfo) -> Result<Vec<ColumnInfo>, WarehouseError> {
        let err = self.query_err(table);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT column_name, data_type FROM information_schema.columns \
                 WHERE table_catalog = ? AND table_schema = ? AND table_name = ? \
                 ORDER BY ordinal_position",
            )
            .map_err(&err)?;
        let rows = stmt
            .query_map([&self.database, &table.schema, &table.name], |row| {
                let name: String = row.get(0)?;
                let type_name: String = row.get(1)?;
                Ok(ColumnInfo {
                    kind: ValueKind::from_sql_type(&type_name),
                    name,
                    type_name,
                })
            })
            .map_err(&err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(err)
    }
}

impl Warehouse for DuckDbWarehouse {
    fn backend(&self) -> &'static str {
        "duckdb"
    }

    fn database(&self) -> &str {
        &self.database
    }

    fn tables(&self) -> Result<Vec<TableInfo>, WarehouseError> {
        let err = |e: duckdb::Error| WarehouseError::Query {
            relation: format!("{}.information_schema.tables", self.database),
            message: e.to_string(),
        };
        let mut stmt = self
            .conn
            .prepare(
                "SELECT table_schema, table_name, table_type FROM information_schema.tables \
                 WHERE table_catalog = ? ORDER BY table_schema, table_name",
            )
            .map_err(err)?;
        let rows = stmt
            .query_map([&self.database], |row| {
                let kind: String = row.get(2)?;
                Ok(TableInfo {
                    schema: row.get(0)?,
                    name: row.get(1)?,
                    kind: match kind.as_str() {
                        "BASE TABLE" => TableKind::BaseTable,
                        "VIEW" => TableKind::View,
                        _ => TableKind::Other,
                    },
                })
            })
            .map_err(err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(err)
    }

    fn row_count(&self, table: &TableInfo) -> Result<u64, WarehouseError> {
        let sql = format!("SELECT count(*) FROM {}", self.qualified(table));
        let count: i64 = self
            .conn
            .query_row(&sql, [], |row| row.get(0))
            .map_err(self.query_err(table))?;
        Ok(u64::try_from(count).unwrap_or(0))
    }

    fn read_table(&self, table: &TableInfo, order_by: &[String]) -> Result<Frame, WarehouseError> {
        let columns = self.columns(table)?;
        let mut keys = Vec::with_capacity(order_by.len());
        for key in order_by {
            let Some(column) = columns.iter().find(|c| c.name.eq_ignore_ascii_case(key)) else {
                return Err(WarehouseError::NoSuchColumn {
                    relation: format!("{}.{}.{}", self.database, table.schema, table.name),
                    column: key.clone(),
                    available: columns
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            };
            keys.push(quote_ident(&column.name));
        }
        let projection = columns
            .iter()
            .map(|c| format!("CAST({} AS VARCHAR)", quote_ident(&c.name)))
            .collect::<Vec<_>>()
            .join(", ");
        let mut sql = format!("SELECT {projection} FROM {}", self.qualified(table));
        if !keys.is_empty() {
            sql.push_str(" ORDER BY ");
            sql.push_str(&keys.join(", "));
        }
        let err = self.query_err(table);
        let width = columns.len();
        let mut stmt = self.conn.prepare(&sql).map_err(&err)?;
        let rows = stmt
            .query_map([], |row| {
                (0..width)
                    .map(|i| row.get::<_, Option<String>>(i))
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(&err)?;
        let rows = rows.collect::<Result<Vec<_>, _>>().map_err(err)?;
        Ok(Frame { columns, rows })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shop.duckdb");
        (dir, path)
    }

    #[test]
    fn catalog_is_the_task_database_and_names_match_case_insensitively() {
        let (_dir, path) = scratch();
        let wh = DuckDbWarehouse::open(&path, "shop", Access::ReadWrite).unwrap();
        wh.execute_batch(
            "CREATE SCHEMA AIRBYTE_SCHEMA; \
             CREATE TABLE shop.AIRBYTE_SCHEMA.ORDERS AS SELECT 2 AS ID, 1.5::DOUBLE AS AMOUNT \
             UNION ALL SELECT 1, NULL; \
             CREATE VIEW shop.airbyte_schema.v AS SELECT 1 AS x;",
        )
        .unwrap();
        drop(wh);

        let wh = DuckDbWarehouse::open(&path, "shop", Access::ReadOnly).unwrap();
        let orders = wh.find_table("airbyte_schema", "orders").unwrap().unwrap();
        assert_eq!(orders.name, "ORDERS");
        assert_eq!(orders.kind, TableKind::BaseTable);
        assert_eq!(wh.row_count(&orders).unwrap(), 2);
        let view = wh.find_table("Airbyte_Schema", "V").unwrap().unwrap();
        assert_eq!(view.kind, TableKind::View);

        let frame = wh.read_table(&orders, &["id".to_string()]).unwrap();
        assert_eq!(frame.columns[0].kind, ValueKind::Integer);
        assert_eq!(frame.columns[1].kind, ValueKind::Float);
        assert_eq!(
            frame.rows,
            vec![
                vec![Some("1".to_string()), None],
                vec![Some("2".to_string()), Some("1.5".to_string())]
            ]
        );
    }

    #[test]
    fn read_only_never_creates_a_file_and_refuses_writes() {
        let (_dir, path) = scratch();
        let err = DuckDbWarehouse::open(&path, "shop", Access::ReadOnly).unwrap_err();
        assert!(matches!(err, WarehouseError::Missing(_)), "{err}");
        assert!(!path.exists());

        DuckDbWarehouse::open(&path, "shop", Access::ReadWrite).unwrap();
        let wh = DuckDbWarehouse::open(&path, "shop", Access::ReadOnly).unwrap();
        let err = wh.execute_batch("CREATE TABLE t (x INT)").unwrap_err();
        assert!(err.to_string().contains("read-only"), "{err}");
    }

    #[test]
    fn unknown_order_by_column_names_the_relation_and_the_columns() {
        let (_dir, path) = scratch();
        let wh = DuckDbWarehouse::open(&path, "shop", Access::ReadWrite).unwrap();
        wh.execute_batch("CREATE TABLE t AS SELECT 1 AS a, 2 AS b")
            .unwrap();
        let t = wh.find_table("main", "t").unwrap().unwrap();
        let err = wh.read_table(&t, &["c".to_string()]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "shop.main.t has no column \"c\" to order by (columns: a, b)"
        );
    }
}
