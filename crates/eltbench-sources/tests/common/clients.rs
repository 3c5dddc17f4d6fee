//! Reading every table of a running environment back through a real client of its
//! kind (tokio-postgres, the official MongoDB driver, reqwest for the REST API and the
//! flat files, aws-sdk-s3) and comparing it with the canonical CSV table.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use eltbench_sources::env::{EnvRecord, TaskTables, data_dir, read_tables};
use eltbench_sources::postgres::{pg_column_name, qualified, quote_ident};
use eltbench_sources::{DdlCatalog, Table};
use eltbench_task::{FileFormat, SourceKind, Suite};
use futures_util::TryStreamExt;

use super::normalise;
use super::readback::{self, Got, Typing, check_rows};

/// The task's canonical tables as the environment read them.
pub fn tables(suite: &Suite, db: &str, data: Option<&Path>) -> TaskTables {
    let ddl = suite.root().join("postgres_ddl.json");
    let catalog = ddl.is_file().then(|| DdlCatalog::load(&ddl).unwrap());
    let task = suite.task(db).unwrap();
    read_tables(task, &data_dir(suite, db, data), catalog.as_ref()).unwrap()
}

/// Checks every source of `record`; returns table → rows checked, per kind.
pub async fn check_all(
    suite: &Suite,
    record: &EnvRecord,
    tables: &TaskTables,
) -> BTreeMap<(SourceKind, String), usize> {
    let mut checked = BTreeMap::new();
    let expected = |t: &Table| {
        let rows = suite.expected_rows_for(&record.db, &t.name).unwrap();
        assert_eq!(
            t.len() as u64,
            rows,
            "{}: CSV rows vs source_row_counts.json",
            t.name
        );
        t.len()
    };
    for (kind, table) in &tables.tables {
        let rows = expected(table);
        match kind {
            SourceKind::Postgres => check_postgres(record, table).await,
            SourceKind::Mongodb => check_mongo(record, table).await,
            SourceKind::CustomApi => check_rest(suite, record, table).await,
            SourceKind::FlatFiles => check_flat_file(suite, record, table).await,
            SourceKind::AwsS3 => check_s3(suite, record, table).await,
        }
        checked.insert((*kind, table.name.clone()), rows);
    }
    checked
}

