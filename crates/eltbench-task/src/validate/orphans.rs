//! Suite-wide checks: entries of the JSON files and files under `data/` and
//! `gt/` that no task or model claims. All are warnings: nothing reads them.

use std::collections::BTreeMap;
use std::path::Path;

use super::Check;
use crate::names::{get_ci, list_dir};
use crate::{Problem, Suite, Task};

pub(super) fn check(suite: &Suite, out: &mut Vec<Problem>) {
    let counts = &suite.row_counts;
    json_entries(
        suite,
        &counts.path,
        &counts.text,
        &counts.value,
        "table",
        has_table,
        out,
    );
    let keys = &suite.eval_keys;
    json_entries(
        suite,
        &keys.path,
        &keys.text,
        &keys.value,
        "model",
        has_model,
        out,
    );
    let meta = &suite.gt_meta;
    json_entries(
        suite,
        &meta.path,
        &meta.text,
        &meta.value,
        "model",
        has_model,
        out,
    );
    files(suite, "data", "source table", has_table, out);
    files(suite, "gt", "model", has_model, out);
}

fn has_table(task: &Task, name: &str) -> bool {
    task.source_tables()
        .iter()
        .any(|t| t.name.eq_ignore_ascii_case(name))
}

fn has_model(task: &Task, name: &str) -> bool {
    task.model(name).is_some()
}

/// Whether `tasks/<db>/` exists (loaded or not: a broken task is reported
/// once, not again for every entry that names it).
fn is_task_dir(suite: &Suite, db: &str) -> bool {
    suite.root.join("tasks").join(db).is_dir()
}

fn json_entries<V>(
    suite: &Suite,
    path: &Path,
    text: &str,
    value: &BTreeMap<String, BTreeMap<String, V>>,
    what: &str,
    has: fn(&Task, &str) -> bool,
    out: &mut Vec<Problem>,
) {
    for (db, entries) in value {
        if !is_task_dir(suite, db) {
            let line = crate::lines::json_key(text, &[db]);
            out.push(Problem::warning(
                path,
                line,
                format!("`{db}` is not a task of this suite; ignored"),
            ));
            continue;
        }
        let Some(task) = suite.task(db) else { continue };
        for name in entries.keys().filter(|name| !has(task, name)) {
            let line = Check::json_line(text, db, name);
            let message = format!("`{db}.{name}`: the task has no {what} `{name}`; ignored");
            out.push(Problem::warning(path, line, message));
        }
    }
}

fn files(
    suite: &Suite,
    top: &str,
    what: &str,
    has: fn(&Task, &str) -> bool,
    out: &mut Vec<Problem>,
) {
    let Ok(dirs) = list_dir(&suite.root.join(top)) else {
        return;
    };
    for (db, dir) in dirs.into_iter().filter(|(_, dir)| dir.is_dir()) {
        if !is_task_dir(suite, &db) {
            out.push(Problem::warning(
                &dir,
                None,
                format!("`{db}` is not a task of this suite; ignored"),
            ));
            continue;
        }
        let Some(task) = suite.task(&db) else {
            continue;
        };
        let Ok(entries) = list_dir(&dir) else {
            continue;
        };
        let stems = entries
            .iter()
            .filter_map(|(name, path)| Some((name.strip_suffix(".csv")?, path)));
        for (stem, path) in stems.filter(|(stem, _)| !has(task, stem)) {
            out.push(Problem::warning(
                path,
                None,
                format!("the task has no {what} `{stem}`; file ignored"),
            ));
        }
        if top == "data" {
            missing_data(task, &dir, &entries, out);
        }
    }
}

/// A task with some data files but not all: the rest must be generated.
fn missing_data(
    task: &Task,
    dir: &Path,
    entries: &[(String, std::path::PathBuf)],
    out: &mut Vec<Problem>,
) {
    let files: BTreeMap<String, ()> = entries
        .iter()
        .filter_map(|(n, _)| Some((n.strip_suffix(".csv")?.to_owned(), ())))
        .collect();
    if files.is_empty() {
        return;
    }
    for table in task
        .source_tables()
        .iter()
        .filter(|t| get_ci(&files, &t.name).is_none())
    {
        let message = format!(
            "no data file for table `{}` (`{}.csv`); its data will have to be generated",
            table.name, table.name
        );
        out.push(Problem::warning(dir, None, message));
    }
}
