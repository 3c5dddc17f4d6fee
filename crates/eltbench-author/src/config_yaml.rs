//! Writing a task's `config.yaml` in the exact shape of the original's files:
//! top-level keys and block keys in sorted order, the `Airbyte` block with
//! the definition ids of the kinds present, the original's Docker host names
//! and credentials (rewritten to local endpoints at run time by `sources`),
//! every stream `full_refresh_append`, and the `snowflake` destination.
//! Never decides which table goes where: [`crate::assign`] does.

use eltbench_task::{FileFormat, SourceKind};
use serde_yaml::{Mapping, Value};

use crate::assign::Assignment;

/// The Airbyte connector definition ids the original's configs carry.
const DEFINITION_IDS: [(&str, &str); 5] = [
    (
        "files_definition_id",
        "778daa7c-feaf-4db6-96f3-70fd645acc77",
    ),
    (
        "mongodb_definition_id",
        "b2e713cd-cc36-4c0a-b5bd-b47cb8a0561e",
    ),
    (
        "postgres_definition_id",
        "decd338e-5647-4c0b-adf4-da0e75f5a750",
    ),
    ("s3_definition_id", "69589781-7828-43c5-9f63-8925b1c1ccc2"),
    (
        "snowflake_definition_id",
        "424892c4-daac-4491-b35d-c6688ba547ba",
    ),
];
const SYNC_MODE: &str = "full_refresh_append";

/// The file extension of a format.
pub fn extension(format: FileFormat) -> &'static str {
    match format {
        FileFormat::Csv => "csv",
        FileFormat::Jsonl => "jsonl",
        FileFormat::Parquet => "parquet",
        FileFormat::Json => "json",
    }
}

/// The S3 bucket of a task (`_` is not allowed in bucket names).
pub fn bucket(db: &str) -> String {
    format!("{}-bucket", db.replace('_', "-").to_ascii_lowercase())
}

/// The text of `config.yaml` for task `db` with `tables` assigned.
pub fn config_yaml(db: &str, tables: &[Assignment]) -> String {
    let of = |kind: SourceKind| -> Vec<&Assignment> {
        tables.iter().filter(|a| a.kind == kind).collect()
    };
    let mut root = Mapping::new();
    root.insert("Airbyte".into(), nested(airbyte(tables)));
    let s3 = of(SourceKind::AwsS3);
    if !s3.is_empty() {
        root.insert("aws_s3".into(), aws_s3(db, &s3));
    }
    let api = of(SourceKind::CustomApi);
    if !api.is_empty() {
        let mut cfg = Mapping::new();
        cfg.insert("configuration".into(), Value::Mapping(Mapping::new()));
        cfg.insert("sync_mode".into(), SYNC_MODE.into());
        cfg.insert("tables".into(), names(&api));
        root.insert("custom_api".into(), nested(cfg));
    }
    let files = of(SourceKind::FlatFiles);
    if !files.is_empty() {
        root.insert("flat_files".into(), flat_files(db, &files));
    }
    let mongo = of(SourceKind::Mongodb);
    if !mongo.is_empty() {
        root.insert("mongodb".into(), nested(mongodb(db, &mongo)));
    }
    let pg = of(SourceKind::Postgres);
    if !pg.is_empty() {
        root.insert("postgres".into(), nested(postgres(db, &pg)));
    }
    root.insert("snowflake".into(), nested(snowflake(db)));
    serde_yaml::to_string(&Value::Mapping(root)).unwrap_or_default()
}

fn nested(config: Mapping) -> Value {
    let mut outer = Mapping::new();
    outer.insert("config".into(), Value::Mapping(config));
    Value::Mapping(outer)
}

fn names(tables: &[&Assignment]) -> Value {
    Value::Sequence(tables.iter().map(|a| a.table.as_str().into()).collect())
}

fn airbyte(tables: &[Assignment]) -> Mapping {
    let has = |kind: SourceKind| tables.iter().any(|a| a.kind == kind);
    let wanted = |key: &str| match key {
        "files_definition_id" => has(SourceKind::FlatFiles),
        "mongodb_definition_id" => has(SourceKind::Mongodb),
        "postgres_definition_id" => has(SourceKind::Postgres),
        "s3_definition_id" => has(SourceKind::AwsS3),
        _ => true,
    };
    let mut cfg = Mapping::new();
    for (key, id) in DEFINITION_IDS.iter().filter(|(k, _)| wanted(k)) {
        cfg.insert((*key).into(), (*id).into());
    }
    cfg.insert("namespace_definition".into(), "destination".into());
    cfg.insert(
        "server_url".into(),
        "http://airbyte-abctl-control-plane:80/api/public/v1/".into(),
    );
    sorted(cfg)
}

