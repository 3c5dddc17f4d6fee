//! Terraform's built-in functions that ELT configurations use, as one table
//! of name -> implementation. Pure: no file or network access.

use std::collections::BTreeMap;

use crate::diagnostics::{Diagnostic, Span};
use crate::eval::{EResult, err};
use crate::value::Value;

type Func = fn(&[Value]) -> Result<Value, String>;

/// (name, minimum arguments, maximum arguments or None for variadic, implementation)
const FUNCTIONS: &[(&str, usize, Option<usize>, Func)] = &[
    ("jsonencode", 1, Some(1), jsonencode),
    ("jsondecode", 1, Some(1), jsondecode),
    ("tostring", 1, Some(1), tostring),
    ("tonumber", 1, Some(1), tonumber),
    ("tobool", 1, Some(1), tobool),
    ("tolist", 1, Some(1), identity),
    ("toset", 1, Some(1), toset),
    ("tomap", 1, Some(1), identity),
    ("lower", 1, Some(1), |a| string_map(a, str::to_lowercase)),
    ("upper", 1, Some(1), |a| string_map(a, str::to_uppercase)),
    ("trimspace", 1, Some(1), |a| {
        string_map(a, |s| s.trim().to_string())
    }),
    ("format", 1, None, format),
    ("join", 2, Some(2), join),
    ("split", 2, Some(2), split),
    ("replace", 3, Some(3), replace),
    ("concat", 0, None, concat),
    ("merge", 0, None, merge),
    ("length", 1, Some(1), length),
    ("lookup", 2, Some(3), lookup),
    ("element", 2, Some(2), element),
    ("keys", 1, Some(1), keys),
    ("values", 1, Some(1), values),
    ("coalesce", 1, None, coalesce),
    ("contains", 2, Some(2), contains),
    ("distinct", 1, Some(1), distinct),
    ("flatten", 1, Some(1), flatten),
    ("zipmap", 2, Some(2), zipmap),
    ("startswith", 2, Some(2), |a| {
        Ok(Value::Bool(s(&a[0])?.starts_with(&s(&a[1])?)))
    }),
    ("endswith", 2, Some(2), |a| {
        Ok(Value::Bool(s(&a[0])?.ends_with(&s(&a[1])?)))
    }),
];

/// Calls the named function with evaluated arguments.
pub fn call(name: &str, args: Vec<Value>, span: &Span) -> EResult {
    let Some((_, min, max, f)) = FUNCTIONS.iter().find(|(n, ..)| *n == name) else {
        return Err(err(
            "Call to unknown function",
            format!("There is no function named \"{name}\"."),
            span,
        ));
    };
    if args.len() < *min {
        return Err(arg_count("Not enough function arguments", name, *min, span));
    }
    if max.is_some_and(|m| args.len() > m) {
        return Err(arg_count(
            "Too many function arguments",
            name,
            max.unwrap_or(0),
            span,
        ));
    }
    if args.iter().any(Value::has_unknown) {
        return Ok(Value::Unknown);
    }
    f(&args).map_err(|msg| {
        err(
            "Error in function call",
            format!("Call to function \"{name}\" failed: {msg}."),
            span,
        )
    })
}

fn arg_count(summary: &str, name: &str, n: usize, span: &Span) -> Box<Diagnostic> {
    err(
        summary,
        format!("Function \"{name}\" expects {n} argument(s)."),
        span,
    )
}

fn s(v: &Value) -> Result<String, String> {
    v.to_string_lossy()
        .ok_or_else(|| format!("string required, but have {}", v.type_name()))
}

fn list(v: &Value) -> Result<Vec<Value>, String> {
    match v {
        Value::List(items) => Ok(items.clone()),
        other => Err(format!("list required, but have {}", other.type_name())),
    }
}

fn identity(a: &[Value]) -> Result<Value, String> {
    Ok(a[0].clone())
}

fn jsonencode(a: &[Value]) -> Result<Value, String> {
    serde_json::to_string(&a[0].to_json())
        .map(Value::String)
        .map_err(|e| e.to_string())
}

fn jsondecode(a: &[Value]) -> Result<Value, String> {
    let text = s(&a[0])?;
    serde_json::from_str::<serde_json::Value>(&text)
        .map(|j| Value::from_json(&j))
        .map_err(|e| format!("invalid JSON: {e}"))
}

fn tostring(a: &[Value]) -> Result<Value, String> {
    match &a[0] {
        Value::Null => Ok(Value::Null),
        v => s(v).map(Value::String),
    }
}

fn tonumber(a: &[Value]) -> Result<Value, String> {
    match &a[0] {
        Value::Number(n) => Ok(Value::Number(*n)),
        Value::String(t) => t
            .parse()
            .map(Value::Number)
            .map_err(|_| "cannot convert to number".to_string()),
        other => Err(format!("number required, but have {}", other.type_name())),
    }
}

fn tobool(a: &[Value]) -> Result<Value, String> {
    match &a[0] {
        Value::Bool(b) => Ok(Value::Bool(*b)),
        Value::String(t) if t == "true" || t == "false" => Ok(Value::Bool(t == "true")),
        other => Err(format!("bool required, but have {}", other.type_name())),
    }
}

fn toset(a: &[Value]) -> Result<Value, String> {
    distinct(a)
}

fn string_map(a: &[Value], f: fn(&str) -> String) -> Result<Value, String> {
    Ok(Value::String(f(&s(&a[0])?)))
}

