//! Reading every user table of a SQLite file as [`RawTable`]s (values as
//! text, NULL kept as NULL, blobs rejected). Opens the file read-only and
//! never writes to it.

use std::path::Path;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};

use crate::error::AuthorError;
use crate::table::RawTable;

/// Every table of the SQLite file (not `sqlite_*`), sorted by name.
pub fn read_sqlite(path: &Path) -> Result<Vec<RawTable>, AuthorError> {
    let fail = |e: rusqlite::Error| AuthorError::Sqlite {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(fail)?;
    let names = table_names(&conn).map_err(fail)?;
    if names.is_empty() {
        return Err(AuthorError::Sqlite {
            path: path.to_path_buf(),
            message: "it has no tables".into(),
        });
    }
    names
        .into_iter()
        .map(|name| read_table(&conn, &name).map_err(fail))
        .collect()
}

fn table_names(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' \
         AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )?;
    let names = stmt.query_map([], |row| row.get(0))?;
    names.collect()
}

fn read_table(conn: &Connection, name: &str) -> rusqlite::Result<RawTable> {
    let quoted = format!("\"{}\"", name.replace('"', "\"\""));
    let mut stmt = conn.prepare(&format!("SELECT * FROM {quoted}"))?;
    let header: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
    let width = header.len();
    let rows = stmt.query_map([], |row| {
        (0..width)
            .map(|i| row.get_ref(i).map(text_of))
            .collect::<rusqlite::Result<Vec<_>>>()
    })?;
    Ok(RawTable {
        name: name.to_owned(),
        header,
        rows: rows.collect::<rusqlite::Result<_>>()?,
    })
}

fn text_of(value: ValueRef<'_>) -> Option<String> {
    match value {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(f) => Some(f.to_string()),
        ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Some(b.iter().map(|x| format!("{x:02x}")).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_table_with_nulls() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shop.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE items (id INTEGER, label TEXT, price REAL);
             INSERT INTO items VALUES (1, 'pen', 1.5), (2, NULL, 2.0);
             CREATE TABLE buyers (id INTEGER);",
        )
        .unwrap();
        drop(conn);
        let tables = read_sqlite(&path).unwrap();
        assert_eq!(tables.len(), 2);
        assert_eq!(tables[0].name, "buyers");
        let items = &tables[1];
        assert_eq!(items.header, vec!["id", "label", "price"]);
        assert_eq!(
            items.rows[1],
            vec![Some("2".into()), None, Some("2".into())]
        );
    }
}
