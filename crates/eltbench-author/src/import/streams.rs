//! The original's custom REST connector manifest (`setup/elt_bench.yaml`)
//! read into `rest_api_streams.json`: for each stream under
//! `definitions.streams`, its request path and the JSON schema its
//! `schema_loader` points at under `schemas`. Never contacts an API.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// `stream => {path, json_schema}`; unreadable streams are left out.
pub fn parse_manifest(text: &str) -> Result<BTreeMap<String, Value>, String> {
    let doc: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
    let doc: Value = serde_json::to_value(doc).map_err(|e| e.to_string())?;
    let schemas = &doc["schemas"];
    let Some(streams) = doc["definitions"]["streams"].as_object() else {
        return Err("no `definitions.streams` mapping".into());
    };
    let mut out = BTreeMap::new();
    for (name, stream) in streams {
        let Some(path) = stream["retriever"]["requester"]["path"].as_str() else {
            continue;
        };
        let schema = stream["schema_loader"]["schema"]["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/schemas/"))
            .map_or(Value::Null, |key| schemas[key].clone());
        out.insert(name.clone(), json!({"json_schema": schema, "path": path}));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_get_path_and_schema() {
        let manifest = "definitions:\n  streams:\n    alias:\n      retriever:\n        requester:\n          path: /address/alias\n      schema_loader:\n        schema:\n          $ref: \"#/schemas/alias\"\nschemas:\n  alias:\n    type: object\n    properties:\n      zip_code:\n        type: [number, \"null\"]\n";
        let streams = parse_manifest(manifest).unwrap();
        assert_eq!(streams["alias"]["path"], "/address/alias");
        assert_eq!(
            streams["alias"]["json_schema"]["properties"]["zip_code"]["type"],
            json!(["number", "null"])
        );
    }
}