fn format(a: &[Value]) -> Result<Value, String> {
    let fmt = s(&a[0])?;
    let mut args = a[1..].iter();
    let mut out = String::new();
    let mut chars = fmt.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('q') => out.push_str(&format!(
                "{:?}",
                s(args.next().ok_or("too few arguments")?)?
            )),
            Some('s' | 'd' | 'v') => out.push_str(&s(args.next().ok_or("too few arguments")?)?),
            other => return Err(format!("unsupported format verb %{}", other.unwrap_or(' '))),
        }
    }
    Ok(Value::String(out))
}

fn join(a: &[Value]) -> Result<Value, String> {
    let sep = s(&a[0])?;
    let parts = list(&a[1])?.iter().map(s).collect::<Result<Vec<_>, _>>()?;
    Ok(Value::String(parts.join(&sep)))
}

fn split(a: &[Value]) -> Result<Value, String> {
    let (sep, text) = (s(&a[0])?, s(&a[1])?);
    Ok(Value::List(
        text.split(sep.as_str()).map(Value::str).collect(),
    ))
}

fn replace(a: &[Value]) -> Result<Value, String> {
    Ok(Value::String(s(&a[0])?.replace(&s(&a[1])?, &s(&a[2])?)))
}

fn concat(a: &[Value]) -> Result<Value, String> {
    let mut out = Vec::new();
    for v in a {
        out.extend(list(v)?);
    }
    Ok(Value::List(out))
}

fn merge(a: &[Value]) -> Result<Value, String> {
    let mut out = BTreeMap::new();
    for v in a {
        match v {
            Value::Object(m) => out.extend(m.clone()),
            Value::Null => {}
            other => return Err(format!("object required, but have {}", other.type_name())),
        }
    }
    Ok(Value::Object(out))
}

fn length(a: &[Value]) -> Result<Value, String> {
    let n = match &a[0] {
        Value::List(items) => items.len(),
        Value::Object(m) => m.len(),
        Value::String(t) => t.chars().count(),
        other => {
            return Err(format!(
                "collection or string required, but have {}",
                other.type_name()
            ));
        }
    };
    Ok(Value::Number(n as f64))
}

fn lookup(a: &[Value]) -> Result<Value, String> {
    let key = s(&a[1])?;
    match (a[0].get(&key), a.get(2)) {
        (Some(v), _) => Ok(v.clone()),
        (None, Some(default)) => Ok(default.clone()),
        (None, None) => Err(format!("lookup failed to find key {key:?}")),
    }
}

fn element(a: &[Value]) -> Result<Value, String> {
    let items = list(&a[0])?;
    let Value::Number(i) = a[1] else {
        return Err("number required".into());
    };
    if items.is_empty() {
        return Err("cannot use element function with an empty list".into());
    }
    Ok(items[(i as usize) % items.len()].clone())
}

fn keys(a: &[Value]) -> Result<Value, String> {
    match &a[0] {
        Value::Object(m) => Ok(Value::List(m.keys().map(Value::str).collect())),
        other => Err(format!(
            "map or object required, but have {}",
            other.type_name()
        )),
    }
}

fn values(a: &[Value]) -> Result<Value, String> {
    match &a[0] {
        Value::Object(m) => Ok(Value::List(m.values().cloned().collect())),
        other => Err(format!(
            "map or object required, but have {}",
            other.type_name()
        )),
    }
}

fn coalesce(a: &[Value]) -> Result<Value, String> {
    a.iter()
        .find(|v| !v.is_null() && v.as_str() != Some(""))
        .cloned()
        .ok_or_else(|| "no non-null, non-empty-string arguments".to_string())
}

fn contains(a: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(list(&a[0])?.contains(&a[1])))
}

fn distinct(a: &[Value]) -> Result<Value, String> {
    let mut out: Vec<Value> = Vec::new();
    for v in list(&a[0])? {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    Ok(Value::List(out))
}

fn flatten(a: &[Value]) -> Result<Value, String> {
    let mut out = Vec::new();
    for v in list(&a[0])? {
        match v {
            Value::List(_) => {
                if let Value::List(inner) = flatten(&[v])? {
                    out.extend(inner);
                }
            }
            other => out.push(other),
        }
    }
    Ok(Value::List(out))
}

fn zipmap(a: &[Value]) -> Result<Value, String> {
    let ks = list(&a[0])?;
    let vs = list(&a[1])?;
    if ks.len() != vs.len() {
        return Err("number of keys and values must be equal".into());
    }
    let m = ks
        .iter()
        .map(s)
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .zip(vs)
        .collect();
    Ok(Value::Object(m))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::diagnostics::Pos;

    fn span() -> Span {
        Span {
            file: Arc::from("t.tf"),
            start: Pos::default(),
            end: Pos::default(),
        }
    }

    #[test]
    fn jsonencode_sorts_object_keys_like_terraform() {
        let v = Value::Object(BTreeMap::from([
            ("b".into(), Value::Number(1.0)),
            ("a".into(), Value::str("x")),
        ]));
        assert_eq!(
            call("jsonencode", vec![v], &span()).unwrap(),
            Value::str("{\"a\":\"x\",\"b\":1}")
        );
    }

    #[test]
    fn unknown_function_is_reported() {
        let e = call("nosuch", vec![], &span()).unwrap_err();
        assert_eq!(e.summary, "Call to unknown function");
    }
}
