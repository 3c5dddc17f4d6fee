//! [`Suite::validate`]: every problem of a suite, each with file and line.
//!
//! Errors are what makes a task unusable (it cannot be run or scored as
//! defined); warnings are quirks eltbench handles (mostly the original's
//! inconsistent name case) that a suite author should know about.
//! Validation reads the ground-truth files (to check they parse) and the
//! file names under `data/`, never data contents, and never changes the suite.

mod ground_truth;
mod models;
mod orphans;
mod tables;

use std::path::Path;

use crate::{Problem, SourceKind, Suite, Task, lines};

impl Suite {
    /// Every problem: those met while loading, then the checks of each
    /// task and of the suite-wide files; sorted by file and line.
    pub fn validate(&self) -> Vec<Problem> {
        let mut problems = self.load_problems.clone();
        for task in self.tasks() {
            let mut check = Check {
                suite: self,
                task,
                out: &mut problems,
            };
            tables::check(&mut check);
            models::check(&mut check);
            ground_truth::check(&mut check);
        }
        orphans::check(self, &mut problems);
        problems.sort();
        problems.dedup();
        problems
    }
}

/// The state of checking one task.
pub(crate) struct Check<'a> {
    pub suite: &'a Suite,
    pub task: &'a Task,
    pub out: &'a mut Vec<Problem>,
}

impl Check<'_> {
    fn error(&mut self, path: &Path, line: Option<usize>, message: String) {
        self.out.push(Problem::error(path, line, message));
    }

    fn warning(&mut self, path: &Path, line: Option<usize>, message: String) {
        self.out.push(Problem::warning(path, line, message));
    }

    /// The line of the `nth` occurrence of `table` in the `kind` block of
    /// `config.yaml` (blocks are top-level keys, so the search starts there).
    fn table_line(&self, kind: SourceKind, table: &str, nth: usize) -> Option<usize> {
        let text = &self.task.texts.config;
        let from = lines::yaml_top_key(text, kind.config_key()).unwrap_or(1);
        lines::yaml_entry(text, &["table"], table, from, nth)
    }

    /// The line of the `nth` model named `model` in `data_model.yaml`.
    fn model_line(&self, model: &str, nth: usize) -> Option<usize> {
        lines::yaml_entry(&self.task.texts.data_model, &["name"], model, 1, nth)
    }

    /// The line of `"db": { ... "key"` in a suite JSON file's text.
    fn json_line(text: &str, db: &str, key: &str) -> Option<usize> {
        lines::json_key(text, &[db, key])
    }
}

#[cfg(test)]
mod tests;
