//! The task's `config.yaml` as the agent sees it in a local run: the Docker host names
//! (`elt-postgres`, `elt-mongodb`, `elt-localstack`, `elt-api`) and the remote flat-file
//! URLs replaced by this environment's 127.0.0.1 endpoints, and `custom_api.config`
//! given a `base_url`. Everything else, the `snowflake:` and `Airbyte:` blocks
//! included, is kept as written (key order too). Never touches the suite's file.

use serde_yaml::{Mapping, Value};

use super::endpoints::Endpoints;

/// Why the config could not be rewritten.
#[derive(Debug, thiserror::Error)]
#[error("cannot rewrite config.yaml: {0}")]
pub struct RewriteError(String);

/// The rewritten text of `config.yaml` (`original` is the suite's file text).
pub fn rewrite_config(original: &str, endpoints: &Endpoints) -> Result<String, RewriteError> {
    let mut doc: Value = serde_yaml::from_str(original).map_err(|e| RewriteError(e.to_string()))?;
    let root = doc
        .as_mapping_mut()
        .ok_or_else(|| RewriteError("the top level is not a mapping".into()))?;
    if let (Some(pg), Some(cfg)) = (&endpoints.postgres, block(root, "postgres")) {
        set(cfg, "host", Value::from(pg.host.clone()));
        set(cfg, "port", Value::from(pg.port));
    }
    if let (Some(m), Some(cfg)) = (&endpoints.mongodb, block(root, "mongodb")) {
        set(cfg, "connection_string", Value::from(m.uri.clone()));
    }
    if let (Some(api), Some(cfg)) = (&endpoints.custom_api, block(root, "custom_api")) {
        set(cfg, "base_url", Value::from(api.base_url.clone()));
    }
    let s3_block = root.get_mut("aws_s3").and_then(Value::as_mapping_mut);
    if let (Some(s3), Some(cfg)) = (&endpoints.aws_s3, s3_block) {
        set(
            cfg,
            "AWS_ENDPOINT_URL",
            Value::from(s3.endpoint_url.clone()),
        );
    }
    if let (Some(files), Some(Value::Sequence(list))) =
        (&endpoints.flat_files, root.get_mut("flat_files"))
    {
        for entry in list.iter_mut().filter_map(Value::as_mapping_mut) {
            let table = entry
                .get("table")
                .and_then(Value::as_str)
                .map(str::to_owned);
            if let Some(url) = table.and_then(|t| files.urls.get(&t)) {
                set(entry, "path", Value::from(url.clone()));
            }
        }
    }
    serde_yaml::to_string(&doc).map_err(|e| RewriteError(e.to_string()))
}

/// `root[key].config` as a mapping.
fn block<'a>(root: &'a mut Mapping, key: &str) -> Option<&'a mut Mapping> {
    root.get_mut(key)?.get_mut("config")?.as_mapping_mut()
}

/// Sets `key` in place (keeping its position) or appends it.
fn set(map: &mut Mapping, key: &str, value: Value) {
    match map.get_mut(key) {
        Some(slot) => *slot = value,
        None => {
            map.insert(Value::from(key), value);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::super::endpoints::{HttpEndpoint, MongoEndpoint, PostgresEndpoint};
    use super::*;

    const ORIGINAL: &str = "\
custom_api:
  config:
    configuration: {}
    tables: [a]
flat_files:
- format: csv
  path: https://drive.google.com/uc?id=1
  table: state
mongodb:
  config:
    connection_string: mongodb://elt-mongodb:27017/?directConnection=true
    database: address
postgres:
  config:
    host: elt-postgres
    port: 5432
    user: postgres
snowflake:
  config:
    password: Snowflake@123
";

    #[test]
    fn hosts_become_local_endpoints_and_the_rest_stays() {
        let endpoints = Endpoints {
            postgres: Some(PostgresEndpoint {
                host: "127.0.0.1".into(),
                port: 40001,
                database: "address".into(),
                user: "postgres".into(),
                password: "testelt".into(),
                schema: "public".into(),
                postmaster_pid: None,
                data_dir: "/x".into(),
                tables: vec![],
            }),
            mongodb: Some(MongoEndpoint {
                uri: "mongodb://127.0.0.1:40002/?directConnection=true".into(),
                port: 40002,
                database: "address".into(),
                collections: vec![],
                served_by: super::super::endpoints::MONGO_WIRE.into(),
            }),
            custom_api: Some(HttpEndpoint {
                base_url: "http://127.0.0.1:40003".into(),
                port: 40003,
                urls: BTreeMap::new(),
            }),
            flat_files: Some(HttpEndpoint {
                base_url: "http://127.0.0.1:40004".into(),
                port: 40004,
                urls: BTreeMap::from([(
                    "state".into(),
                    "http://127.0.0.1:40004/address/state.csv".into(),
                )]),
            }),
            aws_s3: None,
        };
        let text = rewrite_config(ORIGINAL, &endpoints).unwrap();
        let doc: Value = serde_yaml::from_str(&text).unwrap();
        assert_eq!(doc["postgres"]["config"]["host"], "127.0.0.1");
        assert_eq!(doc["postgres"]["config"]["port"], 40001);
        assert_eq!(doc["postgres"]["config"]["user"], "postgres");
        assert_eq!(
            doc["mongodb"]["config"]["connection_string"],
            "mongodb://127.0.0.1:40002/?directConnection=true"
        );
        assert_eq!(
            doc["custom_api"]["config"]["base_url"],
            "http://127.0.0.1:40003"
        );
        assert_eq!(
            doc["flat_files"][0]["path"],
            "http://127.0.0.1:40004/address/state.csv"
        );
        assert_eq!(doc["snowflake"]["config"]["password"], "Snowflake@123");
        for host in ["elt-postgres", "elt-mongodb", "drive.google.com"] {
            assert!(!text.contains(host), "{host} left in:\n{text}");
        }
        let keys: Vec<_> = doc.as_mapping().unwrap().keys().collect();
        assert_eq!(keys.len(), 5);
    }
}
