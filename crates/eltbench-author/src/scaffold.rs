//! `eltbench tasks new`: a new task in a suite from a set of tables. Writes
//! `tasks/<db>/{config.yaml, data_model.yaml, schemas/}`, `data/<db>/`, and
//! the task's entries of the suite's JSON indexes. The author then fills
//! the descriptions, the data models, their eval keys and the gold.
//!
//! It never overwrites an existing task unless asked (`force`), and never
//! touches other tasks' entries.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use eltbench_task::SourceKind;
use serde_json::{Value, json};

use crate::assign::{Assignment, assign};
use crate::config_yaml::config_yaml;
use crate::error::{AuthorError, write_text};
use crate::indexes::{self, update_index};
use crate::infer::{ColumnType, infer_types};
use crate::table::RawTable;

/// What to scaffold.
#[derive(Debug, Clone)]
pub struct NewTask {
    /// The task's database name (`[a-z][a-z0-9_]*`).
    pub db: String,
    /// Its source tables.
    pub tables: Vec<RawTable>,
    /// The source kinds tables are dealt over.
    pub kinds: Vec<SourceKind>,
    /// Replace an existing task of the same name.
    pub force: bool,
}

/// What was written.
#[derive(Debug, Clone, serde::Serialize)]
pub struct NewTaskReport {
    pub db: String,
    pub task_dir: PathBuf,
    /// `table => (kind, format, rows)`.
    pub tables: BTreeMap<String, TableReport>,
    /// What the author has left to do.
    pub todo: Vec<String>,
}

/// One table of the report.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TableReport {
    pub kind: SourceKind,
    pub format: Option<eltbench_task::FileFormat>,
    pub rows: usize,
    pub columns: usize,
}

/// The placeholder model of the skeleton `data_model.yaml`.
pub fn placeholder_model(db: &str) -> String {
    format!("{db}__model")
}

/// Writes the task into the suite at `suite`.
pub fn new_task(suite: &Path, task: &NewTask) -> Result<NewTaskReport, AuthorError> {
    check_name("task name", &task.db, true)?;
    for table in &task.tables {
        check_name("table name", &table.name, false)?;
        check_columns(table)?;
    }
    check_unique_tables(&task.tables)?;
    let task_dir = suite.join("tasks").join(&task.db);
    if task_dir.exists() && !task.force {
        return Err(AuthorError::BadInput(format!(
            "{} already exists (pass --force to replace it)",
            task_dir.display()
        )));
    }
    let names: Vec<String> = task.tables.iter().map(|t| t.name.clone()).collect();
    let assigned = assign(&names, &task.kinds);
    let by_name: BTreeMap<&str, &RawTable> =
        task.tables.iter().map(|t| (t.name.as_str(), t)).collect();
    write_task_files(suite, &task.db, &assigned, &by_name)?;
    write_indexes(suite, &task.db, &assigned, &by_name)?;
    Ok(report(task, task_dir, &assigned, &by_name))
}

fn write_task_files(
    suite: &Path,
    db: &str,
    assigned: &[Assignment],
    tables: &BTreeMap<&str, &RawTable>,
) -> Result<(), AuthorError> {
    let task_dir = suite.join("tasks").join(db);
    if task_dir.join("schemas").exists() {
        std::fs::remove_dir_all(task_dir.join("schemas"))
            .map_err(|e| AuthorError::write(&task_dir, e))?;
    }
    write_text(&task_dir.join("config.yaml"), &config_yaml(db, assigned))?;
    write_text(&task_dir.join("data_model.yaml"), &data_model_skeleton(db))?;
    for table in tables.values() {
        let schema = task_dir.join("schemas").join(format!("{}.csv", table.name));
        write_text(&schema, &schema_csv(table)?)?;
        let data = suite
            .join("data")
            .join(db)
            .join(format!("{}.csv", table.name));
        table.write_csv(&data)?;
    }
    Ok(())
}

