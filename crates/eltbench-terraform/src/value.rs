//! Terraform values: null, unknown ("known after apply"), bool, number,
//! string, list (tuples, lists and sets) and object (objects and maps), with
//! conversion to and from JSON and Terraform's type names.
//!
//! No evaluation and no schema knowledge live here.

use std::collections::BTreeMap;

use serde_json::{Map, Number, Value as Json};

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    /// A value that will only be known after apply.
    Unknown,
    Bool(bool),
    Number(f64),
    String(String),
    List(Vec<Value>),
    Object(BTreeMap<String, Value>),
}

impl Value {
    pub fn str(s: impl Into<String>) -> Value {
        Value::String(s.into())
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// True when this value or anything inside it is unknown.
    pub fn has_unknown(&self) -> bool {
        match self {
            Value::Unknown => true,
            Value::List(items) => items.iter().any(Value::has_unknown),
            Value::Object(m) => m.values().any(Value::has_unknown),
            _ => false,
        }
    }

    /// Terraform's friendly type name, as used in error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Unknown => "dynamic",
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::List(_) => "tuple",
            Value::Object(_) => "object",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(m) => m.get(key),
            _ => None,
        }
    }

    /// Converts to a string the way Terraform's automatic conversion does.
    pub fn to_string_lossy(&self) -> Option<String> {
        match self {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(format_number(*n)),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    pub fn to_json(&self) -> Json {
        match self {
            Value::Null | Value::Unknown => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => number_json(*n),
            Value::String(s) => Json::String(s.clone()),
            Value::List(items) => Json::Array(items.iter().map(Value::to_json).collect()),
            Value::Object(m) => Json::Object(
                m.iter()
                    .map(|(k, v)| (k.clone(), v.to_json()))
                    .collect::<Map<_, _>>(),
            ),
        }
    }

    pub fn from_json(j: &Json) -> Value {
        match j {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.as_f64().unwrap_or(0.0)),
            Json::String(s) => Value::String(s.clone()),
            Json::Array(a) => Value::List(a.iter().map(Value::from_json).collect()),
            Json::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v)))
                    .collect(),
            ),
        }
    }
}

/// Integers print without a fraction, as Terraform shows them.
pub fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

pub fn number_json(n: f64) -> Json {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        Json::Number(Number::from(n as i64))
    } else {
        Number::from_f64(n).map_or(Json::Null, Json::Number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_keeps_integers_integral() {
        let j = serde_json::json!({"port": 5432, "ratio": 0.5, "tags": ["a"], "x": null});
        let v = Value::from_json(&j);
        assert_eq!(v.to_json(), j);
        assert_eq!(format_number(5432.0), "5432");
    }
}
