//! The JSON indexes of a perturbed suite: each task's entries with tables,
//! columns and models renamed. `gt/_meta.json` is not written (ground truth
//! is recomputed); REST streams of other databases are kept as they are.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::names::Renames;
use crate::error::AuthorError;
use crate::indexes::{self, Index, read_index, stream_key, write_json};

type Tasks = [(String, Renames)];

pub fn write_indexes(src: &Path, dst: &Path, tasks: &Tasks) -> Result<(), AuthorError> {
    per_db(src, dst, indexes::ROW_COUNTS, tasks, |v, r| {
        rename_keys(v, r, &|v, _| v.clone())
    })?;
    per_db(src, dst, indexes::POSTGRES_DDL, tasks, |v, r| {
        rename_keys(v, r, &ddl_table)
    })?;
    per_db(src, dst, indexes::EVAL_KEYS, tasks, |v, r| {
        rename_keys(v, r, &eval_key)
    })?;
    per_db(
        src,
        dst,
        indexes::MONGO_COLLECTIONS,
        tasks,
        |v, r| match v {
            Value::Array(items) => Value::Array(items.iter().map(|i| rename_str(i, r)).collect()),
            other => other.clone(),
        },
    )?;
    streams(src, dst, tasks)
}

fn per_db(
    src: &Path,
    dst: &Path,
    file: &str,
    tasks: &Tasks,
    f: impl Fn(&Value, &Renames) -> Value,
) -> Result<(), AuthorError> {
    let path = src.join(file);
    if !path.exists() {
        return Ok(());
    }
    let index = read_index(&path)?;
    let out: Index = tasks
        .iter()
        .filter_map(|(db, r)| Some((db.clone(), f(index.get(db)?, r))))
        .collect();
    write_json(&dst.join(file), &out)
}

fn rename_str(value: &Value, r: &Renames) -> Value {
    value
        .as_str()
        .map_or_else(|| value.clone(), |s| Value::from(r.apply(s)))
}

fn rename_keys(value: &Value, r: &Renames, inner: &dyn Fn(&Value, &Renames) -> Value) -> Value {
    match value {
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (r.apply(k), inner(v, r))).collect())
        }
        other => other.clone(),
    }
}

fn ddl_table(value: &Value, r: &Renames) -> Value {
    let mut out = value.clone();
    if let Some(columns) = out.get_mut("columns").and_then(Value::as_array_mut) {
        for column in columns {
            if let Some(name) = column.get("name").map(|n| rename_str(n, r)) {
                column["name"] = name;
            }
        }
    }
    if let Some(Value::Array(keys)) = out.get_mut("primary_key") {
        *keys = keys.iter().map(|k| rename_str(k, r)).collect();
    }
    out
}

fn eval_key(value: &Value, r: &Renames) -> Value {
    let mut out = value.clone();
    if let Some(table) = value.get("table").and_then(Value::as_str) {
        let (prefix, last) = table.rsplit_once('.').unwrap_or(("", table));
        let new = if prefix.is_empty() {
            r.apply(last)
        } else {
            format!("{prefix}.{}", r.apply(last))
        };
        out["table"] = json!(new);
    }
    if let Some(Value::Array(keys)) = out.get_mut("order_by") {
        *keys = keys.iter().map(|k| rename_str(k, r)).collect();
    }
    out
}

fn streams(src: &Path, dst: &Path, tasks: &Tasks) -> Result<(), AuthorError> {
    let path = src.join(indexes::REST_STREAMS);
    if !path.exists() {
        return Ok(());
    }
    let mut out = Index::new();
    for stream in read_index(&path)?.into_values() {
        let route = stream
            .get("path")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let mut parts = route.trim_start_matches('/').splitn(2, '/');
        let (db, table) = (
            parts.next().unwrap_or_default(),
            parts.next().unwrap_or_default(),
        );
        let Some((_, r)) = tasks.iter().find(|(d, _)| d == db) else {
            continue;
        };
        let new_table = r.apply(table);
        let mut schema = stream.get("json_schema").cloned().unwrap_or(Value::Null);
        if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
            let renamed: Map<String, Value> =
                props.iter().map(|(k, v)| (r.apply(k), v.clone())).collect();
            *props = renamed;
        }
        let key = stream_key(&out, db, &new_table);
        out.insert(
            key,
            json!({"json_schema": schema, "path": format!("/{db}/{new_table}")}),
        );
    }
    write_json(&dst.join(indexes::REST_STREAMS), &out)
}
