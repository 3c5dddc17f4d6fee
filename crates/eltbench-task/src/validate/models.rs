//! Checks of a task's data models: columns, duplicates, eval keys.

use std::collections::BTreeMap;

use super::Check;
use crate::names::get_ci;
use crate::{DataModel, EvalKey, lines};

pub(super) fn check(c: &mut Check<'_>) {
    if c.task.models.is_empty() {
        let path = c.task.data_model_path();
        c.error(&path, None, "the task has no data models".into());
    }
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for model in &c.task.models {
        let nth = seen.entry(model.name.clone()).or_default();
        let line = c.model_line(&model.name, *nth);
        *nth += 1;
        if *nth > 1 {
            let path = c.task.data_model_path();
            c.error(&path, line, format!("duplicate model `{}`", model.name));
            continue;
        }
        columns(c, model, line);
        eval_key(c, model, line);
    }
}

fn columns(c: &mut Check<'_>, model: &DataModel, model_line: Option<usize>) {
    let path = c.task.data_model_path();
    if model.columns.is_empty() {
        c.error(
            &path,
            model_line,
            format!("model `{}` has no columns", model.name),
        );
    }
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut exact: BTreeMap<&str, usize> = BTreeMap::new();
    let from = model_line.unwrap_or(1);
    for column in &model.columns {
        let nth = exact.entry(column.name.as_str()).or_default();
        *nth += 1;
        let count = seen.entry(column.name.to_ascii_lowercase()).or_default();
        *count += 1;
        if *count > 1 {
            let line = lines::yaml_entry(
                &c.task.texts.data_model,
                &["name"],
                &column.name,
                from,
                *nth - 1,
            );
            c.error(
                &path,
                line,
                format!("model `{}`: duplicate column `{}`", model.name, column.name),
            );
        }
    }
}

fn eval_key(c: &mut Check<'_>, model: &DataModel, model_line: Option<usize>) {
    let keys = &c.suite.eval_keys;
    if keys.text.is_empty() {
        return; // the file itself is broken or missing: reported once at load
    }
    let found = keys
        .value
        .get(&c.task.db)
        .and_then(|m| get_ci(m, &model.name));
    let Some((name, key)) = found else {
        let path = c.task.data_model_path();
        c.error(
            &path,
            model_line,
            format!(
                "model `{}` has no eval key in model_eval_keys.json",
                model.name
            ),
        );
        return;
    };
    let path = keys.path.clone();
    let line = Check::json_line(&keys.text, &c.task.db, name);
    let what = format!("`{}.{name}`", c.task.db);
    for (is_error, message) in key_findings(model, key) {
        let message = format!("{what}: {message}");
        if is_error {
            c.error(&path, line, message)
        } else {
            c.warning(&path, line, message)
        }
    }
}

/// `(is_error, message)` for one model's eval key.
fn key_findings(model: &DataModel, key: &EvalKey) -> Vec<(bool, String)> {
    let mut found = Vec::new();
    let note = key
        .note
        .as_deref()
        .map_or_else(String::new, |n| format!(" ({n})"));
    match (&key.table, &key.order_by) {
        (None, _) | (_, None) => {
            let message = format!(
                "no table or ORDER BY key{note}; the model is not compared column by column"
            );
            found.push((false, message));
        }
        _ => {}
    }
    if let Some(table) = &key.table {
        let last = table.rsplit('.').next().unwrap_or(table);
        if !last.eq_ignore_ascii_case(&model.name) {
            found.push((
                false,
                format!(
                    "reads table `{table}`, not the model's name `{}`",
                    model.name
                ),
            ));
        }
    }
    for column in key.order_by.iter().flatten() {
        if model.column(column).is_none() {
            found.push((
                true,
                format!("ORDER BY column `{column}` is not a column of the model"),
            ));
        }
    }
    found
}
