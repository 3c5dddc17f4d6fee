//! The suite-level files that make an output directory a loadable suite:
//! `tasks/<db>` (a symbolic link to the source suite's task), and the
//! task's entries in `source_row_counts.json` (the capped counts) and
//! `model_eval_keys.json` (copied).
//!
//! Entries are merged into existing files under a process-wide lock, so
//! tasks generated on several threads share the files; two processes
//! writing one output directory at once are not supported. Never writes
//! into the source suite.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use eltbench_task::Suite;
use serde_json::{Map, Value};

use crate::SynthError;

static MERGE_LOCK: Mutex<()> = Mutex::new(());

/// Links `out/tasks/<db>` to the suite's task directory and merges the
/// task's entries into `out`'s JSON files.
pub fn add_task(
    suite: &Suite,
    db: &str,
    counts: &BTreeMap<String, u64>,
    out: &Path,
) -> Result<(), SynthError> {
    link_task(suite, db, out)?;
    let _guard = MERGE_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let counts_value = serde_json::to_value(counts).unwrap_or(Value::Null);
    merge_entry(&out.join("source_row_counts.json"), db, counts_value)?;
    let keys = eval_keys_of(&suite.root().join("model_eval_keys.json"), db)?;
    merge_entry(&out.join("model_eval_keys.json"), db, keys)
}

fn link_task(suite: &Suite, db: &str, out: &Path) -> Result<(), SynthError> {
    let tasks = out.join("tasks");
    std::fs::create_dir_all(&tasks).map_err(|e| SynthError::io(&tasks, e))?;
    let target = suite.root().join("tasks").join(db);
    let target = std::fs::canonicalize(&target).map_err(|e| SynthError::io(&target, e))?;
    let link = tasks.join(db);
    match std::fs::symlink_metadata(&link) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::remove_file(&link).map_err(|e| SynthError::io(&link, e))?;
        }
        Ok(_) => return Ok(()), // a real directory someone put there: keep it
        Err(_) => {}
    }
    std::os::unix::fs::symlink(&target, &link).map_err(|e| SynthError::io(&link, e))
}

/// The `db` entry of the suite's `model_eval_keys.json` (`{}` if none).
fn eval_keys_of(path: &Path, db: &str) -> Result<Value, SynthError> {
    let all = read_object(path)?;
    Ok(all
        .get(db)
        .cloned()
        .unwrap_or_else(|| Value::Object(Map::new())))
}

fn read_object(path: &Path) -> Result<Map<String, Value>, SynthError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Map::new()),
        Err(e) => return Err(SynthError::io(path, e)),
    };
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(SynthError::hints(path, "not a JSON object")),
        Err(e) => Err(SynthError::hints(path, format!("line {}: {e}", e.line()))),
    }
}

/// Sets `db` to `value` in the JSON object file at `path`, keys sorted.
fn merge_entry(path: &Path, db: &str, value: Value) -> Result<(), SynthError> {
    let mut all: BTreeMap<String, Value> = read_object(path)?.into_iter().collect();
    all.insert(db.to_owned(), value);
    let mut text = serde_json::to_string_pretty(&all).unwrap_or_default();
    text.push('\n');
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, text).map_err(|e| SynthError::io(&partial, e))?;
    std::fs::rename(&partial, path).map_err(|e| SynthError::io(path, e))
}
