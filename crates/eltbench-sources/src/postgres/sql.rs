//! SQL text for the statements the loader sends: quoting and table definitions.
//!
//! Identifiers are always quoted (see `pg_column_name` for which spelling is used).
//! Values never go through here: they travel in COPY data.

use crate::table::{Column, Table};

/// `"name"` with embedded quotes doubled.
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// `'text'` with embedded quotes doubled (standard_conforming_strings is on).
pub fn quote_literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The column's name in PostgreSQL: a DDL-declared column gets the DDL's name folded to
/// lower case, as PostgreSQL folds the unquoted identifiers of the original DDL (so
/// CSV header `DAYS_CANCELED` declared as `days_canceled` is `days_canceled`); any
/// other column keeps the CSV header's exact spelling.
pub fn pg_column_name(column: &Column) -> String {
    column
        .declared_name
        .as_ref()
        .map_or_else(|| column.name.clone(), |d| d.to_lowercase())
}

/// `"schema"."table"`.
pub fn qualified(schema: &str, table: &str) -> String {
    format!("{}.{}", quote_ident(schema), quote_ident(table))
}

/// `CREATE TABLE` with the table's types and NOT NULL flags (the primary key is added
/// after the data, see `primary_key_sql`).
pub fn create_table_sql(schema: &str, table: &Table) -> String {
    let columns: Vec<String> = table
        .columns
        .iter()
        .map(|c| {
            let not_null = if c.not_null { " NOT NULL" } else { "" };
            format!(
                "{} {}{not_null}",
                quote_ident(&pg_column_name(c)),
                c.ty.sql()
            )
        })
        .collect();
    format!(
        "CREATE TABLE {} ({})",
        qualified(schema, &table.name),
        columns.join(", ")
    )
}

/// `ALTER TABLE ... ADD PRIMARY KEY (...)`, or `None` without a key.
pub fn primary_key_sql(schema: &str, table: &Table) -> Option<String> {
    if table.primary_key.is_empty() {
        return None;
    }
    let column = |key: &String| table.columns.iter().find(|c| &c.name == key);
    let keys: Vec<String> = table
        .primary_key
        .iter()
        .filter_map(column)
        .map(|c| quote_ident(&pg_column_name(c)))
        .collect();
    Some(format!(
        "ALTER TABLE {} ADD PRIMARY KEY ({})",
        qualified(schema, &table.name),
        keys.join(", ")
    ))
}

/// `COPY "schema"."table" ("a", "b") FROM STDIN` in text format.
pub fn copy_sql(schema: &str, table: &Table) -> String {
    let columns: Vec<String> = table
        .columns
        .iter()
        .map(|c| quote_ident(&pg_column_name(c)))
        .collect();
    format!(
        "COPY {} ({}) FROM STDIN",
        qualified(schema, &table.name),
        columns.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Column, Rows, TypeOrigin};
    use crate::types::ColumnType;

    #[test]
    fn statements_quote_every_name() {
        let col = |name: &str, ty, not_null, declared: Option<&str>| Column {
            name: name.into(),
            ty,
            not_null,
            origin: TypeOrigin::Ddl,
            declared_name: declared.map(str::to_owned),
        };
        let table = Table {
            name: "Paper\"Author".into(),
            columns: vec![
                col("ID", ColumnType::Integer, true, Some("Id")),
                col("Name", ColumnType::Varchar(Some(5)), false, None),
            ],
            primary_key: vec!["ID".into()],
            rows: Rows::new(2),
        };
        assert_eq!(
            create_table_sql("public", &table),
            r#"CREATE TABLE "public"."Paper""Author" ("id" integer NOT NULL, "Name" varchar(5))"#
        );
        assert_eq!(
            primary_key_sql("s", &table).unwrap(),
            r#"ALTER TABLE "s"."Paper""Author" ADD PRIMARY KEY ("id")"#
        );
        assert_eq!(
            copy_sql("s", &table),
            r#"COPY "s"."Paper""Author" ("id", "Name") FROM STDIN"#
        );
        assert_eq!(quote_literal("it's"), "'it''s'");
    }
}
