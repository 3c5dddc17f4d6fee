//! A connection's stream configuration: parsing `configurations.streams` and checking
//! it against the streams the source offers, with Airbyte's messages.
//!
//! The result is twofold: what the caller asked for (echoed back by the API) and the
//! same streams with every default resolved (cursor, primary key), which the executor
//! gets. No streams given means every offered stream in `full_refresh_overwrite`, as
//! Airbyte does. Nothing here talks to a source: the catalog is passed in.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::enums::SyncMode;
use crate::errors::{ApiProblem, ApiResult};
use crate::executor::StreamInfo;
use crate::model::{ConfiguredStream, StreamConfig};
use crate::requests::Fields;

/// Parses `configurations` (`{streams: [...]}`); `None` when absent or empty.
pub fn parse(
    configurations: Option<&serde_json::Map<String, Value>>,
) -> ApiResult<Option<Vec<StreamConfig>>> {
    let Some(configurations) = configurations else {
        return Ok(None);
    };
    let fields = Fields::nested(configurations, "configurations");
    let Some(items) = fields.optional_array("streams")? else {
        return Ok(None);
    };
    if items.is_empty() {
        return Ok(None);
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| parse_stream(i, item))
        .collect::<ApiResult<Vec<_>>>()
        .map(Some)
}

fn parse_stream(index: usize, item: &Value) -> ApiResult<StreamConfig> {
    let path = format!("configurations.streams[{index}]");
    let map = item.as_object().ok_or_else(|| {
        ApiProblem::bad_request(format!(
            "Invalid value for field {path}: expected a JSON object"
        ))
    })?;
    let fields = Fields::nested(map, &path);
    let name = fields.required_name("name")?;
    Ok(StreamConfig {
        sync_mode: fields
            .optional_enum::<SyncMode>("syncMode")?
            .unwrap_or(SyncMode::FullRefreshOverwrite),
        cursor_field: fields.optional_strings("cursorField")?,
        primary_key: fields.optional_string_lists("primaryKey")?,
        selected_fields: parse_selected(&fields, &name)?,
        name,
    })
}

