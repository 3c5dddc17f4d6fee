//! A tiny HCL writer for the gold `main.tf`: blocks, object attributes and
//! single-line attributes, laid out exactly as `terraform fmt` does (two-space
//! indent, `=` aligned over runs of single-line attributes, a multi-line
//! attribute ending a run). It writes values it is given; it never reads one.

use serde_json::Value;

/// One item of a block or object body.
#[derive(Clone, Debug)]
pub enum Item {
    /// `key = value` on one line (`value` is already HCL).
    Attr(String, String),
    /// `key = {` … `}`.
    Object(String, Vec<Item>),
    /// `key = [` one line per element `]` (elements are already HCL).
    List(String, Vec<String>),
    /// `header {` … `}` (e.g. `resource "t" "n"`), preceded by a blank line
    /// when it is not the first item.
    Block(String, Vec<Item>),
}

/// `key = value` with `value` already HCL.
pub fn attr(key: &str, value: impl Into<String>) -> Item {
    Item::Attr(key.to_owned(), value.into())
}

/// `key = "text"`.
pub fn attr_str(key: &str, text: &str) -> Item {
    Item::Attr(key.to_owned(), quote(text))
}

/// An HCL string literal: JSON escapes, plus `$${` and `%%{` so that no
/// template sequence is interpreted.
pub fn quote(text: &str) -> String {
    Value::from(text)
        .to_string()
        .replace("${", "$${")
        .replace("%{", "%%{")
}

/// A JSON value as a one-line HCL expression (objects with quoted keys, in
/// their own order).
pub fn inline(value: &Value) -> String {
    match value {
        Value::String(s) => quote(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(inline).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) if map.is_empty() => "{}".to_owned(),
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{} = {}", quote(k), inline(v)))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
        other => other.to_string(),
    }
}

/// The whole file for top-level blocks.
pub fn render(items: &[Item]) -> String {
    let mut out = String::new();
    body(items, 0, &mut out);
    out
}

fn body(items: &[Item], depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    let mut i = 0;
    while i < items.len() {
        let run_end = items[i..]
            .iter()
            .position(|item| !matches!(item, Item::Attr(..)))
            .map_or(items.len(), |p| i + p);
        if run_end > i {
            attr_run(&items[i..run_end], &pad, out);
            i = run_end;
            continue;
        }
        match &items[i] {
            Item::Object(key, children) => {
                out.push_str(&format!("{pad}{key} = {{\n"));
                body(children, depth + 1, out);
                out.push_str(&format!("{pad}}}\n"));
            }
            Item::List(key, elements) => {
                out.push_str(&format!("{pad}{key} = [\n"));
                for element in elements {
                    out.push_str(&format!("{pad}  {element},\n"));
                }
                out.push_str(&format!("{pad}]\n"));
            }
            Item::Block(header, children) => {
                if i > 0 {
                    out.push('\n');
                }
                out.push_str(&format!("{pad}{header} {{\n"));
                body(children, depth + 1, out);
                out.push_str(&format!("{pad}}}\n"));
            }
            Item::Attr(..) => {}
        }
        i += 1;
    }
}

fn attr_run(run: &[Item], pad: &str, out: &mut String) {
    let width = run
        .iter()
        .filter_map(|item| match item {
            Item::Attr(k, _) => Some(k.len()),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    for item in run {
        if let Item::Attr(key, value) = item {
            out.push_str(&format!("{pad}{key:<width$} = {value}\n"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn quotes_escape_json_and_templates() {
        assert_eq!(quote("a\"b${x}%{y}\\"), r#""a\"b$${x}%%{y}\\""#);
    }

    #[test]
    fn inline_values_are_one_line() {
        let v = json!({"base_url": "http://h", "streams": ["a", "b"], "n": 1, "e": {}});
        assert_eq!(
            inline(&v),
            r#"{ "base_url" = "http://h", "streams" = ["a", "b"], "n" = 1, "e" = {} }"#
        );
    }

    #[test]
    fn runs_of_attributes_are_aligned_and_objects_break_them() {
        let text = render(&[Item::Block(
            "resource \"t\" \"n\"".into(),
            vec![
                attr_str("name", "x"),
                attr("workspace_id", "var.w"),
                Item::Object("configuration".into(), vec![attr("a", "1")]),
                attr("b", "2"),
            ],
        )]);
        assert_eq!(
            text,
            "resource \"t\" \"n\" {\n  name         = \"x\"\n  workspace_id = var.w\n  configuration = {\n    a = 1\n  }\n  b = 2\n}\n"
        );
        assert_eq!(eltbench_terraform::fmt::format_source(&text), text);
    }
}
