//! The per-task files of a perturbed suite: config.yaml, data_model.yaml,
//! schemas, data and gold, each rewritten with the task's [`Renames`] and
//! the suite's [`Values`]. Reads the source suite, writes under `dst` only.

use std::collections::BTreeSet;
use std::path::Path;

use eltbench_task::{Suite, Task};
use serde_yaml::Value;

use super::names::Renames;
use super::sql::rename_sql;
use super::values::Values;
use crate::error::{AuthorError, read_text, write_text};
use crate::table::RawTable;

/// Every name of the suite (lower case): no new name may equal one.
pub fn all_names(suite: &Suite) -> Result<BTreeSet<String>, AuthorError> {
    let mut names = BTreeSet::new();
    for task in suite.tasks() {
        names.extend(
            task_names(suite, task)?
                .iter()
                .map(|n| n.to_ascii_lowercase()),
        );
        names.insert(task.db.to_ascii_lowercase());
    }
    Ok(names)
}

/// The task's tables, their columns (schemas and data headers), models and model columns.
pub fn task_names(suite: &Suite, task: &Task) -> Result<Vec<String>, AuthorError> {
    let mut names = Vec::new();
    for table in task.source_tables() {
        names.push(table.name.clone());
        if let Some(path) = suite.data_path(&task.db, &table.name) {
            names.extend(csv_header(&path)?);
        }
    }
    for schema in task.schemas.values() {
        names.extend(schema.columns.iter().map(|c| c.name.clone()));
    }
    for model in &task.models {
        names.push(model.name.clone());
        names.extend(model.columns.iter().map(|c| c.name.clone()));
    }
    Ok(names)
}

fn csv_header(path: &Path) -> Result<Vec<String>, AuthorError> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| AuthorError::csv(path, e))?;
    let header = reader.headers().map_err(|e| AuthorError::csv(path, e))?;
    Ok(header.iter().map(str::to_owned).collect())
}

/// Writes one task's files into `dst`.
pub fn write_task(
    suite: &Suite,
    task: &Task,
    r: &Renames,
    values: &mut Values,
    dst: &Path,
) -> Result<(), AuthorError> {
    let src_dir = suite.root().join("tasks").join(&task.db);
    let dst_dir = dst.join("tasks").join(&task.db);
    let config = rename_yaml(
        &read_text(&src_dir.join("config.yaml"))?,
        r,
        &src_dir.join("config.yaml"),
    )?;
    write_text(&dst_dir.join("config.yaml"), &config)?;
    let model = rename_yaml(
        &read_text(&src_dir.join("data_model.yaml"))?,
        r,
        &src_dir.join("data_model.yaml"),
    )?;
    write_text(&dst_dir.join("data_model.yaml"), &model)?;
    for stem in task.schemas.keys() {
        let path = src_dir.join("schemas").join(format!("{stem}.csv"));
        let table = RawTable::read_csv(&path)?;
        let renamed = rename_table(table, r, &mut |v| r.apply_words(v), true);
        renamed.write_csv(
            &dst_dir
                .join("schemas")
                .join(format!("{}.csv", r.apply(stem))),
        )?;
    }
    for table in task.source_tables() {
        if let Some(path) = suite.data_path(&task.db, &table.name) {
            let raw = RawTable::read_csv(&path)?;
            let renamed = rename_table(raw, r, &mut |v| values.apply(v), false);
            let out = dst
                .join("data")
                .join(&task.db)
                .join(format!("{}.csv", r.apply(&table.name)));
            renamed.write_csv(&out)?;
        }
    }
    if let Some(gold) = suite.gold_dir(&task.db) {
        write_gold(&gold, &dst.join("gold").join(&task.db), r, values)?;
    }
    let checks = suite
        .root()
        .join("verify")
        .join(format!("{}.yaml", task.db));
    if checks.is_file() {
        let text = rename_checks(&read_text(&checks)?, r, values, &checks)?;
        write_text(&dst.join("verify").join(format!("{}.yaml", task.db)), &text)?;
    }
    Ok(())
}

