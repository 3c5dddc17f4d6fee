//! The SQL of each sync mode, from a staged stream to its Destinations V2 final table:
//! `_airbyte_raw_id`, `_airbyte_extracted_at`, `_airbyte_meta`, `_airbyte_generation_id`,
//! then the stream's columns.
//!
//! overwrite replaces the table in the commit transaction (a failed sync never reaches
//! it); append and incremental append insert by name (adding new columns first);
//! deduped history inserts, then keeps the newest row per primary key. This module only
//! writes SQL text; `destination` runs it.

use super::naming::{quote_ident, quote_literal};
use super::records::CHANGES_COLUMN;
use super::typing::{AirbyteType, StreamSchema};
use crate::enums::SyncMode;

/// Everything needed to land one staged stream.
#[derive(Debug, Clone)]
pub struct StreamPlan {
    /// The stream name (for logs and stats).
    pub stream: String,
    /// The staging table in the in-memory database.
    pub stage: String,
    /// A native load's `SELECT` the commit reads instead of the staging table (full
    /// refresh only: nothing is staged, so no cursor is taken from it).
    pub native: Option<String>,
    pub schema: StreamSchema,
    pub mode: SyncMode,
    /// `"<catalog>"."<schema>"."<table>"` of the final table.
    pub target: String,
    pub target_schema: String,
    pub target_table: String,
    /// The normalised cursor column and the last committed value.
    pub cursor: Option<(String, AirbyteType)>,
    pub cursor_state: Option<String>,
    /// Normalised primary key columns.
    pub primary_key: Vec<String>,
    pub sync_id: i64,
    pub generation: i64,
    /// `_airbyte_extracted_at` of every record of this sync (RFC 3339).
    pub extracted_at: String,
}

impl StreamPlan {
    fn column_exprs(&self) -> Vec<String> {
        self.schema
            .columns
            .iter()
            .map(|c| {
                let q = quote_ident(&c.name);
                if c.airbyte_type == AirbyteType::Json {
                    format!("CAST({q} AS JSON) AS {q}")
                } else if self.native.is_some() {
                    format!("CAST({q} AS {}) AS {q}", stage_type(c.airbyte_type))
                } else {
                    q
                }
            })
            .collect()
    }

    /// The incremental filter on the staged rows (`WHERE cursor > last`).
    fn filter(&self) -> String {
        let incremental = self.mode.is_incremental();
        match (&self.cursor, &self.cursor_state) {
            (Some((column, ty)), Some(state)) if incremental => format!(
                " WHERE {} > CAST({} AS {})",
                quote_ident(column),
                quote_literal(state),
                stage_type(*ty)
            ),
            _ => String::new(),
        }
    }

    /// The staged rows as final-table rows.
    pub fn select(&self) -> String {
        let mut exprs = vec![
            "uuid() AS _airbyte_raw_id".to_owned(),
            format!(
                "CAST({} AS TIMESTAMP WITH TIME ZONE) AS _airbyte_extracted_at",
                quote_literal(&self.extracted_at)
            ),
            // Rows without changes (nearly all) share one constant, the very text
            // `json_object` gives, instead of building a JSON value per row.
            format!(
                "CASE WHEN {c} IS NULL THEN CAST('{{\"sync_id\":{id},\"changes\":[]}}' AS JSON) \
                 ELSE json_object('sync_id', {id}, 'changes', CAST({c} AS JSON)) END AS _airbyte_meta",
                id = self.sync_id,
                c = quote_ident(CHANGES_COLUMN)
            ),
            format!(
                "CAST({} AS BIGINT) AS _airbyte_generation_id",
                self.generation
            ),
        ];
        exprs.extend(self.column_exprs());
        let from = match &self.native {
            Some(select) => format!("({select}) AS native"),
            None => format!("memory.main.{}", quote_ident(&self.stage)),
        };
        format!("SELECT {} FROM {from}{}", exprs.join(", "), self.filter())
    }

    /// The largest new cursor value staged (none when no row is newer), as text.
    pub fn max_cursor_sql(&self) -> Option<String> {
        let (column, _) = self.cursor.as_ref()?;
        Some(format!(
            "SELECT CAST(max({}) AS VARCHAR) FROM memory.main.{}{}",
            quote_ident(column),
            quote_ident(&self.stage),
            self.filter()
        ))
    }

    /// Replaces the final table with the staged rows.
    pub fn overwrite_sql(&self) -> String {
        format!(
            "CREATE OR REPLACE TABLE {} AS {}",
            self.target,
            self.select()
        )
    }

    /// Creates the final table (empty) when it does not exist.
    pub fn create_if_missing_sql(&self) -> String {
        format!(
            "CREATE TABLE IF NOT EXISTS {} AS {} LIMIT 0",
            self.target,
            self.select()
        )
    }