pub async fn check_postgres(record: &EnvRecord, table: &Table) {
    let ep = record.endpoints.postgres.as_ref().unwrap();
    let conn = format!(
        "host={} port={} user={} password={} dbname={}",
        ep.host, ep.port, ep.user, ep.password, ep.database
    );
    let (client, connection) = tokio_postgres::connect(&conn, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let target = qualified(&ep.schema, &table.name);
    let count: i64 = client
        .query_one(&format!("SELECT count(*) FROM {target}"), &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(count as usize, table.len(), "postgres {}", table.name);
    let cols: Vec<String> = table
        .columns
        .iter()
        .map(|c| format!("{}::text", quote_ident(&pg_column_name(c))))
        .collect();
    let rows = client
        .query(&format!("SELECT {} FROM {target}", cols.join(", ")), &[])
        .await
        .unwrap();
    let canon = |vals: Vec<Option<String>>| -> Vec<Option<String>> {
        vals.iter()
            .zip(&table.columns)
            .map(|(v, c)| normalise::canonical(c.ty, v.as_deref()))
            .collect()
    };
    let mut got: Vec<_> = rows
        .iter()
        .map(|r| {
            canon(
                (0..cols.len())
                    .map(|i| r.get::<_, Option<String>>(i))
                    .collect(),
            )
        })
        .collect();
    let mut want: Vec<_> = table
        .rows
        .iter()
        .map(|r| canon(r.values().map(|v| v.map(str::to_owned)).collect()))
        .collect();
    got.sort();
    want.sort();
    assert!(
        got == want,
        "postgres {}: values differ from the CSV",
        table.name
    );
}

pub async fn check_mongo(record: &EnvRecord, table: &Table) {
    let ep = record.endpoints.mongodb.as_ref().unwrap();
    let client = mongodb::Client::with_uri_str(&ep.uri).await.unwrap();
    let docs: Vec<bson::Document> = client
        .database(&ep.database)
        .collection::<bson::Document>(&table.name)
        .find(bson::doc! {})
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    let rows: Vec<Vec<Got>> = docs
        .iter()
        .map(|d| {
            let known = d.keys().filter(|k| *k != "_id").count();
            let present = table
                .columns
                .iter()
                .filter(|c| d.contains_key(&c.name))
                .count();
            assert_eq!(
                known, present,
                "mongo {}: unexpected fields in {d}",
                table.name
            );
            table
                .columns
                .iter()
                .map(|c| readback::from_bson(d.get(&c.name)))
                .collect()
        })
        .collect();
    check_rows(
        &format!("mongodb {}", table.name),
        table,
        Typing::Native,
        &rows,
    );
    client.shutdown().await;
}

async fn get(url: &str) -> (u16, Vec<u8>) {
    let resp = reqwest::get(url).await.unwrap();
    let status = resp.status().as_u16();
    (status, resp.bytes().await.unwrap().to_vec())
}

pub async fn check_rest(suite: &Suite, record: &EnvRecord, table: &Table) {
    let ep = record.endpoints.custom_api.as_ref().unwrap();
    let (status, body) = get(&ep.urls[&table.name]).await;
    assert_eq!(status, 200, "REST {}", table.name);
    let rows = readback::json_rows(table, &body, false);
    check_rows(&format!("REST {}", table.name), table, Typing::Any, &rows);
    let schemas = rest_schemas(suite);
    let schema = schemas.get(&format!("/{}/{}", record.db, table.name));
    for (row, values) in table.rows.iter().zip(&rows) {
        for (i, (col, got)) in table.columns.iter().zip(values).enumerate() {
            // The server matches schema properties to columns ignoring case
            // (`MPAA_rating` declares `mpaa_rating`), and so does this check.
            let declared = schema.and_then(|s| property(s, &col.name));
            let ok = match declared {
                Some(p) => schema_allows(p, row.get(i), got),
                None => readback::kind_ok(col.ty, Typing::Json, got),
            };
            assert!(
                ok,
                "REST {} `{}` line {}: {got:?} against {declared:?}",
                table.name,
                col.name,
                row.line()
            );
        }
    }
    let (missing, body) = get(&format!("{}/{}/no_such_table", ep.base_url, record.db)).await;
    assert_eq!(missing, 404);
    let error: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(error["error"].as_str().unwrap().contains("no_such_table"));
}

fn property<'a>(schema: &'a serde_json::Value, column: &str) -> Option<&'a serde_json::Value> {
    schema["properties"]
        .as_object()?
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(column))
        .map(|(_, p)| p)
}

fn rest_schemas(suite: &Suite) -> BTreeMap<String, serde_json::Value> {
    let Ok(text) = std::fs::read_to_string(suite.root().join("rest_api_streams.json")) else {
        return BTreeMap::new();
    };
    let raw: BTreeMap<String, serde_json::Value> = serde_json::from_str(&text).unwrap();
    raw.into_values()
        .map(|s| {
            (
                s["path"].as_str().unwrap().to_owned(),
                s["json_schema"].clone(),
            )
        })
        .collect()
}

