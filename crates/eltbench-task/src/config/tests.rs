use std::path::Path;

use super::*;

const CONFIG: &str = r#"Airbyte:
  config:
    server_url: http://airbyte-abctl-control-plane:80/api/public/v1/
    namespace_definition: destination
    s3_definition_id: 69589781
aws_s3:
  AWS_ACCESS_KEY_ID: test
  AWS_SECRET_ACCESS_KEY: test
  data:
  - path: s3://b/CBSA.jsonl
    sync_mode: full_refresh_append
    table: CBSA
flat_files:
- format: parquet
  path: https://example.org/f
  sync_mode: full_refresh_append
  table: state
postgres:
  config: {database: d, host: elt-postgres, password: p, port: 5432, schema: public, sync_mode: full_refresh_append, tables: [a, b], user: postgres}
oracle:
  config: {}
snowflake:
  config: {database: d, password: p, role: R, schema: S, username: U, warehouse: W}
"#;

#[test]
fn parses_every_block_of_the_original_layout() {
    let config = TaskConfig::parse(CONFIG, Path::new("config.yaml")).unwrap();
    let airbyte = config.airbyte.as_ref().unwrap();
    assert_eq!(airbyte.namespace_definition.as_deref(), Some("destination"));
    assert_eq!(airbyte.definition_id("s3_definition_id"), Some("69589781"));
    assert_eq!(config.postgres.as_ref().unwrap().port, 5432);
    assert_eq!(
        config.aws_s3.as_ref().unwrap().data[0].format(),
        Some(crate::FileFormat::Jsonl)
    );
    assert_eq!(
        config.flat_files.as_ref().unwrap().0[0].format,
        crate::FileFormat::Parquet
    );
    assert_eq!(config.snowflake.as_ref().unwrap().warehouse, "W");
    assert_eq!(config.unknown_keys, vec!["oracle".to_owned()]);
}

#[test]
fn sources_come_in_kind_order() {
    let config = TaskConfig::parse(CONFIG, Path::new("config.yaml")).unwrap();
    let kinds: Vec<_> = config.sources().iter().map(|s| s.kind()).collect();
    assert_eq!(
        kinds,
        vec![
            SourceKind::Postgres,
            SourceKind::AwsS3,
            SourceKind::FlatFiles
        ]
    );
    assert_eq!(
        config.source(SourceKind::Postgres).unwrap().tables(),
        vec!["a", "b"]
    );
}

#[test]
fn a_wrong_shape_names_the_line() {
    let text = "postgres:\n  config:\n    port: not-a-number\n";
    let err = TaskConfig::parse(text, Path::new("t/config.yaml")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("t/config.yaml:3: invalid YAML: "),
        "{err}"
    );
}

#[test]
fn broken_yaml_names_the_line() {
    let err = TaskConfig::parse(
        "postgres:\n  config:\n    host: a: b\n",
        Path::new("c.yaml"),
    )
    .unwrap_err();
    assert!(
        err.to_string().starts_with("c.yaml:3: invalid YAML"),
        "{err}"
    );
}
