//! The agent's workspace, laid out like the original agent input:
//!
//! ```text
//! workspace/config.yaml          local endpoints, `duckdb:` destination, Airbyte URL + credentials
//! workspace/data_model.yaml      the task's data models
//! workspace/schemas/             the source tables' schemas
//! workspace/documentation/       docs/agent/*.md
//! workspace/elt/main.tf          the provider block only
//! workspace/check_job_status     waits for the sync jobs (`eltbench airbyte wait --dir elt`)
//! workspace/dbt/                 the dbt project (models land in <db>.airbyte_schema)
//! workspace/bin/                 terraform (-> eltbench), eltbench, dbt; first on PATH
//! ```
//!
//! The warehouse file lives outside: `<trial>/warehouse/<db>.duckdb`. This
//! module writes files only; it starts nothing.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use eltbench_dbt::DbtToolchain;
use eltbench_task::Task;

use crate::config::{Destination, workspace_config};
use crate::{TrialError, docs};

/// Where the parts of a workspace are.
#[derive(Debug, Clone)]
pub struct Workspace {
    pub root: PathBuf,
    pub warehouse: PathBuf,
    pub airbyte_url: String,
}

impl Workspace {
    /// `elt/`.
    pub fn elt(&self) -> PathBuf {
        self.root.join("elt")
    }

    /// `dbt/`.
    pub fn dbt(&self) -> PathBuf {
        self.root.join("dbt")
    }

    /// `bin/`.
    pub fn bin(&self) -> PathBuf {
        self.root.join("bin")
    }

    /// `config.yaml`.
    pub fn config(&self) -> PathBuf {
        self.root.join("config.yaml")
    }

    /// The variables every agent command gets on top of its environment:
    /// `PATH` with `bin/` and the dbt virtualenv first, dbt's settings.
    pub fn command_env(&self, dbt: &DbtToolchain) -> BTreeMap<String, String> {
        let mut dirs = vec![self.bin(), dbt.bin_dir()];
        if let Some(path) = std::env::var_os("PATH") {
            dirs.extend(std::env::split_paths(&path));
        }
        let path = std::env::join_paths(dirs)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = |p: &Path| p.to_string_lossy().into_owned();
        BTreeMap::from([
            ("PATH".to_owned(), path),
            ("VIRTUAL_ENV".to_owned(), text(dbt.venv_dir())),
            ("DBT_SEND_ANONYMOUS_USAGE_STATS".to_owned(), "false".into()),
            ("DBT_PROFILES_DIR".to_owned(), text(&self.dbt())),
        ])
    }
}

/// What a workspace is built from.
pub struct Inputs<'a> {
    pub task: &'a Task,
    /// The environment's rewritten `config.yaml` text.
    pub env_config: &'a str,
    pub env_config_path: &'a Path,
    pub warehouse: &'a Path,
    pub airbyte_url: &'a str,
    /// The eltbench executable (`terraform` and `eltbench` point at it).
    pub eltbench_bin: &'a Path,
    pub dbt: &'a DbtToolchain,
}

/// Writes the workspace into `root` (created).
pub fn build(root: &Path, inputs: &Inputs<'_>) -> Result<Workspace, TrialError> {
    let ws = Workspace {
        root: root.to_path_buf(),
        warehouse: inputs.warehouse.to_path_buf(),
        airbyte_url: inputs.airbyte_url.to_owned(),
    };
    for dir in [
        ws.root.clone(),
        ws.elt(),
        ws.bin(),
        root.join("documentation"),
    ] {
        mkdir(&dir)?;
    }
    write_config(&ws, inputs)?;
    copy(
        &inputs.task.dir.join("data_model.yaml"),
        &root.join("data_model.yaml"),
    )?;
    copy_dir(&inputs.task.dir.join("schemas"), &root.join("schemas"))?;
    for (name, text) in docs::PAGES {
        write(&root.join("documentation").join(name), text)?;
    }
    write(&ws.elt().join("main.tf"), &provider_tf(inputs.airbyte_url))?;
    write_executable(&root.join("check_job_status"), CHECK_JOB_STATUS)?;
    eltbench_dbt::write_project(&ws.dbt(), &inputs.task.db, inputs.warehouse).map_err(|e| {
        TrialError::Dbt {
            path: ws.dbt(),
            message: e.to_string(),
        }
    })?;
    link(inputs.eltbench_bin, &ws.bin().join("terraform"))?;
    link(inputs.eltbench_bin, &ws.bin().join("eltbench"))?;
    link(&inputs.dbt.dbt_bin(), &ws.bin().join("dbt"))?;
    Ok(ws)
}

fn write_config(ws: &Workspace, inputs: &Inputs<'_>) -> Result<(), TrialError> {
    let dest = Destination {
        db: &inputs.task.db,
        warehouse: inputs.warehouse,
        airbyte_url: inputs.airbyte_url,
    };
    let text =
        workspace_config(inputs.env_config, &dest).map_err(|message| TrialError::Config {
            path: inputs.env_config_path.to_path_buf(),
            message,
        })?;
    write(&ws.config(), &text)
}

/// `elt/main.tf` as the agent finds it: the provider and nothing else.
pub fn provider_tf(airbyte_url: &str) -> String {
    format!(
        "terraform {{\n  required_providers {{\n    airbyte = {{\n      source  = \"airbytehq/airbyte\"\n      \
         version = \"0.6.5\"\n    }}\n  }}\n}}\n\nprovider \"airbyte\" {{\n  server_url = \"{airbyte_url}\"\n  \
         username   = \"{}\"\n  password   = \"{}\"\n}}\n",
        eltbench_airbyte::DEFAULT_USERNAME,
        eltbench_airbyte::DEFAULT_PASSWORD
    )
}

const CHECK_JOB_STATUS: &str = "#!/bin/sh
# Waits until the latest sync job of every connection in elt/terraform.tfstate has
# finished; prints one line per connection. Exit 0: all succeeded, 1: one failed,
# 124: timeout. Options: --timeout 30m (see `eltbench airbyte wait --help`).
here=$(CDPATH= cd -- \"$(dirname -- \"$0\")\" && pwd) || exit 2
exec \"$here/bin/eltbench\" airbyte wait --dir \"$here/elt\" \"$@\"
";

fn mkdir(dir: &Path) -> Result<(), TrialError> {
    std::fs::create_dir_all(dir).map_err(|e| TrialError::io(dir, e))
}

fn write(path: &Path, text: &str) -> Result<(), TrialError> {
    std::fs::write(path, text).map_err(|e| TrialError::io(path, e))
}

fn write_executable(path: &Path, text: &str) -> Result<(), TrialError> {
    write(path, text)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| TrialError::io(path, e))
}

fn copy(from: &Path, to: &Path) -> Result<(), TrialError> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| TrialError::io(from, e))
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), TrialError> {
    mkdir(to)?;
    let entries = std::fs::read_dir(from).map_err(|e| TrialError::io(from, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| TrialError::io(from, e))?;
        if entry.path().is_file() {
            copy(&entry.path(), &to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

fn link(target: &Path, link: &Path) -> Result<(), TrialError> {
    std::os::unix::fs::symlink(target, link).map_err(|e| TrialError::io(link, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_tf_names_the_server_and_no_resource() {
        let text = provider_tf("http://127.0.0.1:5/api/public/v1");
        assert!(text.contains("server_url = \"http://127.0.0.1:5/api/public/v1\""));
        assert!(!text.contains("resource"));
    }
}
