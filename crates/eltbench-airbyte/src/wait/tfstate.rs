//! The connections of a `terraform.tfstate` (version 4): every `airbyte_connection`
//! instance's `connection_id`, keyed by resource address. Read-only.

use std::path::Path;

use serde_json::Value;

use super::{WaitError, WaitTarget};

/// Every connection of the state file, sorted by address; an error when the file is
/// missing, is not JSON, or holds no connection.
pub fn connections_in_state(path: &Path) -> Result<Vec<WaitTarget>, WaitError> {
    let state_err = |message: String| WaitError::State {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        state_err(format!(
            "cannot read it ({e}); run `terraform apply` in the directory holding main.tf first"
        ))
    })?;
    let state: Value =
        serde_json::from_str(&text).map_err(|e| state_err(format!("not valid JSON: {e}")))?;
    let targets = parse(&state);
    if targets.is_empty() {
        return Err(state_err(
            "it holds no `airbyte_connection` with a connection_id".to_owned(),
        ));
    }
    Ok(targets)
}

fn parse(state: &Value) -> Vec<WaitTarget> {
    let mut targets: Vec<WaitTarget> = state
        .get("resources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|r| r.get("mode").and_then(Value::as_str).unwrap_or("managed") == "managed")
        .filter(|r| r.get("type").and_then(Value::as_str) == Some("airbyte_connection"))
        .flat_map(instances)
        .collect();
    targets.sort_by(|a, b| a.name.cmp(&b.name));
    targets
}

fn instances(resource: &Value) -> Vec<WaitTarget> {
    let name = resource.get("name").and_then(Value::as_str).unwrap_or("?");
    let list = resource.get("instances").and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .filter_map(|instance| {
            let id = instance.pointer("/attributes/connection_id")?.as_str()?;
            let address = match instance.get("index_key") {
                Some(Value::String(key)) => format!("airbyte_connection.{name}[\"{key}\"]"),
                Some(Value::Number(n)) => format!("airbyte_connection.{name}[{n}]"),
                _ => format!("airbyte_connection.{name}"),
            };
            Some(WaitTarget {
                name: address,
                connection_id: id.to_owned(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn connections_are_listed_by_address() {
        let state = json!({"version": 4, "resources": [
            {"mode": "managed", "type": "airbyte_connection", "name": "pg",
             "instances": [{"attributes": {"connection_id": "c1"}}]},
            {"mode": "managed", "type": "airbyte_source_postgres", "name": "pg",
             "instances": [{"attributes": {"source_id": "s1"}}]},
            {"mode": "managed", "type": "airbyte_connection", "name": "each",
             "instances": [{"index_key": "b", "attributes": {"connection_id": "c2"}},
                           {"index_key": 0, "attributes": {}}]},
            {"mode": "managed", "type": "airbyte_connection", "name": "gone", "instances": []},
        ]});
        let found: Vec<_> = parse(&state)
            .into_iter()
            .map(|t| (t.name, t.connection_id))
            .collect();
        assert_eq!(
            found,
            vec![
                ("airbyte_connection.each[\"b\"]".to_owned(), "c2".to_owned()),
                ("airbyte_connection.pg".to_owned(), "c1".to_owned()),
            ]
        );
    }

    #[test]
    fn missing_and_empty_states_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("terraform.tfstate");
        let missing = connections_in_state(&path).unwrap_err().to_string();
        assert!(missing.contains("terraform.tfstate"), "{missing}");
        std::fs::write(&path, r#"{"version": 4, "resources": []}"#).unwrap();
        let empty = connections_in_state(&path).unwrap_err().to_string();
        assert!(empty.contains("no `airbyte_connection`"), "{empty}");
    }
}
