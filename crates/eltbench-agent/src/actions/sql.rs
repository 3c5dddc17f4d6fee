//! The SQL actions (SQL, ListTables, TableInfo, SampleRows) on the DuckDB
//! warehouse: the file is opened read-write for one action and closed after it, so
//! dbt and the loader can use it between actions.
//!
//! Never keeps a connection open across actions; a query past its time budget is
//! interrupted through DuckDB's interrupt handle.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use duckdb::{Connection, InterruptHandle};

use super::ActionBudget;
use super::table::{TableWriter, render_value};

/// What to run.
pub(super) enum Request {
    Query(String),
    ListTables,
    TableInfo(String),
    SampleRows(String, u32),
}

type Slot = Arc<Mutex<Option<Arc<InterruptHandle>>>>;

/// How long an interrupted query may take to stop before its thread is abandoned.
const INTERRUPT_GRACE: Duration = Duration::from_secs(5);

pub(super) async fn run(db: &Path, request: Request, budget: &ActionBudget) -> String {
    let slot: Slot = Arc::new(Mutex::new(None));
    let db_path = db.to_path_buf();
    let max_chars = budget.max_chars;
    let worker_slot = Arc::clone(&slot);
    let mut task =
        tokio::task::spawn_blocking(move || execute(&db_path, &request, max_chars, &worker_slot));
    let stopped = tokio::select! {
        result = &mut task => return result.unwrap_or_else(|err| format!("the query thread failed: {err}")),
        () = tokio::time::sleep(budget.timeout) => format!(
            "[timeout: the query was still running after {} s and was interrupted]",
            budget.timeout.as_secs_f64()
        ),
        () = budget.cancel.cancelled() => "[cancelled: the run was stopped and the query interrupted]".to_owned(),
    };
    if let Ok(Some(handle)) = slot.lock().map(|s| s.clone()) {
        handle.interrupt();
    }
    let _ = tokio::time::timeout(INTERRUPT_GRACE, task).await;
    stopped
}

fn execute(db: &PathBuf, request: &Request, max_chars: usize, slot: &Slot) -> String {
    let conn = match Connection::open(db) {
        Ok(conn) => conn,
        Err(err) => return format!("cannot open the warehouse {}: {err}", db.display()),
    };
    if let Ok(mut s) = slot.lock() {
        *s = Some(conn.interrupt_handle());
    }
    let result = match request {
        Request::Query(sql) => query(&conn, sql, max_chars).map(|(text, _)| text),
        Request::ListTables => query(&conn, LIST_TABLES, max_chars).map(|(text, _)| text),
        Request::TableInfo(table) => table_info(&conn, table, max_chars),
        Request::SampleRows(table, n) => {
            let sql = format!("SELECT * FROM {} LIMIT {n}", qualified(table));
            query(&conn, &sql, max_chars).map(|(text, _)| text)
        }
    };
    result.unwrap_or_else(|err| format!("SQL error: {err}"))
}

const LIST_TABLES: &str = "SELECT table_catalog AS database, table_schema AS schema, \
    table_name AS name, table_type AS type FROM information_schema.tables \
    WHERE table_schema NOT IN ('information_schema', 'pg_catalog') ORDER BY 1, 2, 3";

fn table_info(conn: &Connection, table: &str, max_chars: usize) -> duckdb::Result<String> {
    let parts = split_name(table);
    let Some((name, prefix)) = parts.split_last() else {
        return Ok("TableInfo needs a table name.".to_owned());
    };
    let mut filter = format!("table_name = {}", literal(name));
    let scopes = ["table_schema", "table_catalog"];
    for (column, value) in scopes.iter().zip(prefix.iter().rev()) {
        filter.push_str(&format!(" AND {column} = {}", literal(value)));
    }
    let sql = format!(
        "SELECT table_catalog || '.' || table_schema || '.' || table_name AS \"table\", \
         column_name AS column, data_type AS type, is_nullable AS nullable \
         FROM information_schema.columns WHERE {filter} ORDER BY 1, ordinal_position"
    );
    let (text, rows) = query(conn, &sql, max_chars)?;
    if rows == 0 {
        return Ok(format!(
            "Table {table} not found. ListTables shows the tables that exist."
        ));
    }
    Ok(text)
}