    /// `ALTER TABLE ... ADD COLUMN` for a stream column the table lacks.
    pub fn add_column_sql(&self, column: &str, ty: AirbyteType) -> String {
        format!(
            "ALTER TABLE {} ADD COLUMN {} {}",
            self.target,
            quote_ident(column),
            ty.duckdb_type()
        )
    }

    /// Appends the staged rows.
    pub fn insert_sql(&self) -> String {
        format!("INSERT INTO {} BY NAME {}", self.target, self.select())
    }

    /// Deletes every row but the newest per primary key (deduped history).
    pub fn dedup_sql(&self) -> Option<String> {
        if !self.mode.is_deduped() || self.primary_key.is_empty() {
            return None;
        }
        let keys: Vec<String> = self.primary_key.iter().map(|k| quote_ident(k)).collect();
        let mut order = Vec::new();
        if let Some((cursor, _)) = &self.cursor {
            order.push(format!("{} DESC NULLS LAST", quote_ident(cursor)));
        }
        order.push("_airbyte_extracted_at DESC".to_owned());
        Some(format!(
            "DELETE FROM {t} WHERE _airbyte_raw_id IN (SELECT _airbyte_raw_id FROM \
             (SELECT _airbyte_raw_id, row_number() OVER (PARTITION BY {k} ORDER BY {o}) AS rn FROM {t}) \
             WHERE rn > 1)",
            t = self.target,
            k = keys.join(", "),
            o = order.join(", ")
        ))
    }
}

/// The staging column type of an Airbyte type (JSON and TIMETZ are staged as text).
pub fn stage_type(ty: AirbyteType) -> &'static str {
    match ty {
        AirbyteType::Json | AirbyteType::TimeTz => "VARCHAR",
        other => other.duckdb_type(),
    }
}

/// `CREATE TABLE` of a staging table for `schema`.
pub fn create_stage_sql(stage: &str, schema: &StreamSchema) -> String {
    let mut columns: Vec<String> = schema
        .columns
        .iter()
        .map(|c| format!("{} {}", quote_ident(&c.name), stage_type(c.airbyte_type)))
        .collect();
    columns.push(format!("{} VARCHAR", quote_ident(CHANGES_COLUMN)));
    format!(
        "CREATE OR REPLACE TABLE memory.main.{} ({})",
        quote_ident(stage),
        columns.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::typing::ColumnSpec;

    fn plan(mode: SyncMode) -> StreamPlan {
        StreamPlan {
            stream: "users".into(),
            stage: "stage_0".into(),
            native: None,
            schema: StreamSchema {
                columns: vec![
                    ColumnSpec::new("id", AirbyteType::Integer),
                    ColumnSpec::new("tags", AirbyteType::Json),
                ],
            },
            mode,
            target: "\"d\".\"s\".\"users\"".into(),
            target_schema: "s".into(),
            target_table: "users".into(),
            cursor: Some(("id".into(), AirbyteType::Integer)),
            cursor_state: Some("5".into()),
            primary_key: vec!["id".into()],
            sync_id: 9,
            generation: 1,
            extracted_at: "2024-01-01T00:00:00Z".into(),
        }
    }

    #[test]
    fn only_incremental_modes_filter_by_cursor() {
        assert!(
            plan(SyncMode::IncrementalAppend)
                .select()
                .ends_with("WHERE \"id\" > CAST('5' AS BIGINT)")
        );
        assert!(!plan(SyncMode::FullRefreshAppend).select().contains("WHERE"));
        assert!(
            plan(SyncMode::FullRefreshAppend)
                .select()
                .contains("CAST(\"tags\" AS JSON)")
        );
    }

    #[test]
    fn meta_without_changes_is_the_text_json_object_gives() {
        let sql = plan(SyncMode::FullRefreshAppend).select();
        let conn = duckdb::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE stage_0 (id BIGINT, tags VARCHAR, _ab_changes VARCHAR); \
             INSERT INTO stage_0 VALUES (1, '[]', NULL), (2, '{}', '[{\"field\":\"id\"}]')",
        )
        .unwrap();
        let sql = sql.replace("memory.main.", "");
        let metas: Vec<String> = conn
            .prepare(&format!(
                "SELECT CAST(_airbyte_meta AS VARCHAR) FROM ({sql}) ORDER BY id"
            ))
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let built: String = conn
            .query_row(
                "SELECT CAST(json_object('sync_id', 9, 'changes', '[]'::JSON) AS VARCHAR)",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(metas[0], built);
        assert_eq!(metas[1], r#"{"sync_id":9,"changes":[{"field":"id"}]}"#);
    }

    #[test]
    fn only_deduped_history_deletes_duplicates() {
        assert!(plan(SyncMode::IncrementalAppend).dedup_sql().is_none());
        let sql = plan(SyncMode::IncrementalDedupedHistory)
            .dedup_sql()
            .unwrap_or_default();
        assert!(
            sql.contains("PARTITION BY \"id\" ORDER BY \"id\" DESC NULLS LAST"),
            "{sql}"
        );
    }
}
