//! Mapping between resource attribute values and Airbyte API v1 JSON, as the
//! provider's generated SDK does it: create/put/patch request bodies (with
//! variant discriminators, `additional_properties` merged, camelCase
//! connection fields) and refreshing state attributes from API responses.
//!
//! Pure data transformation: no HTTP here.

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json};

use crate::schema::{Attr, Json as JsonRule, Kind, ResourceSchema, Ty};
use crate::value::Value;

/// The POST body that creates the resource.
pub fn create_body(schema: &ResourceSchema, v: &Value) -> Json {
    match schema.kind {
        Kind::Connection => connection_body(v, true),
        Kind::Source(t) => connector_body(schema, v, t.map(|t| ("sourceType", t)), true),
        Kind::Destination(t) => connector_body(schema, v, Some(("destinationType", t)), true),
    }
}

/// The PUT (sources, destinations) or PATCH (connections) body of an update.
pub fn update_body(schema: &ResourceSchema, v: &Value) -> Json {
    match schema.kind {
        Kind::Connection => connection_body(v, false),
        _ => connector_body(schema, v, None, false),
    }
}

fn connector_body(
    schema: &ResourceSchema,
    v: &Value,
    type_tag: Option<(&str, &str)>,
    create: bool,
) -> Json {
    let mut out = Map::new();
    let config = v.get("configuration").unwrap_or(&Value::Null);
    let config_json = match schema.attr("configuration") {
        Some(a) if a.json == JsonRule::Parsed => config
            .as_str()
            .and_then(|s| serde_json::from_str(s).ok())
            .unwrap_or(Json::Object(Map::new())),
        Some(Attr {
            ty: Ty::Object(attrs),
            ..
        }) => object_json(config, attrs),
        _ => Json::Null,
    };
    let mut config_json = config_json;
    if let (Some((k, t)), Json::Object(m)) = (type_tag, &mut config_json) {
        m.insert(k.to_string(), Json::String(t.to_string()));
    }
    out.insert("configuration".into(), config_json);
    if create {
        put_opt(&mut out, "definitionId", v.get("definition_id"));
        put_opt(&mut out, "secretId", v.get("secret_id"));
    }
    put_opt(&mut out, "name", v.get("name"));
    put_opt(&mut out, "workspaceId", v.get("workspace_id"));
    Json::Object(out)
}

fn put_opt(out: &mut Map<String, Json>, key: &str, v: Option<&Value>) {
    if let Some(x) = v.filter(|x| !x.is_null() && !matches!(x, Value::Unknown)) {
        out.insert(key.to_string(), x.to_json());
    }
}

/// A connector configuration object: discriminators for chosen variants and
/// `additional_properties` merged in; null attributes omitted.
fn object_json(v: &Value, attrs: &[Attr]) -> Json {
    let mut out = Map::new();
    for a in attrs {
        let Some(x) = v.get(a.name).filter(|x| !x.is_null()) else {
            continue;
        };
        match (a.json, &a.ty) {
            (JsonRule::MergeParsed, _) => {
                if let Some(Json::Object(extra)) =
                    x.as_str().and_then(|s| serde_json::from_str(s).ok())
                {
                    out.extend(extra);
                }
            }
            (JsonRule::OneOf, Ty::Object(variants)) => {
                if let Some(j) = chosen_variant(x, variants) {
                    out.insert(a.name.to_string(), j);
                }
            }
            (_, Ty::Object(inner)) => {
                out.insert(a.name.to_string(), object_json(x, inner));
            }
            (_, Ty::ListNested(inner) | Ty::SetNested(inner)) => {
                let items = match x {
                    Value::List(items) => items.iter().map(|i| object_json(i, inner)).collect(),
                    _ => Vec::new(),
                };
                out.insert(a.name.to_string(), Json::Array(items));
            }
            _ => {
                out.insert(a.name.to_string(), x.to_json());
            }
        }
    }
    Json::Object(out)
}

fn chosen_variant(v: &Value, variants: &[Attr]) -> Option<Json> {
    let a = variants
        .iter()
        .find(|a| v.get(a.name).is_some_and(|x| !x.is_null()))?;
    let inner = match a.ty {
        Ty::Object(attrs) => attrs,
        _ => &[],
    };
    let mut j = object_json(v.get(a.name)?, inner);
    if let (Some((key, tag)), Json::Object(m)) = (a.tag, &mut j) {
        m.insert(key.to_string(), Json::String(tag.to_string()));
    }
    Some(j)
}

