//! Loading a canonical table: `CREATE TABLE` with its types, `COPY FROM STDIN`, then
//! the primary key, all in one transaction (with `wal_level = minimal` the copied rows
//! skip the WAL). Checks that the server stored exactly the rows sent. It never
//! changes a value; type checks already happened when the table was read.

use std::pin::pin;

use bytes::BytesMut;
use futures::SinkExt;
use tokio_postgres::Transaction;

use super::copy_text::encode_row;
use super::sql::{copy_sql, create_table_sql, primary_key_sql, quote_ident};
use super::{PgCluster, PgError};
use crate::table::Table;

/// Bytes of COPY data sent per message.
const SEND_BYTES: usize = 256 << 10;

impl PgCluster {
    /// Creates `schema.table` in database `db` and copies all rows into it; returns the
    /// number of rows stored. The table must not exist yet.
    pub async fn load_table(&self, db: &str, schema: &str, table: &Table) -> Result<u64, PgError> {
        let target = format!("{db}.{schema}.{}", table.name);
        let mut client = self.connect(db).await?;
        let what = |step: &str| format!("{step} of {target}");
        let tx = client
            .transaction()
            .await
            .map_err(|e| self.sql_error(&what("BEGIN"), &e))?;
        if schema != "public" {
            let sql = format!("CREATE SCHEMA IF NOT EXISTS {}", quote_ident(schema));
            tx.batch_execute(&sql)
                .await
                .map_err(|e| self.sql_error(&what("CREATE SCHEMA"), &e))?;
        }
        let create = create_table_sql(schema, table);
        tx.batch_execute(&create)
            .await
            .map_err(|e| self.sql_error(&what("CREATE TABLE"), &e))?;
        let copied = copy_rows(&tx, schema, table)
            .await
            .map_err(|e| self.sql_error(&what("COPY"), &e))?;
        let expected = table.len() as u64;
        if copied != expected {
            return Err(PgError::RowCount {
                table: target,
                expected,
                copied,
            });
        }
        if let Some(pk) = primary_key_sql(schema, table) {
            tx.batch_execute(&pk)
                .await
                .map_err(|e| self.sql_error(&what("ADD PRIMARY KEY"), &e))?;
        }
        tx.commit()
            .await
            .map_err(|e| self.sql_error(&what("COMMIT"), &e))?;
        Ok(copied)
    }
}

async fn copy_rows(
    tx: &Transaction<'_>,
    schema: &str,
    table: &Table,
) -> Result<u64, tokio_postgres::Error> {
    let mut sink = pin!(
        tx.copy_in::<_, bytes::Bytes>(&copy_sql(schema, table))
            .await?
    );
    let width = table.columns.len();
    let mut buf = BytesMut::with_capacity(SEND_BYTES + (64 << 10));
    for row in table.rows.iter() {
        encode_row(&row, width, &mut buf);
        if buf.len() >= SEND_BYTES {
            sink.send(buf.split().freeze()).await?;
        }
    }
    if !buf.is_empty() {
        sink.send(buf.split().freeze()).await?;
    }
    sink.as_mut().finish().await
}