/// A value's JSON kind is one the schema declares; a string is allowed for a value
/// that fits none of the declared kinds.
fn schema_allows(property: &serde_json::Value, csv: Option<&str>, got: &Got) -> bool {
    let types: Vec<&str> = match &property["type"] {
        serde_json::Value::Array(a) => a.iter().filter_map(|t| t.as_str()).collect(),
        serde_json::Value::String(s) => vec![s.as_str()],
        _ => vec![],
    };
    let text = csv.unwrap_or("");
    match got {
        Got::Null => true,
        Got::Bool(_) => types.contains(&"boolean"),
        Got::Int(_) | Got::Float(_) => types.contains(&"number") || types.contains(&"integer"),
        Got::Str(_) => {
            let number =
                types.contains(&"number") && text.trim().parse::<f64>().is_ok_and(f64::is_finite);
            let boolean = types.contains(&"boolean") && readback::bool_word(text).is_some();
            types.contains(&"string") || !(number || boolean)
        }
        Got::Time(_) => false,
    }
}

/// Checks a file body in `format` against the table.
pub fn check_body(what: &str, table: &Table, format: FileFormat, body: Vec<u8>) {
    let (rows, typing) = match format {
        FileFormat::Csv => (readback::csv_rows(table, &body), Typing::Any),
        FileFormat::Jsonl => (readback::json_rows(table, &body, true), Typing::Json),
        FileFormat::Json => (readback::json_rows(table, &body, false), Typing::Json),
        FileFormat::Parquet => (readback::parquet_rows(table, body), Typing::Native),
    };
    check_rows(what, table, typing, &rows);
}

pub async fn check_flat_file(suite: &Suite, record: &EnvRecord, table: &Table) {
    let ep = record.endpoints.flat_files.as_ref().unwrap();
    let task = suite.task(&record.db).unwrap();
    let file = task
        .config
        .flat_files
        .as_ref()
        .unwrap()
        .0
        .iter()
        .find(|f| f.table == table.name)
        .unwrap();
    let (status, body) = get(&ep.urls[&table.name]).await;
    assert_eq!(status, 200, "flat file {}", table.name);
    check_body(
        &format!("flat file {}", table.name),
        table,
        file.format,
        body,
    );
}

/// A path-style aws-sdk-s3 client over plain HTTP for the environment's endpoint.
pub fn s3_client(record: &EnvRecord) -> aws_sdk_s3::Client {
    let ep = record.endpoints.aws_s3.as_ref().unwrap();
    let creds = aws_sdk_s3::config::Credentials::new(
        &ep.access_key_id,
        &ep.secret_access_key,
        None,
        None,
        "test",
    );
    let config = aws_sdk_s3::Config::builder()
        .behavior_version(aws_sdk_s3::config::BehaviorVersion::latest())
        .region(aws_sdk_s3::config::Region::new(ep.region.clone()))
        .credentials_provider(creds)
        .http_client(aws_smithy_http_client::Builder::new().build_http())
        .endpoint_url(&ep.endpoint_url)
        .force_path_style(true)
        .build();
    aws_sdk_s3::Client::from_conf(config)
}

pub async fn check_s3(suite: &Suite, record: &EnvRecord, table: &Table) {
    let task = suite.task(&record.db).unwrap();
    let object = task
        .config
        .aws_s3
        .as_ref()
        .unwrap()
        .data
        .iter()
        .find(|o| o.table == table.name)
        .unwrap();
    let (bucket, key) = object.bucket_and_key().unwrap();
    let out = s3_client(record)
        .get_object()
        .bucket(bucket)
        .key(key)
        .send()
        .await
        .unwrap();
    let body = out.body.collect().await.unwrap().into_bytes().to_vec();
    check_body(
        &format!("s3 {}", object.path),
        table,
        object.format().unwrap(),
        body,
    );
}

/// Pids of processes working in (or naming) `dir` or below it.
pub fn processes_under(dir: &Path) -> Vec<i32> {
    let needle = dir.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| *pid != std::process::id() as i32)
        .filter(|pid| {
            let cwd =
                std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|c| c.starts_with(dir));
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            cwd || String::from_utf8_lossy(&cmdline).contains(&needle)
        })
        .filter(|pid| eltbench_sources::postgres::procs::is_alive(*pid))
        .collect()
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
pub fn port_open(port: u16) -> bool {
    std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
}