/// Top-level connection fields in API order, with the create-only ones.
const CONNECTION_FIELDS: &[(&str, &str, bool)] = &[
    ("configurations", "configurations", false),
    ("data_residency", "dataResidency", false),
    ("destination_id", "destinationId", true),
    ("name", "name", false),
    ("namespace_definition", "namespaceDefinition", false),
    ("namespace_format", "namespaceFormat", false),
    (
        "non_breaking_schema_updates_behavior",
        "nonBreakingSchemaUpdatesBehavior",
        false,
    ),
    ("prefix", "prefix", false),
    ("schedule", "schedule", false),
    ("source_id", "sourceId", true),
    ("status", "status", false),
];

fn connection_body(v: &Value, create: bool) -> Json {
    let mut out = Map::new();
    for (attr, key, create_only) in CONNECTION_FIELDS {
        if *create_only && !create {
            continue;
        }
        let Some(x) = v
            .get(attr)
            .filter(|x| !x.is_null() && !matches!(x, Value::Unknown))
        else {
            continue;
        };
        let j = match *attr {
            "configurations" => configurations_json(x),
            "schedule" => schedule_json(x),
            _ => x.to_json(),
        };
        out.insert(key.to_string(), j);
    }
    Json::Object(out)
}

fn configurations_json(v: &Value) -> Json {
    let streams = match v.get("streams") {
        Some(Value::List(items)) => items.iter().map(stream_json).collect(),
        _ => Vec::new(),
    };
    serde_json::json!({ "streams": streams })
}

fn stream_json(s: &Value) -> Json {
    let mut m = Map::new();
    let fields = [
        ("cursor_field", "cursorField"),
        ("name", "name"),
        ("primary_key", "primaryKey"),
        ("sync_mode", "syncMode"),
    ];
    for (attr, key) in fields {
        if let Some(x) = s
            .get(attr)
            .filter(|x| !x.is_null() && !matches!(x, Value::Unknown))
        {
            m.insert(key.to_string(), x.to_json());
        }
    }
    if let Some(Value::List(sel)) = s
        .get("selected_fields")
        .filter(|x| !matches!(x, Value::List(l) if l.is_empty()))
    {
        let items: Vec<Json> = sel
            .iter()
            .map(|f| serde_json::json!({"fieldPath": f.get("field_path").map_or(Json::Null, Value::to_json)}))
            .collect();
        m.insert("selectedFields".into(), Json::Array(items));
    }
    Json::Object(m)
}

fn schedule_json(v: &Value) -> Json {
    let mut m = Map::new();
    if let Some(x) = v.get("schedule_type").filter(|x| !x.is_null()) {
        m.insert("scheduleType".into(), x.to_json());
    }
    if let Some(x) = v.get("cron_expression").filter(|x| !x.is_null()) {
        m.insert("cronExpression".into(), x.to_json());
    }
    Json::Object(m)
}

/// Refreshes state attributes from an API response, as the provider's
/// `RefreshFrom...Response` functions do (sources and destinations refresh
/// only their id, type, name and workspace; connections refresh everything).
pub fn refresh(schema: &ResourceSchema, v: &mut Value, resp: &Json) {
    let Value::Object(m) = v else { return };
    let text = |k: &str| resp.get(k).and_then(Json::as_str).map(Value::str);
    match schema.kind {
        Kind::Source(_) => {
            set(m, "source_id", text("sourceId"));
            set(m, "source_type", text("sourceType"));
            if schema
                .attr("configuration")
                .is_some_and(|a| a.json == JsonRule::Parsed)
            {
                set(
                    m,
                    "configuration",
                    resp.get("configuration")
                        .map(|c| Value::String(c.to_string())),
                );
            }
        }
        Kind::Destination(_) => {
            set(m, "destination_id", text("destinationId"));
            set(m, "destination_type", text("destinationType"));
        }
        Kind::Connection => refresh_connection(m, resp),
    }
    set(m, "name", text("name"));
    set(m, "workspace_id", text("workspaceId"));
}

fn set(m: &mut BTreeMap<String, Value>, key: &str, v: Option<Value>) {
    if let Some(v) = v {
        m.insert(key.to_string(), v);
    }
}

