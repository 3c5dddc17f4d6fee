//! source-postgres: streams are the tables and views of the configured `schemas`
//! (default `public`), typed from `information_schema` through the type table, with
//! primary keys from the constraints. Rows are read with `COPY (SELECT ...) TO STDOUT`
//! (text format) over tokio-postgres; incremental reads push `cursor > last` down.

mod copy_text;

use std::collections::BTreeMap;
use std::time::Duration;

use async_trait::async_trait;
use futures_util::StreamExt;
use serde_json::Value;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, Config, NoTls};

use super::{optional_str, required_str};
use crate::sync::connector::{BatchSink, DiscoveredStream, ReadRequest, SourceConnector};
use crate::sync::error::ConnectorError;
use crate::sync::records::{BATCH_ROWS, RowBatchBuilder};
use crate::sync::type_tables::{POSTGRES_TYPES, lookup};
use crate::sync::typing::{AirbyteType, ColumnSpec, StreamSchema};

/// The Postgres source.
#[derive(Debug, Default)]
pub struct PostgresConnector;

struct PgConfig {
    host: String,
    port: u16,
    database: String,
    username: String,
    password: Option<String>,
    schemas: Vec<String>,
}

fn parse_config(config: &Value) -> Result<PgConfig, ConnectorError> {
    let port = match config.get("port") {
        None => 5432,
        Some(Value::Number(n)) => n.as_u64().and_then(|p| u16::try_from(p).ok()).unwrap_or(0),
        Some(Value::String(s)) => s.trim().parse().unwrap_or(0),
        Some(_) => 0,
    };
    if port == 0 {
        return Err(ConnectorError::Config(
            "`port` must be a TCP port number".to_owned(),
        ));
    }
    if let Some(mode) = config.pointer("/ssl_mode/mode").and_then(Value::as_str)
        && matches!(mode, "require" | "verify-ca" | "verify-full")
    {
        return Err(ConnectorError::Config(format!(
            "SSL mode `{mode}` is not supported here: use disable, allow or prefer"
        )));
    }
    let schemas: Vec<String> = config
        .get("schemas")
        .and_then(Value::as_array)
        .map(|s| {
            s.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .filter(|s: &Vec<String>| !s.is_empty())
        .unwrap_or_else(|| vec!["public".to_owned()]);
    let username = optional_str(config, "username")
        .or_else(|| optional_str(config, "user"))
        .ok_or_else(|| ConnectorError::missing("username"))?;
    Ok(PgConfig {
        host: required_str(config, "host")?.to_owned(),
        port,
        database: required_str(config, "database")?.to_owned(),
        username: username.to_owned(),
        password: optional_str(config, "password").map(str::to_owned),
        schemas,
    })
}

async fn connect(config: &PgConfig) -> Result<Client, ConnectorError> {
    let mut pg = Config::new();
    pg.host(&config.host)
        .port(config.port)
        .dbname(&config.database)
        .user(&config.username)
        .connect_timeout(Duration::from_secs(10))
        .application_name("eltbench-airbyte");
    if let Some(password) = &config.password {
        pg.password(password);
    }
    let target = format!("{}:{}", config.host, config.port);
    let (client, connection) = pg
        .connect(NoTls)
        .await
        .map_err(|e| connect_error(&target, config, &e))?;
    tokio::spawn(connection);
    client
        .batch_execute(
            "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET extra_float_digits = 3;",
        )
        .await
        .map_err(|e| {
            ConnectorError::Connection(format!("Could not set up the session on {target}: {e}"))
        })?;
    Ok(client)
}

fn connect_error(target: &str, config: &PgConfig, error: &tokio_postgres::Error) -> ConnectorError {
    let detail = error
        .as_db_error()
        .map_or_else(|| error.to_string(), |db| db.message().to_owned());
    match error.code() {
        Some(c)
            if *c == SqlState::INVALID_PASSWORD
                || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
        {
            ConnectorError::credentials(&format!("postgres at {target}"), detail)
        }
        Some(c) if *c == SqlState::INVALID_CATALOG_NAME => ConnectorError::NotFound(format!(
            "Database `{}` does not exist on {target}",
            config.database
        )),
        Some(_) => ConnectorError::Connection(format!(
            "Could not connect to postgres at {target}: {detail}"
        )),
        None => {
            let cause = std::error::Error::source(error).map_or(detail, |s| s.to_string());
            ConnectorError::refused(target, cause)
        }
    }
}

fn query_error(what: &str, error: &tokio_postgres::Error) -> ConnectorError {
    let detail = error
        .as_db_error()
        .map_or_else(|| error.to_string(), |db| db.message().to_owned());
    match error.code() {
        Some(c) if *c == SqlState::UNDEFINED_TABLE => {
            ConnectorError::NotFound(format!("{what}: {detail}"))
        }
        Some(c) if *c == SqlState::INSUFFICIENT_PRIVILEGE => {
            ConnectorError::credentials(what, detail)
        }
        _ => ConnectorError::Data(format!("{what}: {detail}")),
    }
}

const COLUMNS_SQL: &str = "SELECT c.table_schema, c.table_name, c.column_name, c.udt_name \
    FROM information_schema.columns c JOIN information_schema.tables t \
      ON t.table_schema = c.table_schema AND t.table_name = c.table_name \
    WHERE c.table_schema = ANY($1) AND t.table_type IN ('BASE TABLE', 'VIEW') \
    ORDER BY c.table_schema, c.table_name, c.ordinal_position";

/// From `pg_catalog`: `information_schema.table_constraints` hides the keys of tables
/// the user may only SELECT from.
const KEYS_SQL: &str = "SELECT n.nspname::text, c.relname::text, a.attname::text \
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid \
    JOIN pg_namespace n ON n.oid = c.relnamespace \
    JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true \
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum \
    WHERE i.indisprimary AND n.nspname = ANY($1) \
    ORDER BY 1, 2, k.ord";

type TableKey = (String, String);

/// Columns `(name, udt_name)` of every table, keyed by `(schema, table)`.
async fn columns(
    client: &Client,
    schemas: &[String],
) -> Result<BTreeMap<TableKey, Vec<(String, String)>>, ConnectorError> {
    let rows = client
        .query(COLUMNS_SQL, &[&schemas])
        .await
        .map_err(|e| query_error("Listing columns", &e))?;
    let mut tables: BTreeMap<TableKey, Vec<(String, String)>> = BTreeMap::new();
    for row in rows {
        tables
            .entry((row.get(0), row.get(1)))
            .or_default()
            .push((row.get(2), row.get(3)));
    }
    Ok(tables)
}

fn airbyte_type(udt: &str) -> AirbyteType {
    if udt.starts_with('_') {
        return AirbyteType::Json;
    }
    lookup(POSTGRES_TYPES, udt).unwrap_or(AirbyteType::String)
}

#[async_trait]
impl SourceConnector for PostgresConnector {
    fn source_type(&self) -> &'static str {
        "postgres"
    }

    fn definition_id(&self) -> &'static str {
        "decd338e-5647-4c0b-adf4-da0e75f5a750"
    }

    async fn check(&self, config: &Value) -> Result<(), ConnectorError> {
        let client = connect(&parse_config(config)?).await?;
        client
            .simple_query("SELECT 1")
            .await
            .map_err(|e| query_error("SELECT 1", &e))?;
        Ok(())
    }

    async fn discover(&self, config: &Value) -> Result<Vec<DiscoveredStream>, ConnectorError> {
        let config = parse_config(config)?;
        let client = connect(&config).await?;
        let tables = columns(&client, &config.schemas).await?;
        let mut keys: BTreeMap<TableKey, Vec<Vec<String>>> = BTreeMap::new();
        for row in client
            .query(KEYS_SQL, &[&config.schemas])
            .await
            .map_err(|e| query_error("Listing primary keys", &e))?
        {
            keys.entry((row.get(0), row.get(1)))
                .or_default()
                .push(vec![row.get(2)]);
        }
        Ok(tables
            .into_iter()
            .map(|((schema, table), cols)| {
                let spec = StreamSchema {
                    columns: cols
                        .iter()
                        .map(|(n, udt)| ColumnSpec::new(n, airbyte_type(udt)))
                        .collect(),
                };
                let mut stream = DiscoveredStream::new(&table, Some(&schema), &spec);
                stream.primary_key = keys.remove(&(schema, table)).unwrap_or_default();
                stream
            })
            .collect())
    }

    async fn read(&self, request: ReadRequest<'_>, sink: &BatchSink) -> Result<(), ConnectorError> {
        let config = parse_config(request.config)?;
        let client = connect(&config).await?;
        let schema_name = request
            .stream
            .namespace
            .clone()
            .unwrap_or_else(|| "public".to_owned());
        let udts: BTreeMap<String, String> = columns(&client, std::slice::from_ref(&schema_name))
            .await?
            .remove(&(schema_name.clone(), request.stream.name.clone()))
            .unwrap_or_default()
            .into_iter()
            .collect();
        let sql = copy_sql(&schema_name, &request, &udts);
        let what = format!("Reading {schema_name}.{}", request.stream.name);
        let stream = client
            .copy_out(sql.as_str())
            .await
            .map_err(|e| query_error(&what, &e))?;
        let mut stream = std::pin::pin!(stream);
        let mut rows = RowBatchBuilder::new(request.schema);
        let mut lines = copy_text::Lines::default();
        let mut bytes = 0u64;
        while let Some(chunk) = stream.next().await {
            sink.check()?;
            let chunk = chunk.map_err(|e| query_error(&what, &e))?;
            bytes += chunk.len() as u64;
            lines.feed(&chunk, |line| copy_text::push_row(&mut rows, line));
            if rows.len() >= BATCH_ROWS {
                sink.send(rows.finish()?, std::mem::take(&mut bytes))
                    .await?;
            }
        }
        if !rows.is_empty() {
            sink.send(rows.finish()?, bytes).await?;
        }
        Ok(())
    }
}

fn pg_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

fn pg_literal(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

fn copy_sql(schema: &str, request: &ReadRequest<'_>, udts: &BTreeMap<String, String>) -> String {
    let exprs: Vec<String> = request
        .schema
        .columns
        .iter()
        .map(|c| {
            let q = pg_ident(&c.source_name);
            match udts.get(&c.source_name).map(String::as_str) {
                Some("money") => format!("{q}::numeric"),
                _ if c.airbyte_type == AirbyteType::Json => format!("to_json({q})"),
                _ => q,
            }
        })
        .collect();
    let filter = match request.cursor {
        Some((field, Value::String(last))) => {
            format!(" WHERE {} > {}", pg_ident(field), pg_literal(last))
        }
        _ => String::new(),
    };
    format!(
        "COPY (SELECT {} FROM {}.{}{filter}) TO STDOUT",
        exprs.join(", "),
        pg_ident(schema),
        pg_ident(&request.stream.name)
    )
}
