//! Conversion of evaluated values to a schema's attribute types, following
//! cty's conversion rules and mismatch messages ("attribute \"host\" is
//! required", "string required"), and the provider's value validators
//! (allowed values), worded as terraform-plugin-framework words them.
//!
//! Like Terraform, unknown attributes inside nested objects are dropped
//! silently (hashicorp/terraform#33570). Never evaluates expressions.

use std::collections::BTreeMap;

use crate::schema::{Attr, Mode, Ty};
use crate::value::{Value, format_number};

/// Converts `v` to the type of `attr`, returning the normalized value (every
/// nested attribute present, null when unset) or cty's mismatch message.
pub fn convert(v: &Value, ty: &Ty) -> Result<Value, String> {
    match v {
        Value::Null => return Ok(Value::Null),
        Value::Unknown => return Ok(Value::Unknown),
        _ => {}
    }
    match ty {
        Ty::String => to_string(v),
        Ty::Number => to_number(v),
        Ty::Bool => to_bool(v),
        Ty::StringList => list_of(v, "list of string", |x| convert(x, &Ty::String)),
        Ty::StringListList => list_of(v, "list of list of string", |x| convert(x, &Ty::StringList)),
        Ty::Object(attrs) => object(v, attrs),
        Ty::ListNested(attrs) => list_of(v, "list of object", |x| object(x, attrs)),
        Ty::SetNested(attrs) => list_of(v, "set of object", |x| object(x, attrs)),
    }
}

fn to_string(v: &Value) -> Result<Value, String> {
    match v {
        Value::String(_) => Ok(v.clone()),
        Value::Number(n) => Ok(Value::String(format_number(*n))),
        Value::Bool(b) => Ok(Value::String(b.to_string())),
        _ => Err("string required".into()),
    }
}

fn to_number(v: &Value) -> Result<Value, String> {
    match v {
        Value::Number(_) => Ok(v.clone()),
        Value::String(s) => s
            .trim()
            .parse()
            .map(Value::Number)
            .map_err(|_| "a number is required".to_string()),
        Value::Bool(_) => Err("number required, but have bool".into()),
        _ => Err("number required".into()),
    }
}

fn to_bool(v: &Value) -> Result<Value, String> {
    match v {
        Value::Bool(_) => Ok(v.clone()),
        Value::String(s) if s == "true" || s == "false" => Ok(Value::Bool(s == "true")),
        Value::String(_) => Err("a bool is required".into()),
        Value::Number(_) => Err("bool required, but have number".into()),
        _ => Err("bool required".into()),
    }
}

fn list_of(
    v: &Value,
    what: &str,
    f: impl Fn(&Value) -> Result<Value, String>,
) -> Result<Value, String> {
    let Value::List(items) = v else {
        return Err(format!("{what} required"));
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, x) in items.iter().enumerate() {
        out.push(f(x).map_err(|m| format!("element {i}: {m}"))?);
    }
    Ok(Value::List(out))
}

fn object(v: &Value, attrs: &[Attr]) -> Result<Value, String> {
    let Value::Object(given) = v else {
        return Err("object required".into());
    };
    let mut missing: Vec<&str> = attrs
        .iter()
        .filter(|a| a.mode == Mode::Required && !given.contains_key(a.name))
        .map(|a| a.name)
        .collect();
    missing.sort();
    if !missing.is_empty() {
        return Err(missing_message(&missing));
    }
    let mut out = BTreeMap::new();
    for a in attrs {
        let val = match given.get(a.name) {
            Some(x) => convert(x, &a.ty).map_err(|m| format!("attribute {:?}: {m}", a.name))?,
            None => Value::Null,
        };
        out.insert(a.name.to_string(), val);
    }
    Ok(Value::Object(out))
}

fn missing_message(names: &[&str]) -> String {
    match names {
        [one] => format!("attribute {one:?} is required"),
        [a, b] => format!("attributes {a:?} and {b:?} are required"),
        _ => {
            let (last, rest) = names.split_last().unwrap_or((&"", &[]));
            let head: Vec<String> = rest.iter().map(|n| format!("{n:?}, ")).collect();
            format!("attributes {}and {last:?} are required", head.concat())
        }
    }
}

