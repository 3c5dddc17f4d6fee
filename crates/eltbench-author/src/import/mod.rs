//! `eltbench suite import elt-bench`: a checkout of the original ELT-Bench
//! repository converted into eltbench's suite layout.
//!
//! | original | eltbench |
//! |---|---|
//! | `elt-bench/<db>/{config.yaml,data_model.yaml,schemas/}` | `tasks/<db>/` (copied as written) |
//! | `evaluation/table.json` | `source_row_counts.json` |
//! | `evaluation/<db>/<model>.sql` (table + ORDER BY) | `model_eval_keys.json` |
//! | `setup/sources/<db>/postgres.sh` (CREATE TABLE) | `postgres_ddl.json` |
//! | `setup/elt_bench.yaml` (REST connector manifest) | `rest_api_streams.json` |
//! | `setup/mongo.jsonl` | `mongodb_collections.json` |
//! | `--data`: `data/<db>/<table>.csv` (data_db, data_api), `gt/<db>/<model>.csv` | `data/`, `gt/` |
//!
//! Tasks left without data are listed in `synthetic_tasks.json`: their data
//! must be generated (`eltbench synth`). Never edits the checkout.

mod ddl;
mod eval_sql;
mod streams;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use eltbench_task::{Suite, TaskConfig};
use serde_json::{Value, json};

use crate::error::{AuthorError, read_text};
use crate::indexes::{self, write_json};

/// The suite-level file listing tasks whose data must be generated.
pub const SYNTHETIC_TASKS: &str = "synthetic_tasks.json";

/// What an import wrote.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ImportReport {
    pub tasks: usize,
    pub tasks_with_data: Vec<String>,
    pub synthetic_tasks: Vec<String>,
    pub ground_truth_files: usize,
    pub eval_keys: usize,
    pub postgres_tables: usize,
    pub rest_streams: usize,
}

/// Converts the checkout at `from` (with downloaded data in `data`) into a suite at `to`.
pub fn import_elt_bench(
    from: &Path,
    data: Option<&Path>,
    to: &Path,
) -> Result<ImportReport, AuthorError> {
    let tasks_root = from.join("elt-bench");
    if !tasks_root.is_dir() {
        return Err(AuthorError::BadInput(format!(
            "{} is not an ELT-Bench checkout: it has no `elt-bench/` directory",
            from.display()
        )));
    }
    let dbs = task_dirs(&tasks_root)?;
    let mut report = ImportReport {
        tasks: dbs.len(),
        ..ImportReport::default()
    };
    for db in &dbs {
        copy_tree(&tasks_root.join(db), &to.join("tasks").join(db))?;
    }
    row_counts(from, to)?;
    report.eval_keys = eval_keys(from, &dbs, to)?;
    report.postgres_tables = postgres_ddl(from, &dbs, to)?;
    report.rest_streams = rest_streams(from, to)?;
    mongo_collections(from, to)?;
    for db in &dbs {
        let complete = match data {
            Some(dir) => copy_data(dir, db, to, &mut report)?,
            None => false,
        };
        if complete {
            report.tasks_with_data.push(db.clone());
        } else {
            report.synthetic_tasks.push(db.clone());
        }
    }
    let synthetic = json!({
        "note": "tasks without source data in this suite: generate it with `eltbench synth`",
        "tasks": report.synthetic_tasks,
    });
    write_json(&to.join(SYNTHETIC_TASKS), &synthetic)?;
    Ok(report)
}

fn task_dirs(root: &Path) -> Result<Vec<String>, AuthorError> {
    let entries = std::fs::read_dir(root).map_err(|e| AuthorError::read(root, e))?;
    let mut dbs: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().join("config.yaml").is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .collect();
    dbs.sort();
    Ok(dbs)
}

/// Copies the files of `from` into `to` recursively (dot files skipped).
fn copy_tree(from: &Path, to: &Path) -> Result<(), AuthorError> {
    std::fs::create_dir_all(to).map_err(|e| AuthorError::write(to, e))?;
    let entries = std::fs::read_dir(from).map_err(|e| AuthorError::read(from, e))?;
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        if src.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(|e| AuthorError::write(&dst, e))?;
        }
    }
    Ok(())
}

fn row_counts(from: &Path, to: &Path) -> Result<(), AuthorError> {
    let path = from.join("evaluation/table.json");
    let counts = indexes::read_index(&path)?;
    if counts.is_empty() {
        return Err(AuthorError::BadInput(format!(
            "{} is missing or empty",
            path.display()
        )));
    }
    write_json(&to.join(indexes::ROW_COUNTS), &counts)
}