/// `column_name,column_description` with every description empty.
pub fn schema_csv(table: &RawTable) -> Result<String, AuthorError> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let path = Path::new(&table.name);
    let fail = |e: csv::Error| AuthorError::csv(path, e);
    writer
        .write_record(["column_name", "column_description"])
        .map_err(fail)?;
    for column in &table.header {
        writer.write_record([column.as_str(), ""]).map_err(fail)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| AuthorError::csv(path, e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn data_model_skeleton(db: &str) -> String {
    let model = placeholder_model(db);
    format!(
        "# Target data models of `{db}`: replace the placeholder below with the models the\n\
         # agent must build (name, description, every column with a description), then give\n\
         # each an entry in model_eval_keys.json (table + ORDER BY keys), a gold dbt model in\n\
         # gold/{db}/models/<model>.sql and ground truth in gt/{db}/<model>.csv.\n\
         models:\n  - name: {model}\n    description: \"\"\n    columns:\n      - name: id\n        description: \"\"\n"
    )
}

fn write_indexes(
    suite: &Path,
    db: &str,
    assigned: &[Assignment],
    tables: &BTreeMap<&str, &RawTable>,
) -> Result<(), AuthorError> {
    let of = |kind: SourceKind| assigned.iter().filter(move |a| a.kind == kind);
    let counts: BTreeMap<&str, usize> = tables.iter().map(|(n, t)| (*n, t.rows.len())).collect();
    update_index(suite, indexes::ROW_COUNTS, |index| {
        index.insert(db.to_owned(), json!(counts));
    })?;
    let ddl: BTreeMap<&str, Value> = of(SourceKind::Postgres)
        .filter_map(|a| tables.get(a.table.as_str()))
        .map(|t| (t.name.as_str(), ddl_entry(t)))
        .collect();
    update_index(suite, indexes::POSTGRES_DDL, |index| {
        index.remove(db);
        if !ddl.is_empty() {
            index.insert(db.to_owned(), json!(ddl));
        }
    })?;
    update_index(suite, indexes::REST_STREAMS, |index| {
        indexes::drop_streams_of(index, db);
        for a in of(SourceKind::CustomApi) {
            if let Some(table) = tables.get(a.table.as_str()) {
                let key = indexes::stream_key(index, db, &a.table);
                index.insert(key, stream_entry(db, table));
            }
        }
    })?;
    let collections: Vec<&str> = of(SourceKind::Mongodb).map(|a| a.table.as_str()).collect();
    update_index(suite, indexes::MONGO_COLLECTIONS, |index| {
        index.remove(db);
        if !collections.is_empty() {
            index.insert(db.to_owned(), json!(collections));
        }
    })?;
    let model = placeholder_model(db);
    update_index(suite, indexes::EVAL_KEYS, |index| {
        index.entry(db.to_owned()).or_insert_with(
            || json!({ model.clone(): {"table": format!("{db}.airbyte_schema.{model}")} }),
        );
    })
}

/// A `postgres_ddl.json` table entry from inferred types.
pub fn ddl_entry(table: &RawTable) -> Value {
    let types = infer_types(table);
    let columns: Vec<Value> = table
        .header
        .iter()
        .zip(&types)
        .enumerate()
        .map(|(i, (name, ty))| {
            let not_null = !table.rows.is_empty() && table.column(i).all(|v| v.is_some());
            json!({"name": name, "not_null": not_null, "type": ty.sql()})
        })
        .collect();
    json!({"columns": columns, "primary_key": []})
}

/// A `rest_api_streams.json` entry from inferred types.
pub fn stream_entry(db: &str, table: &RawTable) -> Value {
    let types = infer_types(table);
    let properties: serde_json::Map<String, Value> = table
        .header
        .iter()
        .zip(&types)
        .map(|(name, ty): (&String, &ColumnType)| {
            (name.clone(), json!({"type": [ty.json(), "null"]}))
        })
        .collect();
    json!({
        "json_schema": {
            "$schema": "http://json-schema.org/schema#",
            "additionalProperties": true,
            "properties": properties,
            "type": "object"
        },
        "path": format!("/{db}/{}", table.name)
    })
}

fn report(
    task: &NewTask,
    task_dir: PathBuf,
    assigned: &[Assignment],
    tables: &BTreeMap<&str, &RawTable>,
) -> NewTaskReport {
    let tables = assigned
        .iter()
        .filter_map(|a| {
            let t = tables.get(a.table.as_str())?;
            let entry = TableReport {
                kind: a.kind,
                format: a.format,
                rows: t.rows.len(),
                columns: t.header.len(),
            };
            Some((a.table.clone(), entry))
        })
        .collect();
    let db = &task.db;
    let todo = vec![
        format!("describe every column in tasks/{db}/schemas/*.csv"),
        format!("replace the placeholder model in tasks/{db}/data_model.yaml"),
        format!("give each model a table and ORDER BY keys in model_eval_keys.json[\"{db}\"]"),
        format!(
            "write gold/{db}/models/<model>.sql, then produce gt/{db}/ with `eltbench tasks verify`"
        ),
    ];
    NewTaskReport {
        db: db.clone(),
        task_dir,
        tables,
        todo,
    }
}

fn check_name(what: &str, name: &str, lower_only: bool) -> Result<(), AuthorError> {
    let first_ok = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest_ok = name.chars().all(|c| {
        c == '_'
            || c.is_ascii_digit()
            || c.is_ascii_lowercase()
            || (!lower_only && c.is_ascii_uppercase())
    });
    if first_ok && rest_ok {
        return Ok(());
    }
    let allowed = if lower_only {
        "[a-z][a-z0-9_]*"
    } else {
        "[A-Za-z][A-Za-z0-9_]*"
    };
    Err(AuthorError::BadInput(format!(
        "{what} `{name}` is not an identifier of the form {allowed}"
    )))
}

fn check_columns(table: &RawTable) -> Result<(), AuthorError> {
    let mut seen = std::collections::BTreeSet::new();
    for column in &table.header {
        if !seen.insert(column.to_ascii_lowercase()) {
            return Err(AuthorError::BadInput(format!(
                "table `{}` has the column `{column}` twice (names are compared ignoring case)",
                table.name
            )));
        }
    }
    Ok(())
}

fn check_unique_tables(tables: &[RawTable]) -> Result<(), AuthorError> {
    if tables.is_empty() {
        return Err(AuthorError::BadInput(
            "no tables to make a task from".into(),
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for table in tables {
        if !seen.insert(table.name.to_ascii_lowercase()) {
            return Err(AuthorError::BadInput(format!(
                "two tables are named `{}` (names are compared ignoring case)",
                table.name
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str) -> RawTable {
        RawTable {
            name: name.into(),
            header: vec!["id".into(), "amount".into()],
            rows: vec![
                vec![Some("1".into()), Some("2.5".into())],
                vec![Some("2".into()), None],
            ],
        }
    }

    #[test]
    fn ddl_and_stream_entries_carry_inferred_types() {
        let ddl = ddl_entry(&table("t"));
        assert_eq!(
            ddl["columns"][0],
            json!({"name": "id", "not_null": true, "type": "BIGINT"})
        );
        assert_eq!(ddl["columns"][1]["type"], "DOUBLE PRECISION");
        assert_eq!(ddl["columns"][1]["not_null"], false);
        let stream = stream_entry("shop", &table("t"));
        assert_eq!(stream["path"], "/shop/t");
        assert_eq!(
            stream["json_schema"]["properties"]["id"]["type"],
            json!(["number", "null"])
        );
    }

    #[test]
    fn bad_names_and_existing_tasks_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut task = NewTask {
            db: "Bad-Name".into(),
            tables: vec![table("t")],
            kinds: crate::assign::KIND_ORDER.to_vec(),
            force: false,
        };
        assert!(new_task(dir.path(), &task).unwrap_err().is_bad_input());
        task.db = "shop".into();
        new_task(dir.path(), &task).unwrap();
        let err = new_task(dir.path(), &task).unwrap_err();
        assert!(err.to_string().contains("--force"), "{err}");
        task.force = true;
        new_task(dir.path(), &task).unwrap();
    }
}
