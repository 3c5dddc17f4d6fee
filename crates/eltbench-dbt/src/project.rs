//! The dbt project skeleton of a task workspace: `dbt_project.yml` named after
//! the task's database, `profiles.yml` with a dbt-duckdb target on the task's
//! warehouse file (schema `airbyte_schema`, one thread), an empty `models/`, and a
//! `generate_schema_name` macro so a model file `models/foo.sql` lands in
//! `<db>.airbyte_schema.foo` even when a config sets `+schema: airbyte_schema`.
//!
//! Writes the three configuration files it owns; never touches files in `models/`.

use std::path::Path;

use serde::Serialize;

use crate::DbtError;

/// The schema models land in (and where extract-load puts the source tables).
pub const DEFAULT_SCHEMA: &str = "airbyte_schema";

/// dbt's default prepends the target schema to a custom one
/// (`airbyte_schema_airbyte_schema`); this one uses a custom schema as given.
const SCHEMA_MACRO: &str = "\
{#- Written by eltbench. dbt's default would prefix a model's custom schema with the
    target schema (`+schema: airbyte_schema` would land in airbyte_schema_airbyte_schema).
    Here a custom schema is used as given, and models without one land in the target
    schema from profiles.yml (airbyte_schema). -#}
{% macro generate_schema_name(custom_schema_name, node) -%}
    {%- if custom_schema_name is none -%}
        {{ target.schema }}
    {%- else -%}
        {{ custom_schema_name | trim }}
    {%- endif -%}
{%- endmacro %}
";

#[derive(Serialize)]
struct ProjectFile<'a> {
    name: &'a str,
    version: &'a str,
    profile: &'a str,
    #[serde(rename = "model-paths")]
    model_paths: [&'a str; 1],
    #[serde(rename = "macro-paths")]
    macro_paths: [&'a str; 1],
    #[serde(rename = "target-path")]
    target_path: &'a str,
    #[serde(rename = "clean-targets")]
    clean_targets: [&'a str; 1],
}

#[derive(Serialize)]
struct Output<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    path: &'a str,
    schema: &'a str,
    threads: u32,
}

#[derive(Serialize)]
struct Profile<'a> {
    target: &'a str,
    outputs: std::collections::BTreeMap<&'a str, Output<'a>>,
}

/// A valid dbt project and profile name for a database name: lower case, other
/// characters than letters, digits and `_` become `_`, a leading digit gets `_`.
pub fn project_name(db: &str) -> String {
    let mut name: String = db
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    name
}

/// Writes the dbt project skeleton for database `db` into `dir` (created if
/// needed). `warehouse` must be named `<db>.duckdb`: dbt-duckdb names the
/// catalog after the file stem.
pub fn write_project(dir: &Path, db: &str, warehouse: &Path) -> Result<(), DbtError> {
    if warehouse.file_stem().and_then(|s| s.to_str()) != Some(db) {
        return Err(DbtError::WarehouseName {
            path: warehouse.to_path_buf(),
            db: db.to_owned(),
        });
    }
    let warehouse =
        std::path::absolute(warehouse).map_err(DbtError::io("cannot resolve", warehouse))?;
    let name = project_name(db);
    for sub in ["models", "macros"] {
        let path = dir.join(sub);
        std::fs::create_dir_all(&path).map_err(DbtError::io("cannot create", &path))?;
    }
    write(&dir.join("dbt_project.yml"), &project_yaml(&name)?)?;
    write(
        &dir.join("profiles.yml"),
        &profiles_yaml(&name, db, &warehouse)?,
    )?;
    write(&dir.join("macros/generate_schema_name.sql"), SCHEMA_MACRO)
}

fn write(path: &Path, text: &str) -> Result<(), DbtError> {
    std::fs::write(path, text).map_err(DbtError::io("cannot write", path))
}

fn yaml(value: &impl Serialize, file: &str) -> Result<String, DbtError> {
    serde_yaml::to_string(value).map_err(|e| DbtError::Yaml {
        path: file.into(),
        message: e.to_string(),
    })
}

fn project_yaml(name: &str) -> Result<String, DbtError> {
    let body = yaml(
        &ProjectFile {
            name,
            version: "1.0.0",
            profile: name,
            model_paths: ["models"],
            macro_paths: ["macros"],
            target_path: "target",
            clean_targets: ["target"],
        },
        "dbt_project.yml",
    )?;
    Ok(format!(
        "# dbt project of this task (written by eltbench). Every .sql file under models/\n\
         # becomes a view (dbt's default) or, with {{{{ config(materialized='table') }}}}, a table\n\
         # in the schema airbyte_schema.\n{body}"
    ))
}

fn profiles_yaml(name: &str, db: &str, warehouse: &Path) -> Result<String, DbtError> {
    let path = warehouse.to_string_lossy();
    let output = Output {
        kind: "duckdb",
        path: &path,
        schema: DEFAULT_SCHEMA,
        threads: 1,
    };
    let profile = Profile {
        target: "dev",
        outputs: [("dev", output)].into_iter().collect(),
    };
    let body = yaml(
        &[(name, profile)]
            .into_iter()
            .collect::<std::collections::BTreeMap<_, _>>(),
        "profiles.yml",
    )?;
    Ok(format!(
        "# dbt-duckdb profile (written by eltbench). The catalog is named after the file\n\
         # stem, so a model models/foo.sql lands in {db}.{DEFAULT_SCHEMA}.foo.\n{body}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_dbt_identifiers() {
        assert_eq!(project_name("bike_share_1"), "bike_share_1");
        assert_eq!(project_name("App-Store"), "app_store");
        assert_eq!(project_name("3d"), "_3d");
    }

    #[test]
    fn writes_profile_on_the_warehouse_file() {
        let dir = tempfile::tempdir().unwrap();
        let warehouse = dir.path().join("it's").join("shop.duckdb");
        write_project(dir.path(), "shop", &warehouse).unwrap();
        let profiles = std::fs::read_to_string(dir.path().join("profiles.yml")).unwrap();
        let parsed: serde_yaml::Value = serde_yaml::from_str(&profiles).unwrap();
        let dev = &parsed["shop"]["outputs"]["dev"];
        assert_eq!(parsed["shop"]["target"], "dev");
        assert_eq!(dev["type"], "duckdb");
        assert_eq!(dev["path"].as_str(), warehouse.to_str());
        assert_eq!(dev["schema"], "airbyte_schema");
        assert_eq!(dev["threads"], 1);
        let project: serde_yaml::Value = serde_yaml::from_str(
            &std::fs::read_to_string(dir.path().join("dbt_project.yml")).unwrap(),
        )
        .unwrap();
        assert_eq!(project["name"], "shop");
        assert_eq!(project["profile"], "shop");
        assert!(dir.path().join("models").is_dir());
        assert!(dir.path().join("macros/generate_schema_name.sql").is_file());
    }

    #[test]
    fn keeps_existing_models() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("models")).unwrap();
        std::fs::write(dir.path().join("models/a.sql"), "select 1").unwrap();
        write_project(dir.path(), "shop", &dir.path().join("shop.duckdb")).unwrap();
        let kept = std::fs::read_to_string(dir.path().join("models/a.sql")).unwrap();
        assert_eq!(kept, "select 1");
    }

    #[test]
    fn warehouse_must_be_named_after_the_database() {
        let dir = tempfile::tempdir().unwrap();
        let err =
            write_project(dir.path(), "shop", &dir.path().join("warehouse.duckdb")).unwrap_err();
        assert!(
            err.to_string().contains("must be named shop.duckdb"),
            "{err}"
        );
    }
}
