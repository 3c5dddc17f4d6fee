//! Rendering generated tasks into suite files: `tasks/<db>/config.yaml` (the
//! original ELT-Bench shape, key order included), `tasks/<db>/schemas/<table>.csv`,
//! `data/<db>/<table>.csv` and `source_row_counts.json`. Pure: returns
//! `relative path → bytes`; writing and comparing happen in `lib.rs`.

use std::collections::BTreeMap;

use crate::spec::{Place, Table, TaskSpec};

/// Every generated file of `tasks`, by path relative to the suite root.
pub fn render(tasks: &[TaskSpec]) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut counts = BTreeMap::new();
    for task in tasks {
        files.insert(
            format!("tasks/{}/config.yaml", task.db),
            config_yaml(task).into_bytes(),
        );
        let mut rows = BTreeMap::new();
        for table in &task.tables {
            let schema = format!("tasks/{}/schemas/{}.csv", task.db, table.name);
            files.insert(schema, schema_csv(table));
            files.insert(
                format!("data/{}/{}.csv", task.db, table.name),
                data_csv(table),
            );
            rows.insert(table.name.to_owned(), table.rows.len());
        }
        counts.insert(task.db.to_owned(), rows);
    }
    let json = serde_json::to_string_pretty(&counts).unwrap_or_default() + "\n";
    files.insert("source_row_counts.json".to_owned(), json.into_bytes());
    files
}

fn csv_bytes(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> Vec<u8> {
    let mut out = csv::Writer::from_writer(Vec::new());
    let _ = out.write_record(header);
    for row in rows {
        let _ = out.write_record(&row);
    }
    out.into_inner().unwrap_or_default()
}

fn schema_csv(table: &Table) -> Vec<u8> {
    let rows = table
        .columns
        .iter()
        .map(|(n, d)| vec![(*n).to_owned(), (*d).to_owned()]);
    csv_bytes(&["column_name", "column_description"], rows)
}

fn data_csv(table: &Table) -> Vec<u8> {
    let header: Vec<&str> = table.columns.iter().map(|(n, _)| *n).collect();
    csv_bytes(&header, table.rows.iter().cloned())
}

fn names(task: &TaskSpec, want: impl Fn(Place) -> bool) -> Vec<&'static str> {
    task.tables
        .iter()
        .filter(|t| want(t.place))
        .map(|t| t.name)
        .collect()
}

fn list(out: &mut String, indent: &str, items: &[&str]) {
    for item in items {
        out.push_str(&format!("{indent}- {item}\n"));
    }
}

/// `config.yaml` in the original's shape (keys sorted as the original files are).
pub fn config_yaml(task: &TaskSpec) -> String {
    let db = task.db;
    let bucket = format!("{}-bucket", db.replace('_', "-"));
    let mut out = String::from(AIRBYTE);
    let s3: Vec<&Table> = task
        .tables
        .iter()
        .filter(|t| matches!(t.place, Place::S3(_)))
        .collect();
    if !s3.is_empty() {
        out.push_str(S3_HEAD);
        for t in s3 {
            if let Place::S3(f) = t.place {
                out.push_str(&format!(
                    "  - path: s3://{bucket}/{}.{}\n    sync_mode: full_refresh_append\n    table: {}\n",
                    t.name,
                    f.name(),
                    t.name
                ));
            }
        }
    }
    let api = names(task, |p| p == Place::CustomApi);
    if !api.is_empty() {
        out.push_str("custom_api:\n  config:\n    configuration: {}\n    sync_mode: full_refresh_append\n    tables:\n");
        list(&mut out, "    ", &api);
    }
    let flat: Vec<&Table> = task
        .tables
        .iter()
        .filter(|t| matches!(t.place, Place::FlatFile(_)))
        .collect();
    if !flat.is_empty() {
        out.push_str("flat_files:\n");
        for t in flat {
            if let Place::FlatFile(f) = t.place {
                out.push_str(&format!(
                    "- format: {}\n  path: https://data.example.org/eltbench/{db}/{}.{}\n  sync_mode: full_refresh_append\n  table: {}\n",
                    f.name(), t.name, f.name(), t.name
                ));
            }
        }
    }
    let mongo = names(task, |p| p == Place::Mongodb);
    if !mongo.is_empty() {
        out.push_str(&format!(
            "mongodb:\n  config:\n    connection_string: mongodb://elt-mongodb:27017/?directConnection=true\n    database: {db}\n    sync_mode: full_refresh_append\n    tables:\n"
        ));
        list(&mut out, "    ", &mongo);
    }
    let pg = names(task, |p| p == Place::Postgres);
    if !pg.is_empty() {
        out.push_str(&format!(
            "postgres:\n  config:\n    database: {db}\n    host: elt-postgres\n    password: testelt\n    port: 5432\n    schema: public\n    sync_mode: full_refresh_append\n    tables:\n"
        ));
        list(&mut out, "    ", &pg);
        out.push_str("    user: postgres\n");
    }
    out.push_str(&format!(
        "snowflake:\n  config:\n    database: {db}\n    password: Snowflake@123\n    role: AIRBYTE_ROLE\n    schema: AIRBYTE_SCHEMA\n    username: AIRBYTE_USER\n    warehouse: AIRBYTE_WAREHOUSE\n"
    ));
    out
}

const AIRBYTE: &str = "Airbyte:
  config:
    files_definition_id: 778daa7c-feaf-4db6-96f3-70fd645acc77
    mongodb_definition_id: b2e713cd-cc36-4c0a-b5bd-b47cb8a0561e
    namespace_definition: destination
    postgres_definition_id: decd338e-5647-4c0b-adf4-da0e75f5a750
    s3_definition_id: 69589781-7828-43c5-9f63-8925b1c1ccc2
    server_url: http://airbyte-abctl-control-plane:80/api/public/v1/
    snowflake_definition_id: 424892c4-daac-4491-b35d-c6688ba547ba
";

const S3_HEAD: &str = "aws_s3:
  AWS_ACCESS_KEY_ID: test
  AWS_DEFAULT_REGION: us-west-2
  AWS_ENDPOINT_URL: http://elt-localstack:4566
  AWS_SECRET_ACCESS_KEY: test
  data:
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Format;

    #[test]
    fn config_has_every_block_in_the_original_order() {
        let mut tables = Vec::new();
        for (name, place) in [
            ("a", Place::Postgres),
            ("b", Place::Mongodb),
            ("c", Place::CustomApi),
            ("d", Place::S3(Format::Parquet)),
            ("e", Place::FlatFile(Format::Jsonl)),
        ] {
            tables.push(Table::new(name, place, &[("id", "x")]));
        }
        let text = config_yaml(&TaskSpec {
            db: "my_db",
            tables,
        });
        let keys: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with([' ', '-']))
            .collect();
        assert_eq!(
            keys,
            [
                "Airbyte:",
                "aws_s3:",
                "custom_api:",
                "flat_files:",
                "mongodb:",
                "postgres:",
                "snowflake:"
            ]
        );
        assert!(
            text.contains("  - path: s3://my-db-bucket/d.parquet\n"),
            "{text}"
        );
        assert!(text.contains(
            "- format: jsonl\n  path: https://data.example.org/eltbench/my_db/e.jsonl\n"
        ));
        let parsed: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
        assert_eq!(parsed["postgres"]["config"]["tables"][0], "a");
    }
}