/// A violated "must be one of" validator: the attribute path and the message.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueMismatch {
    pub path: Vec<PathStep>,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PathStep {
    Attr(String),
    Index(usize),
}

pub fn path_string(path: &[PathStep]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            PathStep::Attr(n) if s.is_empty() => s.push_str(n),
            PathStep::Attr(n) => {
                s.push('.');
                s.push_str(n);
            }
            PathStep::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// Checks allowed values (`must be one of`) throughout a normalized value.
pub fn check_values(
    v: &Value,
    attr: &Attr,
    path: &mut Vec<PathStep>,
    out: &mut Vec<ValueMismatch>,
) {
    path.push(PathStep::Attr(attr.name.to_string()));
    if let (Value::String(s), false) = (v, attr.one_of.is_empty())
        && !attr.one_of.contains(&s.as_str())
    {
        {
            let allowed: Vec<String> = attr
                .one_of
                .iter()
                .map(|x| format!("{:?}", format!("{x:?}")))
                .collect();
            out.push(ValueMismatch {
                path: path.clone(),
                detail: format!(
                    "Attribute {} value must be one of: [{}], got: {:?}",
                    path_string(path),
                    allowed.join(" "),
                    s
                ),
            });
        }
    }
    match (&attr.ty, v) {
        (Ty::Object(attrs), Value::Object(_)) => check_object(v, attrs, path, out),
        (Ty::ListNested(attrs) | Ty::SetNested(attrs), Value::List(items)) => {
            for (i, item) in items.iter().enumerate() {
                path.push(PathStep::Index(i));
                check_object(item, attrs, path, out);
                path.pop();
            }
        }
        _ => {}
    }
    path.pop();
}

fn check_object(v: &Value, attrs: &[Attr], path: &mut Vec<PathStep>, out: &mut Vec<ValueMismatch>) {
    for a in attrs {
        if let Some(x) = v.get(a.name) {
            check_values(x, a, path, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::resource;

    fn config_ty(type_name: &str) -> Ty {
        resource(type_name)
            .unwrap()
            .attr("configuration")
            .unwrap()
            .ty
    }

    #[test]
    fn missing_nested_attributes_use_cty_wording() {
        let v = Value::Object(BTreeMap::from([("host".into(), Value::str("h"))]));
        let e = convert(&v, &config_ty("airbyte_source_postgres")).unwrap_err();
        assert_eq!(e, "attributes \"database\" and \"username\" are required");
    }

    #[test]
    fn unknown_nested_attributes_are_dropped_like_terraform() {
        let v = Value::Object(BTreeMap::from([
            ("destination_path".into(), Value::str("/tmp/x.duckdb")),
            ("destination_pth".into(), Value::str("typo")),
        ]));
        let out = convert(&v, &config_ty("airbyte_destination_duckdb")).unwrap();
        assert_eq!(out.get("destination_pth"), None);
        assert_eq!(out.get("schema"), Some(&Value::Null));
    }

    #[test]
    fn nested_type_errors_name_the_path() {
        let v = Value::Object(BTreeMap::from([
            ("database".into(), Value::str("d")),
            ("host".into(), Value::str("h")),
            ("username".into(), Value::str("u")),
            ("port".into(), Value::str("abc")),
        ]));
        let e = convert(&v, &config_ty("airbyte_source_postgres")).unwrap_err();
        assert_eq!(e, "attribute \"port\": a number is required");
    }

    #[test]
    fn enum_violations_use_framework_wording() {
        let conn = resource("airbyte_connection").unwrap();
        let mut out = Vec::new();
        check_values(
            &Value::str("running"),
            conn.attr("status").unwrap(),
            &mut Vec::new(),
            &mut out,
        );
        assert_eq!(
            out[0].detail,
            r#"Attribute status value must be one of: ["\"active\"" "\"inactive\"" "\"deprecated\""], got: "running""#
        );
    }
}
