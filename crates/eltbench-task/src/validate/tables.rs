//! Checks of a task's source tables: blocks, schemas, duplicates, row counts.

use std::collections::BTreeMap;

use super::Check;
use crate::names::get_ci;
use crate::source::SourceKind;
use crate::{SourceTable, lines};

/// Sync modes the Airbyte Terraform provider 0.6.5 accepts for a stream.
const SYNC_MODES: [&str; 4] = [
    "full_refresh_overwrite",
    "full_refresh_append",
    "incremental_append",
    "incremental_deduped_history",
];

pub(super) fn check(c: &mut Check<'_>) {
    unknown_kinds(c);
    definition_ids(c);
    let tables = c.task.source_tables();
    if tables.is_empty() {
        let path = c.task.config_path();
        c.error(&path, None, "the task has no source tables".into());
    }
    duplicates(c, &tables);
    for table in &tables {
        schema(c, table);
        row_count(c, table);
    }
    per_kind(c);
    schemas_without_source(c, &tables);
}

fn unknown_kinds(c: &mut Check<'_>) {
    let path = c.task.config_path();
    let known: Vec<_> = SourceKind::ALL.iter().map(|k| k.config_key()).collect();
    for key in &c.task.config.unknown_keys {
        let line = lines::yaml_top_key(&c.task.texts.config, key);
        c.error(
            &path,
            line,
            format!("unknown source kind `{key}` (known: {})", known.join(", ")),
        );
    }
}

fn definition_ids(c: &mut Check<'_>) {
    let path = c.task.config_path();
    let Some(airbyte) = &c.task.config.airbyte else {
        c.warning(
            &path,
            None,
            "no `Airbyte` block: agents get no connector definition ids".into(),
        );
        return;
    };
    for kind in c.task.source_kinds() {
        let Some(key) = kind.definition_id_key() else {
            continue;
        };
        if airbyte.definition_id(key).is_none() {
            let line = lines::yaml_top_key(&c.task.texts.config, kind.config_key());
            c.warning(
                &path,
                line,
                format!("`{kind}` source but `Airbyte.config` has no `{key}`"),
            );
        }
    }
}

fn duplicates(c: &mut Check<'_>, tables: &[SourceTable]) {
    let mut by_name: BTreeMap<String, Vec<(Option<usize>, &SourceTable)>> = BTreeMap::new();
    let mut seen: BTreeMap<(SourceKind, &str), usize> = BTreeMap::new();
    for table in tables {
        let nth = seen.entry((table.kind, table.name.as_str())).or_default();
        let line = c.table_line(table.kind, &table.name, *nth);
        *nth += 1;
        by_name
            .entry(table.name.to_ascii_lowercase())
            .or_default()
            .push((line, table));
    }
    let path = c.task.config_path();
    for mut entries in by_name.into_values().filter(|e| e.len() > 1) {
        entries.sort_by_key(|(line, _)| *line);
        let (first_line, first) = entries[0];
        for (line, table) in &entries[1..] {
            let at = first_line.map_or_else(String::new, |l| format!(" at line {l}"));
            let message = format!(
                "duplicate table `{}` ({}); already listed as `{}` ({}){at}",
                table.name, table.kind, first.name, first.kind
            );
            c.error(&path, *line, message);
        }
    }
}

fn schema(c: &mut Check<'_>, table: &SourceTable) {
    let path = c.task.config_path();
    let line = c.table_line(table.kind, &table.name, 0);
    match get_ci(&c.task.schemas, &table.name) {
        None => c.error(
            &path,
            line,
            format!(
                "table `{}` has no schema file `schemas/{}.csv`",
                table.name, table.name
            ),
        ),
        Some((stem, _)) if *stem != table.name => {
            let message = format!(
                "table `{}` has schema file `schemas/{stem}.csv` (case differs; matched case-insensitively)",
                table.name
            );
            c.warning(&path, line, message);
        }
        Some(_) => {}
    }
}

fn row_count(c: &mut Check<'_>, table: &SourceTable) {
    let counts = &c.suite.row_counts;
    if counts.text.is_empty() {
        return; // the file itself is broken or missing: reported once at load
    }
    let Some(task_counts) = counts.value.get(&c.task.db) else {
        let (path, line) = (
            c.task.config_path(),
            c.table_line(table.kind, &table.name, 0),
        );
        c.error(
            &path,
            line,
            format!(
                "table `{}` has no row count: no `{}` in source_row_counts.json",
                table.name, c.task.db
            ),
        );
        return;
    };
    match get_ci(task_counts, &table.name) {
        None => {
            let (path, line) = (
                c.task.config_path(),
                c.table_line(table.kind, &table.name, 0),
            );
            c.error(
                &path,
                line,
                format!(
                    "table `{}` has no row count in source_row_counts.json",
                    table.name
                ),
            );
        }
        Some((key, _)) if *key != table.name => {
            let line = Check::json_line(&counts.text, &c.task.db, key);
            let message = format!(
                "`{}.{key}`: the table is `{}` in config.yaml (case differs; matched case-insensitively)",
                c.task.db, table.name
            );
            let path = counts.path.clone();
            c.warning(&path, line, message);
        }
        Some(_) => {}
    }
}

fn per_kind(c: &mut Check<'_>) {
    let path = c.task.config_path();
    let mut found = Vec::new();
    for block in c.task.config.sources() {
        let kind = block.kind();
        found.extend(
            block
                .check()
                .into_iter()
                .map(|(table, message)| (kind, table, message, false)),
        );
        for (table, mode) in block.tables().into_iter().zip(block.sync_modes()) {
            if !SYNC_MODES.contains(&mode) {
                let message = format!(
                    "table `{table}`: unknown sync_mode `{mode}` (known: {})",
                    SYNC_MODES.join(", ")
                );
                found.push((kind, table.to_owned(), message, true));
            }
        }
    }
    for (kind, table, message, warn) in found {
        let line = c.table_line(kind, &table, 0);
        if warn {
            c.warning(&path, line, message)
        } else {
            c.error(&path, line, message)
        }
    }
}

fn schemas_without_source(c: &mut Check<'_>, tables: &[SourceTable]) {
    for (stem, schema) in &c.task.schemas {
        if !tables.iter().any(|t| t.name.eq_ignore_ascii_case(stem)) {
            let path = schema.path.clone();
            c.warning(
                &path,
                None,
                format!("no source in config.yaml lists table `{stem}`; schema ignored"),
            );
        }
    }
}
