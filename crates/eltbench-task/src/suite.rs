//! [`Suite`]: a suite directory loaded into memory, and its lookups.
//!
//! Loading reads `tasks/`, the JSON files and `gt/_meta.json`, never the
//! contents of `data/` or `gt/` (those are read on demand). It never writes
//! to the suite.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::read_text;
use crate::eval::{self, EvalKeys, GtMetas, RowCounts};
use crate::names::{find_file_ci, get_ci, list_dir};
use crate::{EvalKey, GroundTruth, GtMeta, Problem, SuiteError, Task};

/// A loaded suite.
#[derive(Debug, Clone)]
pub struct Suite {
    pub(crate) root: PathBuf,
    pub(crate) tasks: BTreeMap<String, Task>,
    pub(crate) row_counts: JsonFile<RowCounts>,
    pub(crate) eval_keys: JsonFile<EvalKeys>,
    pub(crate) gt_meta: JsonFile<GtMetas>,
    /// Problems met while loading (broken files, quirks read leniently).
    pub(crate) load_problems: Vec<Problem>,
}

/// A parsed JSON file and its text (to locate lines).
#[derive(Debug, Clone, Default)]
pub(crate) struct JsonFile<T> {
    pub path: PathBuf,
    pub text: String,
    pub value: T,
}

impl Suite {
    /// Loads a suite; the first broken file is an error naming file and line.
    pub fn load(root: &Path) -> Result<Suite, SuiteError> {
        let suite = Self::load_lenient(root)?;
        match suite.load_problems.iter().find(|p| p.is_error()) {
            Some(problem) => Err(problem.clone().into()),
            None => Ok(suite),
        }
    }

    /// Loads a suite, keeping going past broken files: tasks that cannot be
    /// parsed are left out and their problems appear in [`Suite::validate`]
    /// and [`Suite::load_problems`]. Fails only when `root` is not a suite.
    pub fn load_lenient(root: &Path) -> Result<Suite, SuiteError> {
        let not_a_suite = |reason: &str| SuiteError::NotASuite {
            path: root.to_path_buf(),
            reason: reason.to_owned(),
        };
        if !root.is_dir() {
            return Err(not_a_suite("no such directory"));
        }
        let tasks_dir = root.join("tasks");
        if !tasks_dir.is_dir() {
            return Err(not_a_suite("it has no `tasks/` directory"));
        }
        let mut problems = Vec::new();
        let tasks = load_tasks(&tasks_dir, &mut problems)?;
        let row_counts = load_json(
            &root.join("source_row_counts.json"),
            eval::parse_row_counts,
            &mut problems,
        );
        let eval_keys = load_json(
            &root.join("model_eval_keys.json"),
            eval::parse_eval_keys,
            &mut problems,
        );
        let gt_meta = load_gt_meta(&root.join("gt").join("_meta.json"), &mut problems);
        let root = root.to_path_buf();
        Ok(Suite {
            root,
            tasks,
            row_counts,
            eval_keys,
            gt_meta,
            load_problems: problems,
        })
    }

    /// The suite directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every loaded task, sorted by database name.
    pub fn tasks(&self) -> impl Iterator<Item = &Task> {
        self.tasks.values()
    }

    /// A task by database name.
    pub fn task(&self, db: &str) -> Option<&Task> {
        self.tasks.get(db)
    }

    /// Up to five task names close to `db`, for "did you mean" messages.
    pub fn near_task_names(&self, db: &str) -> Vec<String> {
        crate::names::near_names(db, self.tasks.keys().map(String::as_str))
    }

    /// Problems met while loading (a subset of [`Suite::validate`]).
    pub fn load_problems(&self) -> &[Problem] {
        &self.load_problems
    }

    /// `source_row_counts.json` entries of a task: table => rows.
    pub fn expected_rows(&self, db: &str) -> Option<&BTreeMap<String, u64>> {
        self.row_counts.value.get(db)
    }

    /// The expected row count of one table, matched case-insensitively.
    pub fn expected_rows_for(&self, db: &str, table: &str) -> Option<u64> {
        get_ci(self.expected_rows(db)?, table).map(|(_, rows)| *rows)
    }

    /// The `model_eval_keys.json` entry of a model.
    pub fn eval_key(&self, db: &str, model: &str) -> Option<&EvalKey> {
        self.eval_keys
            .value
            .get(db)
            .and_then(|keys| get_ci(keys, model))
            .map(|(_, key)| key)
    }

    /// `gt/<db>/<model>.csv`, if it exists.
    pub fn ground_truth_path(&self, db: &str, model: &str) -> Option<PathBuf> {
        find_file_ci(&self.root.join("gt").join(db), model, "csv")
    }

    /// The parsed ground truth of a model (`None`: no file).
    pub fn ground_truth(&self, db: &str, model: &str) -> Result<Option<GroundTruth>, SuiteError> {
        self.ground_truth_path(db, model)
            .map(|path| GroundTruth::read(&path))
            .transpose()
    }

    /// The `gt/_meta.json` entry of a model.
    pub fn gt_meta(&self, db: &str, model: &str) -> Option<&GtMeta> {
        self.gt_meta
            .value
            .get(db)
            .and_then(|models| get_ci(models, model))
            .map(|(_, meta)| meta)
    }

    /// `data/<db>/<table>.csv` (table matched case-insensitively), if it exists.
    pub fn data_path(&self, db: &str, table: &str) -> Option<PathBuf> {
        find_file_ci(&self.root.join("data").join(db), table, "csv")
    }

    /// `gold/<db>/`, if it exists.
    pub fn gold_dir(&self, db: &str) -> Option<PathBuf> {
        Some(self.root.join("gold").join(db)).filter(|dir| dir.is_dir())
    }
}

fn load_tasks(
    tasks_dir: &Path,
    problems: &mut Vec<Problem>,
) -> Result<BTreeMap<String, Task>, SuiteError> {
    let mut tasks = BTreeMap::new();
    for (db, dir) in list_dir(tasks_dir)? {
        if !dir.is_dir() {
            problems.push(Problem::warning(
                &dir,
                None,
                "not a task directory; ignored",
            ));
            continue;
        }
        let (task, found) = Task::load(&db, &dir);
        problems.extend(found);
        if let Some(task) = task {
            tasks.insert(db, task);
        }
    }
    Ok(tasks)
}

type Parser<T> = fn(&str, &Path) -> Result<T, SuiteError>;

fn load_json<T: Default>(
    path: &Path,
    parse: Parser<T>,
    problems: &mut Vec<Problem>,
) -> JsonFile<T> {
    let loaded = read_text(path).and_then(|text| Ok((parse(&text, path)?, text)));
    match loaded {
        Ok((value, text)) => JsonFile {
            path: path.to_path_buf(),
            text,
            value,
        },
        Err(err) => {
            problems.push(err.into());
            JsonFile {
                path: path.to_path_buf(),
                ..JsonFile::default()
            }
        }
    }
}

fn load_gt_meta(path: &Path, problems: &mut Vec<Problem>) -> JsonFile<GtMetas> {
    if !path.exists() {
        return JsonFile {
            path: path.to_path_buf(),
            ..JsonFile::default()
        };
    }
    load_json(path, eval::parse_gt_meta, problems)
}