fn sorted(map: Mapping) -> Mapping {
    let mut entries: Vec<(Value, Value)> = map.into_iter().collect();
    entries.sort_by(|a, b| a.0.as_str().cmp(&b.0.as_str()));
    entries.into_iter().collect()
}

fn aws_s3(db: &str, tables: &[&Assignment]) -> Value {
    let data: Vec<Value> = tables
        .iter()
        .map(|a| {
            let ext = extension(a.format.unwrap_or(FileFormat::Csv));
            let mut entry = Mapping::new();
            let path = format!("s3://{}/{}.{ext}", bucket(db), a.table);
            entry.insert("path".into(), path.into());
            entry.insert("sync_mode".into(), SYNC_MODE.into());
            entry.insert("table".into(), a.table.as_str().into());
            Value::Mapping(entry)
        })
        .collect();
    let mut cfg = Mapping::new();
    cfg.insert("AWS_ACCESS_KEY_ID".into(), "test".into());
    cfg.insert("AWS_DEFAULT_REGION".into(), "us-west-2".into());
    cfg.insert(
        "AWS_ENDPOINT_URL".into(),
        "http://elt-localstack:4566".into(),
    );
    cfg.insert("AWS_SECRET_ACCESS_KEY".into(), "test".into());
    cfg.insert("data".into(), Value::Sequence(data));
    Value::Mapping(cfg)
}

fn flat_files(db: &str, tables: &[&Assignment]) -> Value {
    let list = tables
        .iter()
        .map(|a| {
            let ext = extension(a.format.unwrap_or(FileFormat::Csv));
            let mut entry = Mapping::new();
            entry.insert("format".into(), ext.into());
            let url = format!("https://files.eltbench.invalid/{db}/{}.{ext}", a.table);
            entry.insert("path".into(), url.into());
            entry.insert("sync_mode".into(), SYNC_MODE.into());
            entry.insert("table".into(), a.table.as_str().into());
            Value::Mapping(entry)
        })
        .collect();
    Value::Sequence(list)
}

fn mongodb(db: &str, tables: &[&Assignment]) -> Mapping {
    let mut cfg = Mapping::new();
    cfg.insert(
        "connection_string".into(),
        "mongodb://elt-mongodb:27017/?directConnection=true".into(),
    );
    cfg.insert("database".into(), db.into());
    cfg.insert("sync_mode".into(), SYNC_MODE.into());
    cfg.insert("tables".into(), names(tables));
    cfg
}

fn postgres(db: &str, tables: &[&Assignment]) -> Mapping {
    let mut cfg = Mapping::new();
    cfg.insert("database".into(), db.into());
    cfg.insert("host".into(), "elt-postgres".into());
    cfg.insert("password".into(), "testelt".into());
    cfg.insert("port".into(), 5432.into());
    cfg.insert("schema".into(), "public".into());
    cfg.insert("sync_mode".into(), SYNC_MODE.into());
    cfg.insert("tables".into(), names(tables));
    cfg.insert("user".into(), "postgres".into());
    cfg
}

fn snowflake(db: &str) -> Mapping {
    let mut cfg = Mapping::new();
    cfg.insert("database".into(), db.into());
    cfg.insert("password".into(), "Snowflake@123".into());
    cfg.insert("role".into(), "AIRBYTE_ROLE".into());
    cfg.insert("schema".into(), "AIRBYTE_SCHEMA".into());
    cfg.insert("username".into(), "AIRBYTE_USER".into());
    cfg.insert("warehouse".into(), "AIRBYTE_WAREHOUSE".into());
    cfg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assign::{KIND_ORDER, assign};

    #[test]
    fn the_config_has_the_original_shape() {
        let tables: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let text = config_yaml("my_shop", &assign(&tables, &KIND_ORDER));
        let original = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../../shared/elt-bench/tasks/address/config.yaml"),
        )
        .unwrap();
        let keys = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with(' ') && !l.starts_with('-'))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(keys(&text), keys(&original), "{text}");
        assert!(
            text.contains("  - path: s3://my-shop-bucket/d.csv\n"),
            "{text}"
        );
        assert!(text.contains("- format: jsonl\n"), "{text}");
        let parsed = eltbench_task::TaskConfig::parse(&text, "c.yaml".as_ref()).unwrap();
        assert_eq!(parsed.sources().len(), 5);
        assert!(parsed.unknown_keys.is_empty());
    }
}