fn refresh_connection(m: &mut BTreeMap<String, Value>, resp: &Json) {
    let opt = |k: &str| Some(resp.get(k).map_or(Value::Null, Value::from_json));
    set(m, "connection_id", opt("connectionId"));
    set(m, "source_id", opt("sourceId"));
    set(m, "destination_id", opt("destinationId"));
    set(m, "status", opt("status"));
    set(m, "data_residency", opt("dataResidency"));
    set(m, "namespace_definition", opt("namespaceDefinition"));
    set(m, "namespace_format", opt("namespaceFormat"));
    set(
        m,
        "non_breaking_schema_updates_behavior",
        opt("nonBreakingSchemaUpdatesBehavior"),
    );
    set(m, "prefix", opt("prefix"));
    let sched = resp.get("schedule").cloned().unwrap_or(Json::Null);
    let sched_field = |k: &str| sched.get(k).map_or(Value::Null, Value::from_json);
    let schedule = Value::Object(BTreeMap::from([
        ("basic_timing".to_string(), sched_field("basicTiming")),
        ("cron_expression".to_string(), sched_field("cronExpression")),
        ("schedule_type".to_string(), sched_field("scheduleType")),
    ]));
    m.insert("schedule".into(), schedule);
    let streams: Vec<Value> = resp
        .pointer("/configurations/streams")
        .and_then(Json::as_array)
        .map(|a| a.iter().map(stream_state).collect())
        .unwrap_or_default();
    m.insert(
        "configurations".into(),
        Value::Object(BTreeMap::from([(
            "streams".to_string(),
            Value::List(streams),
        )])),
    );
}

fn stream_state(s: &Json) -> Value {
    let field = |k: &str| s.get(k).map_or(Value::Null, Value::from_json);
    let list_or_empty = |k: &str| match field(k) {
        Value::Null => Value::List(Vec::new()),
        v => v,
    };
    let selected = s
        .get("selectedFields")
        .and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .map(|f| {
                    Value::Object(BTreeMap::from([(
                        "field_path".to_string(),
                        f.get("fieldPath")
                            .map_or(Value::List(Vec::new()), Value::from_json),
                    )]))
                })
                .collect()
        })
        .unwrap_or_default();
    Value::Object(BTreeMap::from([
        ("cursor_field".to_string(), list_or_empty("cursorField")),
        ("name".to_string(), field("name")),
        ("primary_key".to_string(), field("primaryKey")),
        ("selected_fields".to_string(), Value::List(selected)),
        ("sync_mode".to_string(), field("syncMode")),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::resource;

    #[test]
    fn postgres_variants_carry_their_discriminators() {
        let pg = resource("airbyte_source_postgres").unwrap();
        let v = Value::from_json(&serde_json::json!({
            "name": "pg", "workspace_id": "ws", "definition_id": null,
            "configuration": {
                "host": "h", "port": 5432, "database": "d", "username": "u",
                "ssl_mode": {"allow": {"additional_properties": "{\"see\": \"documentation\"}"}, "disable": null},
                "tunnel_method": {"no_tunnel": {}},
                "replication_method": {"scan_changes_with_user_defined_cursor": {}}
            }
        }));
        let body = create_body(pg, &v);
        assert_eq!(
            body,
            serde_json::json!({
                "configuration": {
                    "database": "d", "host": "h", "port": 5432, "username": "u",
                    "replication_method": {"method": "Standard"},
                    "ssl_mode": {"mode": "allow", "see": "documentation"},
                    "tunnel_method": {"tunnel_method": "NO_TUNNEL"},
                    "sourceType": "postgres"
                },
                "name": "pg", "workspaceId": "ws"
            })
        );
    }

    #[test]
    fn connection_fields_are_camel_case_and_patch_omits_endpoints() {
        let c = resource("airbyte_connection").unwrap();
        let v = Value::from_json(&serde_json::json!({
            "source_id": "s", "destination_id": "d", "name": "c",
            "configurations": {"streams": [{"name": "t", "sync_mode": "full_refresh_append", "cursor_field": null}]},
            "schedule": {"schedule_type": "manual", "cron_expression": null}
        }));
        let body = create_body(c, &v);
        assert_eq!(body["sourceId"], "s");
        assert_eq!(
            body["configurations"]["streams"][0],
            serde_json::json!({"name": "t", "syncMode": "full_refresh_append"})
        );
        assert_eq!(
            body["schedule"],
            serde_json::json!({"scheduleType": "manual"})
        );
        assert!(update_body(c, &v).get("sourceId").is_none());
    }
}
