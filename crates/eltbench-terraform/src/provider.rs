//! The `provider "airbyte"` settings of a configuration directory (`server_url`,
//! `username`, `password`, `bearer_auth`), evaluated with the directory's variables
//! and locals as `plan`/`apply` evaluate them. Used by tools that talk to the same
//! API as the configuration (`eltbench airbyte wait`); it never contacts the API.

use std::collections::BTreeMap;
use std::path::Path;

use crate::diagnostics::Diagnostic;
use crate::eval::Scope;

/// The evaluated arguments of the `provider "airbyte"` block (absent: `None`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderSettings {
    pub server_url: Option<String>,
    pub username: Option<String>,
    pub password: Option<String>,
    pub bearer_auth: Option<String>,
}

/// Reads the `.tf` files of `dir`; `env` supplies `TF_VAR_*` values. `Err` holds the
/// first error (with file and line) or says that no `provider "airbyte"` block exists.
pub fn provider_settings(
    dir: &Path,
    env: &BTreeMap<String, String>,
) -> Result<ProviderSettings, String> {
    let (module, diags) = crate::config::load(dir);
    first_error(&diags)?;
    let Some(block) = module.providers.iter().find(|p| p.labels[0] == "airbyte") else {
        return Err(format!(
            "No `provider \"airbyte\"` block in the .tf files of {}",
            dir.display()
        ));
    };
    let (vars, diags) = crate::vars::resolve(&module, dir, &[], env);
    first_error(&diags)?;
    let mut scope = Scope {
        vars,
        ..Scope::default()
    };
    let mut diags = Vec::new();
    crate::vars::eval_locals(&module, &mut scope, &mut diags);
    first_error(&diags)?;
    let get = |name: &str| -> Result<Option<String>, String> {
        match block.body.attribute(name) {
            None => Ok(None),
            Some(a) => scope
                .eval(&a.expr)
                .map(|v| v.to_string_lossy())
                .map_err(|d| describe(&d)),
        }
    };
    Ok(ProviderSettings {
        server_url: get("server_url")?,
        username: get("username")?,
        password: get("password")?,
        bearer_auth: get("bearer_auth")?,
    })
}

fn first_error(diags: &[Diagnostic]) -> Result<(), String> {
    match diags.iter().find(|d| d.is_error()) {
        Some(d) => Err(describe(d)),
        None => Ok(()),
    }
}

fn describe(d: &Diagnostic) -> String {
    let place = d
        .subject
        .as_ref()
        .map(|s| format!(" ({}:{})", s.file, s.start.line))
        .unwrap_or_default();
    format!("{}: {}{place}", d.summary, d.detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_url_is_evaluated_with_variables() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("main.tf"),
            "variable \"port\" {\n  default = 8123\n}\n\nprovider \"airbyte\" {\n  server_url = \"http://127.0.0.1:${var.port}/v1\"\n  username   = \"airbyte\"\n}\n",
        )
        .unwrap();
        let settings = provider_settings(dir.path(), &BTreeMap::new()).unwrap();
        assert_eq!(
            settings.server_url.as_deref(),
            Some("http://127.0.0.1:8123/v1")
        );
        assert_eq!(settings.username.as_deref(), Some("airbyte"));
        assert_eq!(settings.password, None);
        let env = BTreeMap::from([("TF_VAR_port".to_owned(), "9".to_owned())]);
        let settings = provider_settings(dir.path(), &env).unwrap();
        assert_eq!(
            settings.server_url.as_deref(),
            Some("http://127.0.0.1:9/v1")
        );
    }

    #[test]
    fn a_directory_without_the_provider_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.tf"), "locals {\n  a = 1\n}\n").unwrap();
        let err = provider_settings(dir.path(), &BTreeMap::new()).unwrap_err();
        assert!(err.contains("No `provider \"airbyte\"` block"), "{err}");
    }
}
