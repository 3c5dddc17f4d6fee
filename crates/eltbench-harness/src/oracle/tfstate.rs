//! Connection ids from `terraform.tfstate`, read the way an agent would after
//! `terraform apply`: every `airbyte_connection` instance's `connection_id`,
//! by resource name. Read-only.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::error::OracleError;

/// `resource name → connection_id` of every `airbyte_connection` in the state.
pub fn connection_ids(state_path: &Path) -> Result<BTreeMap<String, String>, OracleError> {
    let text = std::fs::read_to_string(state_path).map_err(|e| OracleError::io(state_path, e))?;
    let state: Value = serde_json::from_str(&text).map_err(|e| OracleError::Config {
        path: state_path.to_path_buf(),
        message: e.to_string(),
    })?;
    let ids = parse(&state);
    if ids.is_empty() {
        return Err(OracleError::NoConnections {
            path: state_path.to_path_buf(),
        });
    }
    Ok(ids)
}

fn parse(state: &Value) -> BTreeMap<String, String> {
    let resources = state.get("resources").and_then(Value::as_array);
    resources
        .into_iter()
        .flatten()
        .filter(|r| r.get("type").and_then(Value::as_str) == Some("airbyte_connection"))
        .filter_map(|r| {
            let name = r.get("name")?.as_str()?;
            let id = r
                .get("instances")?
                .as_array()?
                .first()?
                .get("attributes")?
                .get("connection_id")?
                .as_str()?;
            Some((name.to_owned(), id.to_owned()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_connections_with_ids_are_listed() {
        let state = json!({"resources": [
            {"type": "airbyte_connection", "name": "pg",
             "instances": [{"attributes": {"connection_id": "c1"}}]},
            {"type": "airbyte_source_postgres", "name": "pg",
             "instances": [{"attributes": {"source_id": "s1"}}]},
            {"type": "airbyte_connection", "name": "broken", "instances": []},
        ]});
        let ids = parse(&state);
        assert_eq!(ids.len(), 1);
        assert_eq!(ids["pg"], "c1");
    }
}
