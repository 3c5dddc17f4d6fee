//! The suite-wide JSON indexes (`source_row_counts.json`, `postgres_ddl.json`,
//! `rest_api_streams.json`, `mongodb_collections.json`, `model_eval_keys.json`):
//! reading them, replacing one task's entries, and writing them back sorted
//! with the original's 4-space indentation. Entries of other tasks are kept
//! as they are; a file that is not JSON is an error, never overwritten.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::error::{AuthorError, read_text, write_text};

pub const ROW_COUNTS: &str = "source_row_counts.json";
pub const EVAL_KEYS: &str = "model_eval_keys.json";
pub const POSTGRES_DDL: &str = "postgres_ddl.json";
pub const REST_STREAMS: &str = "rest_api_streams.json";
pub const MONGO_COLLECTIONS: &str = "mongodb_collections.json";
pub const GT_META: &str = "gt/_meta.json";

/// A JSON index file: top-level key => value, sorted.
pub type Index = BTreeMap<String, Value>;

/// Reads an index (`{}` when the file does not exist).
pub fn read_index(path: &Path) -> Result<Index, AuthorError> {
    if !path.exists() {
        return Ok(Index::new());
    }
    let text = read_text(path)?;
    serde_json::from_str(&text).map_err(|e| AuthorError::json(path, e))
}

/// Writes a value as JSON with 4-space indentation and a final newline.
pub fn write_json(path: &Path, value: &impl Serialize) -> Result<(), AuthorError> {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
    value
        .serialize(&mut ser)
        .map_err(|e| AuthorError::json(path, e))?;
    out.push(b'\n');
    write_text(path, &String::from_utf8_lossy(&out))
}

/// Reads `suite/<file>`, lets `edit` change it, writes it back.
pub fn update_index(
    suite: &Path,
    file: &str,
    edit: impl FnOnce(&mut Index),
) -> Result<(), AuthorError> {
    let path = suite.join(file);
    let mut index = read_index(&path)?;
    edit(&mut index);
    write_json(&path, &sorted_value(&index))
}

/// The index with nested objects sorted by key too (stable output).
fn sorted_value(index: &Index) -> Value {
    Value::Object(index.iter().map(|(k, v)| (k.clone(), sort(v))).collect())
}

fn sort(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let sorted: BTreeMap<&String, Value> = map.iter().map(|(k, v)| (k, sort(v))).collect();
            Value::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sort).collect()),
        other => other.clone(),
    }
}

/// Removes every REST stream whose route is `/<db>/...` (before re-adding a task's).
pub fn drop_streams_of(index: &mut Index, db: &str) {
    let prefix = format!("/{db}/");
    index.retain(|_, stream| {
        !stream
            .get("path")
            .and_then(Value::as_str)
            .is_some_and(|p| p.starts_with(&prefix))
    });
}

/// A free key for a stream: the table name, or `<db>.<table>` when another
/// task's stream already has it.
pub fn stream_key(index: &Index, db: &str, table: &str) -> String {
    match index.get(table) {
        None => table.to_owned(),
        Some(_) => format!("{db}.{table}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn updating_one_task_keeps_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(ROW_COUNTS);
        std::fs::write(&path, r#"{"zeta": {"b": 1, "a": 2}, "alpha": {"x": 3}}"#).unwrap();
        update_index(dir.path(), ROW_COUNTS, |index| {
            index.insert("mid".into(), json!({"t": 4}));
        })
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let alpha = text.find("alpha").unwrap();
        assert!(alpha < text.find("mid").unwrap() && text.find("mid") < text.find("zeta"));
        assert!(
            text.contains("\n    \"alpha\": {\n        \"x\": 3\n"),
            "{text}"
        );
        let back = read_index(&path).unwrap();
        assert_eq!(back["zeta"], json!({"a": 2, "b": 1}));
    }

    #[test]
    fn a_broken_index_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(EVAL_KEYS), "{oops").unwrap();
        let err = update_index(dir.path(), EVAL_KEYS, |_| {}).unwrap_err();
        assert!(err.to_string().contains(EVAL_KEYS), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join(EVAL_KEYS)).unwrap(),
            "{oops"
        );
    }

    #[test]
    fn streams_of_a_task_are_dropped_and_keys_stay_unique() {
        let mut index: Index = serde_json::from_value(json!({
            "orders": {"path": "/shop/orders"}, "users": {"path": "/crm/users"}
        }))
        .unwrap();
        assert_eq!(stream_key(&index, "crm", "orders"), "crm.orders");
        drop_streams_of(&mut index, "shop");
        assert_eq!(index.keys().collect::<Vec<_>>(), ["users"]);
    }
}
