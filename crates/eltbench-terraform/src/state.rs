//! `terraform.tfstate` version 4, in Terraform's exact JSON shape: version,
//! terraform_version, serial, lineage, outputs, resources[{mode, type, name,
//! provider, instances[{schema_version, attributes, sensitive_attributes,
//! dependencies}]}], check_results. Writing keeps the previous file as
//! `terraform.tfstate.backup`, as Terraform does.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::schema::{Attr, Ty};
use crate::value::Value;

pub const TERRAFORM_VERSION: &str = "1.9.8";
pub const PROVIDER_ADDR: &str = "provider[\"registry.terraform.io/airbytehq/airbyte\"]";
pub const STATE_FILE: &str = "terraform.tfstate";

#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("failed to read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("failed to decode {path}: {source}")]
    Decode {
        path: String,
        source: serde_json::Error,
    },
    #[error("failed to write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct State {
    pub version: u32,
    pub terraform_version: String,
    pub serial: u64,
    pub lineage: String,
    pub outputs: BTreeMap<String, OutputState>,
    pub resources: Vec<ResourceState>,
    pub check_results: Option<Json>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OutputState {
    pub value: Json,
    #[serde(rename = "type")]
    pub ty: Json,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sensitive: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ResourceState {
    pub mode: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub name: String,
    pub provider: String,
    pub instances: Vec<InstanceState>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct InstanceState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index_key: Option<Json>,
    pub schema_version: u32,
    pub attributes: Json,
    pub sensitive_attributes: Vec<Json>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<String>,
}

impl State {
    pub fn new() -> State {
        State {
            version: 4,
            terraform_version: TERRAFORM_VERSION.into(),
            serial: 0,
            lineage: uuid::Uuid::new_v4().to_string(),
            outputs: BTreeMap::new(),
            resources: Vec::new(),
            check_results: None,
        }
    }

    /// Reads `terraform.tfstate` from `dir`, or None when there is none.
    pub fn load(dir: &Path) -> Result<Option<State>, StateError> {
        let path = dir.join(STATE_FILE);
        if !path.exists() {
            return Ok(None);
        }
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|source| StateError::Read {
            path: shown.clone(),
            source,
        })?;
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|source| StateError::Decode {
                path: shown,
                source,
            })
    }

    /// Writes the state (backing up the previous file) with Terraform's indentation.
    pub fn save(&self, dir: &Path) -> Result<(), StateError> {
        let path = dir.join(STATE_FILE);
        let shown = path.display().to_string();
        if path.exists() {
            let backup = dir.join(format!("{STATE_FILE}.backup"));
            std::fs::copy(&path, backup).map_err(|source| StateError::Write {
                path: shown.clone(),
                source,
            })?;
        }
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        std::fs::write(&path, text).map_err(|source| StateError::Write {
            path: shown,
            source,
        })
    }

    /// Every instance with its address (`type.name` or `type.name[key]`).
    pub fn instances(&self) -> Vec<(String, &ResourceState, &InstanceState)> {
        let mut out = Vec::new();
        for r in self.resources.iter().filter(|r| r.mode == "managed") {
            for i in &r.instances {
                out.push((
                    instance_address(&r.type_name, &r.name, i.index_key.as_ref()),
                    r,
                    i,
                ));
            }
        }
        out
    }
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

pub fn instance_address(type_name: &str, name: &str, key: Option<&Json>) -> String {
    match key {
        None => format!("{type_name}.{name}"),
        Some(Json::String(s)) => format!("{type_name}.{name}[{s:?}]"),
        Some(k) => format!("{type_name}.{name}[{k}]"),
    }
}

/// Paths of non-null sensitive attributes, in the state's path encoding.
pub fn sensitive_paths(v: &Value, attrs: &[Attr]) -> Vec<Json> {
    let mut out = Vec::new();
    walk_sensitive(v, attrs, &mut Vec::new(), &mut out);
    out
}

fn walk_sensitive(v: &Value, attrs: &[Attr], path: &mut Vec<Json>, out: &mut Vec<Json>) {
    for a in attrs {
        let Some(x) = v.get(a.name) else { continue };
        if x.is_null() {
            continue;
        }
        path.push(serde_json::json!({"type": "get_attr", "value": a.name}));
        if a.sensitive {
            out.push(Json::Array(path.clone()));
        }
        match (&a.ty, x) {
            (Ty::Object(inner), _) => walk_sensitive(x, inner, path, out),
            (Ty::ListNested(inner) | Ty::SetNested(inner), Value::List(items)) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(serde_json::json!({"type": "index", "value": {"value": i, "type": "number"}}));
                    walk_sensitive(item, inner, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
        path.pop();
    }
}

/// The cty type of a value in JSON form, as state outputs record it.
pub fn type_json(v: &Value) -> Json {
    match v {
        Value::Null | Value::Unknown => Json::String("dynamic".into()),
        Value::Bool(_) => Json::String("bool".into()),
        Value::Number(_) => Json::String("number".into()),
        Value::String(_) => Json::String("string".into()),
        Value::List(items) => {
            serde_json::json!(["tuple", items.iter().map(type_json).collect::<Vec<_>>()])
        }
        Value::Object(m) => {
            let fields: serde_json::Map<String, Json> =
                m.iter().map(|(k, x)| (k.clone(), type_json(x))).collect();
            serde_json::json!(["object", fields])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::resource;

    #[test]
    fn sensitive_paths_use_get_attr_steps() {
        let pg = resource("airbyte_source_postgres").unwrap();
        let v =
            Value::from_json(&serde_json::json!({"configuration": {"password": "p", "host": "h"}}));
        let paths = sensitive_paths(&v, pg.attrs);
        assert_eq!(
            paths,
            vec![
                serde_json::json!([{"type": "get_attr", "value": "configuration"}, {"type": "get_attr", "value": "password"}])
            ]
        );
    }

    #[test]
    fn addresses_quote_string_keys() {
        assert_eq!(
            instance_address("t", "n", Some(&Json::String("a".into()))),
            "t.n[\"a\"]"
        );
        assert_eq!(
            instance_address("t", "n", Some(&serde_json::json!(0))),
            "t.n[0]"
        );
    }
}
