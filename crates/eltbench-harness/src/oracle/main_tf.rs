//! The gold `elt/main.tf` of a task: what a perfect agent writes from the
//! rewritten `config.yaml` — the provider, one source resource per source
//! kind (one per file for flat files, one per bucket for S3), the DuckDB
//! destination in `airbyte_schema`, and one connection per source with every
//! table as a stream in the sync mode the config names. Pure text; it never
//! talks to Airbyte.

use std::path::Path;

use eltbench_task::TaskConfig;

use super::error::OracleError;
use super::hcl::{Item, attr, attr_str, quote, render};
use super::sources::{Source, sources};

const DESTINATION: &str = "airbyte_destination_duckdb.warehouse.destination_id";

/// The gold `main.tf` for a rewritten `config.yaml` (its text; `path` is for
/// messages), the warehouse file and the Airbyte API URL.
pub fn gold_main_tf(
    config_yaml: &str,
    path: &Path,
    warehouse: &Path,
    airbyte_url: &str,
) -> Result<String, OracleError> {
    let config = TaskConfig::parse(config_yaml, path).map_err(|e| OracleError::Config {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let raw: serde_yaml::Value =
        serde_yaml::from_str(config_yaml).map_err(|e| OracleError::Config {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    let db = database(&config, warehouse);
    let sources = sources(&config, &raw, &db, path)?;
    if sources.is_empty() {
        return Err(OracleError::Config {
            path: path.to_path_buf(),
            message: "no source block".into(),
        });
    }
    let mut items = vec![
        terraform_block(),
        provider_block(airbyte_url),
        variable_block(),
    ];
    items.push(destination_block(warehouse));
    for source in &sources {
        items.push(source_block(source));
    }
    for source in &sources {
        items.push(connection_block(source));
    }
    Ok(render(&items))
}

/// The task database: the warehouse database the original named, else the
/// warehouse file's stem.
fn database(config: &TaskConfig, warehouse: &Path) -> String {
    config
        .snowflake
        .as_ref()
        .map(|s| s.database.clone())
        .filter(|d| !d.is_empty())
        .or_else(|| {
            warehouse
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .unwrap_or_default()
}

fn terraform_block() -> Item {
    Item::Block(
        "terraform".into(),
        vec![Item::Block(
            "required_providers".into(),
            vec![Item::Object(
                "airbyte".into(),
                vec![
                    attr_str("source", "airbytehq/airbyte"),
                    attr_str("version", "0.6.5"),
                ],
            )],
        )],
    )
}

fn provider_block(airbyte_url: &str) -> Item {
    Item::Block(
        "provider \"airbyte\"".into(),
        vec![
            attr_str("server_url", airbyte_url),
            attr_str("username", eltbench_airbyte::DEFAULT_USERNAME),
            attr_str("password", eltbench_airbyte::DEFAULT_PASSWORD),
        ],
    )
}

fn variable_block() -> Item {
    Item::Block(
        "variable \"workspace_id\"".into(),
        vec![
            attr("type", "string"),
            attr_str("default", eltbench_airbyte::DEFAULT_WORKSPACE_ID),
        ],
    )
}

fn destination_block(warehouse: &Path) -> Item {
    Item::Block(
        "resource \"airbyte_destination_duckdb\" \"warehouse\"".into(),
        vec![
            attr_str("name", "duckdb"),
            attr("workspace_id", "var.workspace_id"),
            Item::Object(
                "configuration".into(),
                vec![
                    attr_str("destination_path", &warehouse.to_string_lossy()),
                    attr_str("schema", "airbyte_schema"),
                ],
            ),
        ],
    )
}

fn source_block(source: &Source) -> Item {
    let mut body = vec![
        attr_str("name", &source.name),
        attr("workspace_id", "var.workspace_id"),
    ];
    body.extend(source.body.iter().cloned());
    Item::Block(
        format!("resource \"{}\" \"{}\"", source.resource, source.name),
        body,
    )
}

fn connection_block(source: &Source) -> Item {
    let streams = source
        .streams
        .iter()
        .map(|(name, mode)| format!("{{ name = {}, sync_mode = {} }}", quote(name), quote(mode)))
        .collect();
    Item::Block(
        format!("resource \"airbyte_connection\" \"{}\"", source.name),
        vec![
            attr_str("name", &format!("{} to duckdb", source.name)),
            attr(
                "source_id",
                format!("{}.{}.source_id", source.resource, source.name),
            ),
            attr("destination_id", DESTINATION),
            attr_str("namespace_definition", "destination"),
            Item::Object(
                "configurations".into(),
                vec![Item::List("streams".into(), streams)],
            ),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "\
aws_s3:
  AWS_ACCESS_KEY_ID: test
  AWS_DEFAULT_REGION: us-west-2
  AWS_ENDPOINT_URL: http://127.0.0.1:4566
  AWS_SECRET_ACCESS_KEY: test
  data:
  - path: s3://b1/x.jsonl
    sync_mode: full_refresh_append
    table: x
  - path: s3://b2/y.csv
    sync_mode: full_refresh_append
    table: y
custom_api:
  config:
    configuration: {}
    sync_mode: full_refresh_append
    tables: [alias]
    base_url: http://127.0.0.1:9000
flat_files:
- format: csv
  path: http://127.0.0.1:8080/shop/state.csv
  sync_mode: full_refresh_append
  table: state
- format: jsonl
  path: http://127.0.0.1:8080/shop/city-list.jsonl
  sync_mode: full_refresh_append
  table: city-list
postgres:
  config: {database: shop, host: 127.0.0.1, password: p, port: 5433, schema: public,
    sync_mode: full_refresh_append, tables: [a, b], user: postgres}
snowflake:
  config: {database: shop, password: x, role: r, schema: s, username: u, warehouse: w}
";

    fn gold(config: &str) -> Result<String, OracleError> {
        gold_main_tf(
            config,
            Path::new("config.yaml"),
            Path::new("/run/shop.duckdb"),
            "http://127.0.0.1:1/api/public/v1",
        )
    }

    #[test]
    fn one_resource_per_kind_per_file_and_per_bucket() {
        let text = gold(CONFIG).unwrap();
        let count = |needle: &str| text.matches(needle).count();
        assert_eq!(count("resource \"airbyte_source_postgres\""), 1);
        assert_eq!(count("resource \"airbyte_source_custom\""), 1);
        assert_eq!(count("resource \"airbyte_source_s3\""), 2);
        assert_eq!(count("resource \"airbyte_source_file\""), 2);
        assert_eq!(count("resource \"airbyte_destination_duckdb\""), 1);
        assert_eq!(count("resource \"airbyte_connection\""), 6);
        assert!(text.contains("resource \"airbyte_source_file\" \"file_city_list\""));
        assert!(text.contains("port     = 5433"));
        assert!(text.contains(
            r#"jsonencode({ "base_url" = "http://127.0.0.1:9000", "database" = "shop", "streams" = ["alias"] })"#
        ));
        assert!(
            text.contains(r#"{ name = "x", globs = ["x.jsonl"], format = { jsonl_format = {} } }"#)
        );
        assert!(text.contains(r#"destination_path = "/run/shop.duckdb""#));
        assert_eq!(
            count("{ name = \"a\", sync_mode = \"full_refresh_append\" }"),
            1
        );
        assert_eq!(eltbench_terraform::fmt::format_source(&text), text);
    }

    #[test]
    fn a_config_not_rewritten_for_the_api_is_an_error() {
        let config = CONFIG.replace("    base_url: http://127.0.0.1:9000\n", "");
        let err = gold(&config).unwrap_err().to_string();
        assert!(err.contains("custom_api.config.base_url"), "{err}");
    }

    #[test]
    fn a_config_without_sources_is_an_error() {
        let err = gold("snowflake:\n  config: {database: d, password: x, role: r, schema: s, username: u, warehouse: w}\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("no source block"), "{err}");
    }
}
