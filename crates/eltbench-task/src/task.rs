//! One task: `tasks/<db>/{config.yaml, data_model.yaml, schemas/*.csv}`.
//!
//! Loading collects every problem it meets instead of stopping at the first;
//! a task whose config or data model cannot be parsed is left out. Lookups
//! by table name are case-insensitive, as the original (upper-casing on
//! Snowflake) was. Nothing here reads `data/` or `gt/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::error::read_text;
use crate::source::{SourceKind, SourceTable};
use crate::{DataModel, Problem, SuiteError, TableSchema, TaskConfig, model, schema};

/// One task of a suite.
#[derive(Debug, Clone)]
pub struct Task {
    /// The database name (the directory name).
    pub db: String,
    /// `tasks/<db>/`.
    pub dir: PathBuf,
    /// `config.yaml`.
    pub config: TaskConfig,
    /// `data_model.yaml`, in file order.
    pub models: Vec<DataModel>,
    /// `schemas/<table>.csv` by file stem (case as on disk).
    pub schemas: BTreeMap<String, TableSchema>,
    /// File texts, kept to locate lines for validation.
    pub(crate) texts: TaskTexts,
}

/// The texts of the task's YAML files.
#[derive(Debug, Clone, Default)]
pub(crate) struct TaskTexts {
    pub config: String,
    pub data_model: String,
}

impl Task {
    /// Every source table, block by block in [`SourceKind::ALL`] order,
    /// file order within a block.
    pub fn source_tables(&self) -> Vec<SourceTable> {
        let blocks = self.config.sources();
        let tables = blocks
            .iter()
            .flat_map(|b| b.tables().into_iter().map(|t| (b.kind(), t)));
        tables
            .map(|(kind, name)| SourceTable {
                name: name.to_owned(),
                kind,
            })
            .collect()
    }

    /// The source kinds the task uses.
    pub fn source_kinds(&self) -> BTreeSet<SourceKind> {
        self.config.sources().iter().map(|b| b.kind()).collect()
    }

    /// A data model by name.
    pub fn model(&self, name: &str) -> Option<&DataModel> {
        self.models.iter().find(|m| m.name == name).or_else(|| {
            self.models
                .iter()
                .find(|m| m.name.eq_ignore_ascii_case(name))
        })
    }

    /// The schema of a source table, matched case-insensitively.
    pub fn schema(&self, table: &str) -> Option<&TableSchema> {
        crate::names::get_ci(&self.schemas, table).map(|(_, s)| s)
    }

    /// `tasks/<db>/config.yaml`.
    pub fn config_path(&self) -> PathBuf {
        self.dir.join("config.yaml")
    }

    /// `tasks/<db>/data_model.yaml`.
    pub fn data_model_path(&self) -> PathBuf {
        self.dir.join("data_model.yaml")
    }

    /// Loads `tasks/<db>/`: the task (unless its YAML is broken) and every
    /// problem met on the way.
    pub(crate) fn load(db: &str, dir: &Path) -> (Option<Task>, Vec<Problem>) {
        let mut problems = Vec::new();
        let config_path = dir.join("config.yaml");
        let config = read_text(&config_path)
            .and_then(|text| Ok((TaskConfig::parse(&text, &config_path)?, text)));
        let model_path = dir.join("data_model.yaml");
        let models =
            read_text(&model_path).and_then(|text| Ok((model::parse(&text, &model_path)?, text)));
        let schemas = load_schemas(&dir.join("schemas"), &mut problems);
        let ((config, config_text), ((models, model_warnings), model_text)) = match (config, models)
        {
            (Ok(config), Ok(models)) => (config, models),
            (config, models) => {
                problems.extend(
                    config
                        .err()
                        .into_iter()
                        .chain(models.err())
                        .map(missing_or_problem),
                );
                return (None, problems);
            }
        };
        problems.extend(model_warnings);
        let texts = TaskTexts {
            config: config_text,
            data_model: model_text,
        };
        let task = Task {
            db: db.to_owned(),
            dir: dir.to_path_buf(),
            config,
            models,
            schemas,
            texts,
        };
        (Some(task), problems)
    }
}

fn missing_or_problem(err: SuiteError) -> Problem {
    match err {
        SuiteError::Io { path, source } if source.kind() == std::io::ErrorKind::NotFound => {
            Problem::error(
                &path,
                None,
                "missing: every task needs config.yaml and data_model.yaml",
            )
        }
        err => err.into(),
    }
}

fn load_schemas(dir: &Path, problems: &mut Vec<Problem>) -> BTreeMap<String, TableSchema> {
    let mut schemas = BTreeMap::new();
    let entries = match crate::names::list_dir(dir) {
        Ok(entries) => entries,
        Err(err) => {
            problems.push(missing_or_problem(err));
            return schemas;
        }
    };
    for (name, path) in entries {
        let Some(table) = name.strip_suffix(".csv") else {
            problems.push(Problem::warning(
                &path,
                None,
                "not a schema file (expected `<table>.csv`); ignored",
            ));
            continue;
        };
        match read_text(&path).and_then(|text| schema::parse(&text, &path)) {
            Ok((schema, found)) => {
                problems.extend(found);
                schemas.insert(table.to_owned(), schema);
            }
            Err(err) => problems.push(err.into()),
        }
    }
    schemas
}
