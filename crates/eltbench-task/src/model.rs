//! `data_model.yaml`: the target data models of a task.
//!
//! Parsing is lenient where the original is quirky (one model spells
//! `description` as `descrption`; it is read, with a warning) and strict
//! where a value has the wrong shape (an error with the line). This module
//! never checks models against eval keys or ground truth: validation does.

use std::path::Path;

use serde::Deserialize;

use crate::error::yaml_error;
use crate::{Problem, SuiteError, lines};

/// One column of a target data model.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ModelColumn {
    /// Column name.
    pub name: String,
    /// Its description (may be empty).
    pub description: String,
}

/// One target data model of `data_model.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DataModel {
    /// Model (table) name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// Its columns in order.
    pub columns: Vec<ModelColumn>,
}

impl DataModel {
    /// A column by name, case-insensitively (the original compared
    /// upper-cased Snowflake names).
    pub fn column(&self, name: &str) -> Option<&ModelColumn> {
        self.columns.iter().find(|c| c.name == name).or_else(|| {
            self.columns
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(name))
        })
    }
}

#[derive(Deserialize)]
struct RawFile {
    models: Vec<RawModel>,
}

#[derive(Deserialize)]
struct RawModel {
    name: String,
    #[serde(default, alias = "descrption")]
    description: Option<String>,
    #[serde(default)]
    columns: Option<Vec<RawColumn>>,
}

#[derive(Deserialize)]
struct RawColumn {
    name: String,
    #[serde(default)]
    description: Option<String>,
}

const MODEL_KEYS: [&str; 3] = ["name", "description", "columns"];
const COLUMN_KEYS: [&str; 2] = ["name", "description"];

/// Parses the text of `data_model.yaml`: the models and warnings about keys
/// the format does not have.
pub(crate) fn parse(text: &str, path: &Path) -> Result<(Vec<DataModel>, Vec<Problem>), SuiteError> {
    let raw: RawFile = serde_yaml::from_str(text).map_err(|e| yaml_error(path, &e))?;
    let value: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| yaml_error(path, &e))?;
    let models = raw.models.into_iter().map(into_model).collect();
    Ok((models, unknown_keys(&value, text, path)))
}

fn into_model(raw: RawModel) -> DataModel {
    let columns = raw.columns.unwrap_or_default().into_iter();
    DataModel {
        name: raw.name,
        description: raw.description.unwrap_or_default(),
        columns: columns
            .map(|c| ModelColumn {
                name: c.name,
                description: c.description.unwrap_or_default(),
            })
            .collect(),
    }
}

/// Warnings for keys of models and columns the format does not define.
fn unknown_keys(value: &serde_yaml::Value, text: &str, path: &Path) -> Vec<Problem> {
    let mut found = Vec::new();
    let Some(models) = value.get("models").and_then(|m| m.as_sequence()) else {
        return found;
    };
    for model in models {
        let name = model.get("name").and_then(|n| n.as_str()).unwrap_or("?");
        let from = lines::yaml_entry(text, &["name"], name, 1, 0).unwrap_or(1);
        for key in foreign_keys(model, &MODEL_KEYS) {
            found.push(key_warning(
                text,
                path,
                from,
                &key,
                &format!("model `{name}`"),
            ));
        }
        let columns = model
            .get("columns")
            .and_then(|c| c.as_sequence())
            .into_iter()
            .flatten();
        for column in columns {
            let column_name = column.get("name").and_then(|n| n.as_str()).unwrap_or("?");
            for key in foreign_keys(column, &COLUMN_KEYS) {
                let what = format!("column `{column_name}` of model `{name}`");
                found.push(key_warning(text, path, from, &key, &what));
            }
        }
    }
    found
}

fn foreign_keys(map: &serde_yaml::Value, known: &[&str]) -> Vec<String> {
    let Some(map) = map.as_mapping() else {
        return Vec::new();
    };
    map.keys()
        .filter_map(|k| k.as_str())
        .filter(|k| !known.contains(k))
        .map(str::to_owned)
        .collect()
}

fn key_warning(text: &str, path: &Path, from: usize, key: &str, what: &str) -> Problem {
    let line = lines::yaml_key(text, key, from);
    let message = if key == "descrption" {
        format!("{what} spells `description` as `descrption`; read as its description")
    } else {
        format!("{what} has unknown key `{key}` (ignored)")
    };
    Problem::warning(path, line, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_models_in_order_with_columns() {
        let text = "models:\n  - name: m\n    description: d\n    columns:\n      - name: a\n        description: x\n      - name: b\n";
        let (models, warnings) = parse(text, Path::new("dm.yaml")).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(models[0].name, "m");
        assert_eq!(
            models[0]
                .columns
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(models[0].columns[1].description, "");
        assert_eq!(models[0].column("A").map(|c| c.name.as_str()), Some("a"));
    }

    #[test]
    fn the_descrption_typo_is_read_with_a_warning_on_its_line() {
        let text = "models:\n  - name: posts\n    descrption: Each post.\n    columns:\n      - name: id\n        colour: red\n";
        let (models, warnings) = parse(text, Path::new("dm.yaml")).unwrap();
        assert_eq!(models[0].description, "Each post.");
        let shown: Vec<_> = warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "dm.yaml:3: warning: model `posts` spells `description` as `descrption`; read as its description",
                "dm.yaml:6: warning: column `id` of model `posts` has unknown key `colour` (ignored)",
            ]
        );
    }

    #[test]
    fn a_model_without_columns_parses_for_validation_to_report() {
        let (models, _) = parse("models:\n  - name: m\n", Path::new("dm.yaml")).unwrap();
        assert!(models[0].columns.is_empty());
    }

    #[test]
    fn a_model_without_a_name_is_an_error_with_a_line() {
        let err = parse("models:\n  - description: x\n", Path::new("dm.yaml")).unwrap_err();
        assert!(err.to_string().starts_with("dm.yaml:2:"), "{err}");
    }
}