/// Runs `sql` (several statements allowed; the last one's result is shown) and
/// returns the rendered table and its row count.
fn query(conn: &Connection, sql: &str, max_chars: usize) -> duckdb::Result<(String, usize)> {
    let mut stmt = conn.prepare(sql)?;
    let mut rows = stmt.query([])?;
    let columns = rows.as_ref().map(|s| s.column_names()).unwrap_or_default();
    if columns.is_empty() {
        return Ok((
            "Statement executed successfully (no result set).".to_owned(),
            0,
        ));
    }
    let mut writer = TableWriter::new(&columns, max_chars);
    while let Some(row) = rows.next()? {
        if !writer.has_room() {
            writer.mark_more();
            break;
        }
        let cells: Vec<String> = (0..columns.len())
            .map(|i| {
                row.get_ref(i)
                    .map_or_else(|_| "?".to_owned(), |v| render_value(&v.to_owned()))
            })
            .collect();
        writer.push(&cells);
    }
    let count = writer.rows();
    Ok((writer.finish(), count))
}

/// Splits `db.schema.table` on dots outside double quotes and unquotes the parts.
fn split_name(name: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut chars = name.trim().chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                current.push('"');
            }
            '"' => quoted = !quoted,
            '.' if !quoted => parts.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    parts.push(current);
    parts.retain(|p| !p.is_empty());
    parts
}

fn qualified(name: &str) -> String {
    let parts: Vec<String> = split_name(name)
        .iter()
        .map(|p| format!("\"{}\"", p.replace('"', "\"\"")))
        .collect();
    parts.join(".")
}

fn literal(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_util::sync::CancellationToken;

    fn budget() -> ActionBudget {
        ActionBudget {
            timeout: Duration::from_secs(30),
            cancel: CancellationToken::new(),
            max_chars: 10_000,
        }
    }

    fn warehouse() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("wh.duckdb");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE SCHEMA airbyte_schema; CREATE TABLE airbyte_schema.users(id INTEGER, name VARCHAR, born DATE); \
             INSERT INTO airbyte_schema.users VALUES (1, 'Ann, the first', DATE '2000-02-29'), (2, NULL, NULL);",
        )
        .unwrap();
        (dir, path)
    }

    #[test]
    fn names_split_on_unquoted_dots() {
        assert_eq!(split_name("a.b.\"c.d\""), vec!["a", "b", "c.d"]);
        assert_eq!(qualified("s.\"t\"\"x\""), "\"s\".\"t\"\"x\"");
    }

    #[tokio::test]
    async fn query_renders_csv_rows_with_nulls() {
        let (_dir, db) = warehouse();
        let sql = "SELECT * FROM airbyte_schema.users ORDER BY id".to_owned();
        let out = run(&db, Request::Query(sql), &budget()).await;
        assert_eq!(
            out,
            "id,name,born\n1,\"Ann, the first\",2000-02-29\n2,NULL,NULL\n(2 rows)"
        );
    }

    #[tokio::test]
    async fn several_statements_show_the_last_result_and_persist() {
        let (_dir, db) = warehouse();
        let sql = "CREATE TABLE t AS SELECT 42 AS x; SELECT x FROM t".to_owned();
        assert_eq!(
            run(&db, Request::Query(sql), &budget()).await,
            "x\n42\n(1 row)"
        );
        let again = run(
            &db,
            Request::Query("SELECT count(*) AS n FROM t".into()),
            &budget(),
        )
        .await;
        assert_eq!(again, "n\n1\n(1 row)");
    }

    #[tokio::test]
    async fn table_info_sample_rows_and_list_tables() {
        let (_dir, db) = warehouse();
        let info = run(
            &db,
            Request::TableInfo("airbyte_schema.users".into()),
            &budget(),
        )
        .await;
        assert!(info.contains("users,id,INTEGER,YES"), "{info}");
        assert!(info.contains("users,born,DATE,YES"), "{info}");
        let missing = run(&db, Request::TableInfo("nope".into()), &budget()).await;
        assert!(missing.contains("Table nope not found"));
        let sample = run(
            &db,
            Request::SampleRows("airbyte_schema.users".into(), 1),
            &budget(),
        )
        .await;
        assert!(sample.ends_with("(1 row)"), "{sample}");
        let tables = run(&db, Request::ListTables, &budget()).await;
        assert!(
            tables.contains("wh,airbyte_schema,users,BASE TABLE"),
            "{tables}"
        );
    }

    #[tokio::test]
    async fn errors_are_observations() {
        let (_dir, db) = warehouse();
        let out = run(&db, Request::Query("SELEC 1".into()), &budget()).await;
        assert!(out.starts_with("SQL error:"), "{out}");
    }
}