fn parse_selected(fields: &Fields<'_>, stream: &str) -> ApiResult<Option<Vec<String>>> {
    let Some(items) = fields.optional_array("selectedFields")? else {
        return Ok(None);
    };
    let mut names = Vec::new();
    for item in items {
        let path: Vec<&str> = item
            .get("fieldPath")
            .and_then(Value::as_array)
            .map(|p| p.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        match path.as_slice() {
            [] => {
                return Err(bad(format!(
                    "Selected field path cannot be empty for stream:  {stream}."
                )));
            }
            [one] => names.push((*one).to_owned()),
            _ => {
                return Err(bad(format!(
                    "Nested field selection not supported for stream {stream}."
                )));
            }
        }
    }
    Ok(Some(names))
}

fn bad(message: String) -> ApiProblem {
    ApiProblem::bad_request(message)
}

/// Checks the requested streams against the catalog; returns `(echoed, resolved)`.
pub fn resolve(
    requested: Option<Vec<StreamConfig>>,
    catalog: &[StreamInfo],
) -> ApiResult<(Vec<StreamConfig>, Vec<ConfiguredStream>)> {
    let requested = requested.unwrap_or_else(|| catalog.iter().map(default_config).collect());
    let mut seen = BTreeSet::new();
    let mut resolved = Vec::new();
    for config in &requested {
        let info = catalog
            .iter()
            .find(|s| s.name == config.name)
            .ok_or_else(|| invalid_stream(catalog))?;
        if !seen.insert(config.name.as_str()) {
            return Err(bad(format!(
                "Duplicate stream found in configuration for: {}.",
                config.name
            )));
        }
        resolved.push(resolve_one(config, info)?);
    }
    Ok((requested, resolved))
}

fn default_config(info: &StreamInfo) -> StreamConfig {
    StreamConfig {
        name: info.name.clone(),
        sync_mode: SyncMode::FullRefreshOverwrite,
        cursor_field: None,
        primary_key: None,
        selected_fields: None,
    }
}

fn invalid_stream(catalog: &[StreamInfo]) -> ApiProblem {
    let names: BTreeSet<&str> = catalog.iter().map(|s| s.name.as_str()).collect();
    let list = names.into_iter().collect::<Vec<_>>().join(", ");
    bad(format!(
        "Invalid stream found. The list of valid streams include: [{list}]."
    ))
}

fn resolve_one(config: &StreamConfig, info: &StreamInfo) -> ApiResult<ConfiguredStream> {
    let name = &config.name;
    if !info.sync_modes.is_empty() && !info.sync_modes.contains(&config.sync_mode) {
        let modes: Vec<&str> = info.sync_modes.iter().map(|m| m.as_str()).collect();
        return Err(bad(format!(
            "Cannot set sync mode to {} for stream {name}. Supported sync modes: [{}].",
            config.sync_mode,
            modes.join(", ")
        )));
    }
    let cursor_field = config
        .cursor_field
        .clone()
        .unwrap_or_else(|| info.default_cursor_field.clone());
    if config.sync_mode.is_incremental() && cursor_field.is_empty() {
        return Err(bad(format!(
            "No default cursor field for stream {name}. Please include a cursor field in the configuration for this stream."
        )));
    }
    let primary_key = config
        .primary_key
        .clone()
        .unwrap_or_else(|| info.source_defined_primary_key.clone());
    if config.sync_mode.is_deduped() && primary_key.is_empty() {
        return Err(bad(format!(
            "No default primary key for stream {name}. Please include a primary key in the configuration for this stream."
        )));
    }
    check_selected(config, info)?;
    Ok(ConfiguredStream {
        name: name.clone(),
        namespace: info.namespace.clone(),
        sync_mode: config.sync_mode,
        cursor_field,
        primary_key,
        selected_fields: config.selected_fields.clone(),
    })
}

fn check_selected(config: &StreamConfig, info: &StreamInfo) -> ApiResult<()> {
    let Some(selected) = &config.selected_fields else {
        return Ok(());
    };
    let valid: BTreeSet<&str> = info
        .property_fields
        .iter()
        .filter_map(|p| p.first())
        .map(String::as_str)
        .collect();
    let list = valid.iter().copied().collect::<Vec<_>>().join(", ");
    let name = &config.name;
    if selected.is_empty() {
        return Err(bad(format!(
            "No fields selected for stream {name}. The list of valid field names includes: [{list}]."
        )));
    }
    let unique: BTreeSet<&str> = selected.iter().map(String::as_str).collect();
    if unique.len() != selected.len() {
        return Err(bad(format!(
            "Duplicate fields selected in configuration for stream: {name}."
        )));
    }
    if !valid.is_empty() && !unique.is_subset(&valid) {
        return Err(bad(format!(
            "Invalid fields selected for stream {name}. The list of valid field names includes: [{list}]."
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn catalog() -> Vec<StreamInfo> {
        let stream = |name: &str| StreamInfo {
            name: name.to_owned(),
            namespace: Some("public".to_owned()),
            sync_modes: vec![
                SyncMode::FullRefreshOverwrite,
                SyncMode::FullRefreshAppend,
                SyncMode::IncrementalAppend,
            ],
            default_cursor_field: Vec::new(),
            source_defined_cursor_field: false,
            source_defined_primary_key: vec![vec!["id".to_owned()]],
            property_fields: vec![vec!["id".to_owned()], vec!["name".to_owned()]],
        };
        vec![stream("users"), stream("orders")]
    }

    fn streams(value: Value) -> ApiResult<Option<Vec<StreamConfig>>> {
        parse(value.as_object())
    }

    #[test]
    fn no_streams_means_every_stream_full_refresh_overwrite() {
        let (echo, resolved) = resolve(None, &catalog()).unwrap();
        assert_eq!(echo.len(), 2);
        assert!(
            resolved
                .iter()
                .all(|s| s.sync_mode == SyncMode::FullRefreshOverwrite)
        );
        assert_eq!(resolved[0].primary_key, vec![vec!["id".to_owned()]]);
    }

    #[test]
    fn unknown_duplicate_and_unsupported_streams_are_rejected() {
        let unknown = streams(json!({ "streams": [{ "name": "nope" }] })).unwrap();
        let err = resolve(unknown, &catalog()).unwrap_err();
        assert_eq!(
            err.detail,
            "Invalid stream found. The list of valid streams include: [orders, users]."
        );
        let dup =
            streams(json!({ "streams": [{ "name": "users" }, { "name": "users" }] })).unwrap();
        assert!(
            resolve(dup, &catalog())
                .unwrap_err()
                .detail
                .starts_with("Duplicate stream")
        );
        let dedup = streams(
            json!({ "streams": [{ "name": "users", "syncMode": "incremental_deduped_history" }] }),
        )
        .unwrap();
        assert!(
            resolve(dedup, &catalog())
                .unwrap_err()
                .detail
                .starts_with("Cannot set sync mode")
        );
        let incremental =
            streams(json!({ "streams": [{ "name": "users", "syncMode": "incremental_append" }] }))
                .unwrap();
        assert!(
            resolve(incremental, &catalog())
                .unwrap_err()
                .detail
                .starts_with("No default cursor field")
        );
    }

    #[test]
    fn requested_values_are_echoed_and_resolved() {
        let requested = streams(json!({ "streams": [{
            "name": "users", "syncMode": "full_refresh_append",
            "selectedFields": [{ "fieldPath": ["id"] }]
        }] }))
        .unwrap();
        let (echo, resolved) = resolve(requested, &catalog()).unwrap();
        assert_eq!(echo[0].primary_key, None);
        assert_eq!(resolved[0].primary_key, vec![vec!["id".to_owned()]]);
        assert_eq!(resolved[0].selected_fields, Some(vec!["id".to_owned()]));
        let bad_field = streams(json!({ "streams": [{ "name": "users", "selectedFields": [{ "fieldPath": ["zz"] }] }] })).unwrap();
        assert!(
            resolve(bad_field, &catalog())
                .unwrap_err()
                .detail
                .starts_with("Invalid fields selected")
        );
    }

    #[test]
    fn stream_fields_are_named_in_errors() {
        let err =
            streams(json!({ "streams": [{ "syncMode": "full_refresh_append" }] })).unwrap_err();
        assert_eq!(
            err.detail,
            "Missing required field: configurations.streams[0].name"
        );
        let err =
            streams(json!({ "streams": [{ "name": "a", "syncMode": "append" }] })).unwrap_err();
        assert!(
            err.detail.contains("configurations.streams[0].syncMode"),
            "{}",
            err.detail
        );
    }
}