fn eval_keys(from: &Path, dbs: &[String], to: &Path) -> Result<usize, AuthorError> {
    let mut keys: BTreeMap<String, BTreeMap<String, eltbench_task::EvalKey>> = BTreeMap::new();
    for db in dbs {
        let dir = from.join("evaluation").join(db);
        for path in files_with_ext(&dir, "sql")? {
            let model = stem(&path);
            keys.entry(db.clone())
                .or_default()
                .insert(model, eval_sql::eval_key(&read_text(&path)?));
        }
    }
    write_json(&to.join(indexes::EVAL_KEYS), &keys)?;
    Ok(keys.values().map(BTreeMap::len).sum())
}

fn postgres_ddl(from: &Path, dbs: &[String], to: &Path) -> Result<usize, AuthorError> {
    let mut ddl: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for db in dbs {
        let script = from.join("setup/sources").join(db).join("postgres.sh");
        if script.is_file() {
            let tables = ddl::parse_script(&read_text(&script)?);
            if !tables.is_empty() {
                ddl.insert(db.clone(), tables);
            }
        }
    }
    write_json(&to.join(indexes::POSTGRES_DDL), &ddl)?;
    Ok(ddl.values().map(BTreeMap::len).sum())
}

fn rest_streams(from: &Path, to: &Path) -> Result<usize, AuthorError> {
    let path = from.join("setup/elt_bench.yaml");
    let streams = if path.is_file() {
        streams::parse_manifest(&read_text(&path)?).map_err(|e| AuthorError::yaml(&path, e))?
    } else {
        BTreeMap::new()
    };
    write_json(&to.join(indexes::REST_STREAMS), &streams)?;
    Ok(streams.len())
}

fn mongo_collections(from: &Path, to: &Path) -> Result<(), AuthorError> {
    let collections = indexes::read_index(&from.join("setup/mongo.jsonl"))?;
    write_json(&to.join(indexes::MONGO_COLLECTIONS), &collections)
}

/// Where a table's CSV may be in the downloaded data (data_db and data_api unpacked).
const DATA_DIRS: [&str; 5] = [
    "data",
    "data_db/data",
    "rest_api/data",
    "data_api/data",
    ".",
];

/// Copies a task's tables and ground truth; whether every table was found.
fn copy_data(
    dir: &Path,
    db: &str,
    to: &Path,
    report: &mut ImportReport,
) -> Result<bool, AuthorError> {
    let config_path = to.join("tasks").join(db).join("config.yaml");
    let config = TaskConfig::parse(&read_text(&config_path)?, &config_path).map_err(|e| {
        AuthorError::Suite {
            path: config_path.clone(),
            message: e.to_string(),
        }
    })?;
    let tables: Vec<String> = config
        .sources()
        .iter()
        .flat_map(|b| b.tables())
        .map(str::to_owned)
        .collect();
    let mut complete = !tables.is_empty();
    for table in &tables {
        let found = DATA_DIRS
            .iter()
            .map(|sub| dir.join(sub).join(db).join(format!("{table}.csv")))
            .find(|p| p.is_file());
        match found {
            Some(src) => {
                let dst = to.join("data").join(db).join(format!("{table}.csv"));
                copy_file(&src, &dst)?;
            }
            None => complete = false,
        }
    }
    for sub in ["gt", "evaluation/gt"] {
        for path in files_with_ext(&dir.join(sub).join(db), "csv")? {
            let dst = to
                .join("gt")
                .join(db)
                .join(path.file_name().unwrap_or_default());
            copy_file(&path, &dst)?;
            report.ground_truth_files += 1;
        }
    }
    Ok(complete)
}

fn copy_file(src: &Path, dst: &Path) -> Result<(), AuthorError> {
    if let Some(parent) = dst.parent() {
        std::fs::create_dir_all(parent).map_err(|e| AuthorError::write(parent, e))?;
    }
    std::fs::copy(src, dst)
        .map(|_| ())
        .map_err(|e| AuthorError::write(dst, e))
}

fn files_with_ext(dir: &Path, ext: &str) -> Result<Vec<PathBuf>, AuthorError> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| AuthorError::read(dir, e))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    paths.sort();
    Ok(paths)
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Whether the imported suite loads (its problems are for `tasks validate`).
pub fn check_loads(to: &Path) -> Result<Suite, AuthorError> {
    Suite::load_lenient(to).map_err(|e| AuthorError::Suite {
        path: to.to_path_buf(),
        message: e.to_string(),
    })
}