/// The testing queries of `verify/<db>.yaml` (model, name, SQL) renamed.
fn rename_checks(
    text: &str,
    r: &Renames,
    values: &Values,
    path: &Path,
) -> Result<String, AuthorError> {
    let mut doc: Value = serde_yaml::from_str(text).map_err(|e| AuthorError::yaml(path, e))?;
    let literal = |v: &str| values.literal(v);
    let checks = doc.get_mut("checks").and_then(Value::as_sequence_mut);
    for check in checks
        .into_iter()
        .flatten()
        .filter_map(Value::as_mapping_mut)
    {
        for (key, value) in check.iter_mut() {
            let Value::String(s) = value else { continue };
            *s = match key.as_str() {
                Some("model") => r.apply(s),
                Some("source_sql" | "model_sql") => rename_sql(s, r, &literal),
                _ => r.apply_words(s),
            };
        }
    }
    serde_yaml::to_string(&doc).map_err(|e| AuthorError::yaml(path, e))
}

/// Renames a table's name and header; `schema`: the first column holds names.
fn rename_table(
    mut table: RawTable,
    r: &Renames,
    value: &mut dyn FnMut(&str) -> String,
    schema: bool,
) -> RawTable {
    table.name = r.apply(&table.name);
    if !schema {
        table.header = table.header.iter().map(|h| r.apply(h)).collect();
    }
    for row in &mut table.rows {
        for (i, field) in row.iter_mut().enumerate() {
            if let Some(v) = field.as_mut() {
                *v = if schema && i == 0 {
                    r.apply(v)
                } else {
                    value(v)
                };
            }
        }
    }
    table
}

/// Renames `table`, `tables`, `name` values, path file stems and the words
/// of descriptions in a YAML document (config.yaml, data_model.yaml).
fn rename_yaml(text: &str, r: &Renames, path: &Path) -> Result<String, AuthorError> {
    let mut doc: Value = serde_yaml::from_str(text).map_err(|e| AuthorError::yaml(path, e))?;
    walk(&mut doc, None, r);
    serde_yaml::to_string(&doc).map_err(|e| AuthorError::yaml(path, e))
}

fn walk(value: &mut Value, key: Option<&str>, r: &Renames) {
    match value {
        Value::Mapping(map) => {
            for (k, v) in map.iter_mut() {
                walk(v, k.as_str(), r);
            }
        }
        Value::Sequence(items) => items.iter_mut().for_each(|v| walk(v, key, r)),
        Value::String(s) => match key {
            Some("table" | "tables" | "name") => *s = r.apply(s),
            Some("description" | "descrption") => *s = r.apply_words(s),
            Some("path") => *s = rename_stem(s, r),
            _ => {}
        },
        _ => {}
    }
}

/// `.../<table>.<ext>` with the table renamed.
fn rename_stem(path: &str, r: &Renames) -> String {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    let Some((stem, ext)) = file.rsplit_once('.') else {
        return path.to_owned();
    };
    match r.get(stem) {
        Some(new) if dir.is_empty() => format!("{new}.{ext}"),
        Some(new) => format!("{dir}/{new}.{ext}"),
        None => path.to_owned(),
    }
}

fn write_gold(src: &Path, dst: &Path, r: &Renames, values: &Values) -> Result<(), AuthorError> {
    let literal = |v: &str| values.literal(v);
    for (sub, is_sql) in [("models", true), ("elt", false)] {
        let dir = src.join(sub);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let text = read_text(&path)?;
            let new_name = rename_stem(name, r);
            let new_text = if is_sql {
                rename_sql(&text, r, &literal)
            } else {
                rename_quoted(&text, r)
            };
            write_text(&dst.join(sub).join(new_name), &new_text)?;
        }
    }
    Ok(())
}

/// `"<table>"` strings of a Terraform file renamed.
fn rename_quoted(text: &str, r: &Renames) -> String {
    let mut out = String::new();
    for (i, part) in text.split('"').enumerate() {
        if i > 0 {
            out.push('"');
        }
        out.push_str(&if i % 2 == 1 {
            r.get(part).map_or_else(|| part.to_owned(), str::to_owned)
        } else {
            part.to_owned()
        });
    }
    out
}
