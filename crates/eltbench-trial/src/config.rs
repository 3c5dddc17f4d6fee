//! The workspace's `config.yaml`: the environment's rewritten config (local
//! source endpoints) with the `snowflake:` destination replaced, in place, by
//! `duckdb: {path, database, schema}` naming the trial's warehouse file, and
//! `Airbyte.config` pointing at the trial's Airbyte API with its credentials.
//!
//! Pure text in, text out; never reads or writes a file.

use std::path::Path;

use serde_yaml::{Mapping, Value};

/// The schema loaded tables and models land in.
pub const SCHEMA: &str = "airbyte_schema";

/// Where the trial's pipeline goes.
#[derive(Debug, Clone)]
pub struct Destination<'a> {
    pub db: &'a str,
    pub warehouse: &'a Path,
    pub airbyte_url: &'a str,
}

/// The workspace `config.yaml` from the environment's (`text`).
pub fn workspace_config(text: &str, dest: &Destination<'_>) -> Result<String, String> {
    let doc: Value = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
    let Value::Mapping(root) = doc else {
        return Err("the top level is not a mapping".into());
    };
    let mut out = Mapping::new();
    let mut placed = false;
    for (key, value) in root {
        match key.as_str() {
            Some("snowflake") => {
                out.insert("duckdb".into(), duckdb_block(dest));
                placed = true;
            }
            Some("Airbyte") => {
                out.insert(key, airbyte_block(Some(value), dest));
            }
            _ => {
                out.insert(key, value);
            }
        }
    }
    if !out.contains_key("Airbyte") {
        out.insert("Airbyte".into(), airbyte_block(None, dest));
    }
    if !placed {
        out.insert("duckdb".into(), duckdb_block(dest));
    }
    serde_yaml::to_string(&Value::Mapping(out)).map_err(|e| e.to_string())
}

fn duckdb_block(dest: &Destination<'_>) -> Value {
    let mut map = Mapping::new();
    map.insert(
        "path".into(),
        dest.warehouse.to_string_lossy().as_ref().into(),
    );
    map.insert("database".into(), dest.db.into());
    map.insert("schema".into(), SCHEMA.into());
    Value::Mapping(map)
}

/// `Airbyte.config` with the trial's server URL, user, password and
/// workspace id (other keys, such as definition ids, kept).
fn airbyte_block(old: Option<Value>, dest: &Destination<'_>) -> Value {
    let mut block = match old {
        Some(Value::Mapping(m)) => m,
        _ => Mapping::new(),
    };
    let mut config = match block.remove("config") {
        Some(Value::Mapping(m)) => m,
        _ => Mapping::new(),
    };
    let url = format!("{}/", dest.airbyte_url.trim_end_matches('/'));
    config.insert("server_url".into(), url.into());
    config.insert("username".into(), eltbench_airbyte::DEFAULT_USERNAME.into());
    config.insert("password".into(), eltbench_airbyte::DEFAULT_PASSWORD.into());
    config.insert(
        "workspace_id".into(),
        eltbench_airbyte::DEFAULT_WORKSPACE_ID.into(),
    );
    block.insert("config".into(), Value::Mapping(config));
    Value::Mapping(block)
}

/// A scalar of a config by dotted path (`postgres.config.port`), as text.
pub fn lookup(doc: &Value, dotted: &str) -> Option<String> {
    let mut node = doc;
    for part in dotted.split('.') {
        node = match node {
            Value::Mapping(m) => m.get(part)?,
            Value::Sequence(s) => s.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    match node {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "\
Airbyte:
  config:
    postgres_definition_id: decd
    server_url: http://airbyte-abctl-control-plane:80/api/public/v1/
postgres:
  config: {host: 127.0.0.1, port: 5433}
snowflake:
  config: {database: shop, password: x}
zzz: 1
";

    #[test]
    fn snowflake_becomes_duckdb_in_place_and_airbyte_is_local() {
        let dest = Destination {
            db: "shop",
            warehouse: Path::new("/t/warehouse/shop.duckdb"),
            airbyte_url: "http://127.0.0.1:4000/api/public/v1",
        };
        let text = workspace_config(CONFIG, &dest).unwrap();
        assert!(!text.contains("snowflake"), "{text}");
        let doc: Value = serde_yaml::from_str(&text).unwrap();
        assert_eq!(
            lookup(&doc, "duckdb.path").as_deref(),
            Some("/t/warehouse/shop.duckdb")
        );
        assert_eq!(lookup(&doc, "duckdb.schema").as_deref(), Some(SCHEMA));
        assert_eq!(
            lookup(&doc, "Airbyte.config.server_url").as_deref(),
            Some("http://127.0.0.1:4000/api/public/v1/")
        );
        assert_eq!(
            lookup(&doc, "Airbyte.config.postgres_definition_id").as_deref(),
            Some("decd")
        );
        assert_eq!(
            lookup(&doc, "postgres.config.port").as_deref(),
            Some("5433")
        );
        let keys: Vec<_> = doc
            .as_mapping()
            .unwrap()
            .keys()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(keys, ["Airbyte", "postgres", "duckdb", "zzz"]);
    }
}
