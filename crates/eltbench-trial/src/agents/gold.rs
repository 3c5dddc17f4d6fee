//! The gold `elt/main.tf` of a task for one trial: `<suite>/gold/<db>/elt/main.tf`
//! with its tokens substituted (`{{airbyte_url}}`, `{{warehouse_path}}`,
//! `{{config.<dotted.path>}}` from the workspace's `config.yaml`), else the one
//! `eltbench_harness::oracle::gold_main_tf` generates from that config.
//! Pure text; never reads ground truth.

use std::path::Path;

use eltbench_task::Suite;
use serde_yaml::Value;

use crate::{Workspace, lookup};

/// The gold `main.tf` for the trial's workspace.
pub fn gold_main_tf(suite: &Suite, db: &str, ws: &Workspace) -> Result<String, String> {
    let config_path = ws.config();
    let config = std::fs::read_to_string(&config_path)
        .map_err(|e| format!("{}: {e}", config_path.display()))?;
    let gold = suite.root().join("gold").join(db).join("elt/main.tf");
    if gold.is_file() {
        let text =
            std::fs::read_to_string(&gold).map_err(|e| format!("{}: {e}", gold.display()))?;
        let doc: Value =
            serde_yaml::from_str(&config).map_err(|e| format!("{}: {e}", config_path.display()))?;
        return substitute_tokens(&text, &ws.airbyte_url, &ws.warehouse, &doc)
            .map_err(|e| format!("{}: {e}", gold.display()));
    }
    eltbench_harness::oracle::gold_main_tf(&config, &config_path, &ws.warehouse, &ws.airbyte_url)
        .map_err(|e| e.to_string())
}

/// `text` with every `{{token}}` replaced; an unknown token is an error.
pub fn substitute_tokens(
    text: &str,
    airbyte_url: &str,
    warehouse: &Path,
    config: &Value,
) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find("}}")
            .ok_or_else(|| "unterminated `{{` token".to_owned())?;
        let token = after[..end].trim();
        out.push_str(&token_value(token, airbyte_url, warehouse, config)?);
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

fn token_value(
    token: &str,
    airbyte_url: &str,
    warehouse: &Path,
    config: &Value,
) -> Result<String, String> {
    match token {
        "airbyte_url" => Ok(airbyte_url.to_owned()),
        "warehouse_path" => Ok(warehouse.to_string_lossy().into_owned()),
        _ => match token.strip_prefix("config.") {
            Some(path) => lookup(config, path)
                .ok_or_else(|| format!("`{{{{{token}}}}}`: no scalar `{path}` in config.yaml")),
            None => Err(format!("unknown token `{{{{{token}}}}}`")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_substituted_and_unknown_ones_rejected() {
        let config: Value = serde_yaml::from_str("postgres:\n  config:\n    port: 5433\n").unwrap();
        let text = "url = \"{{airbyte_url}}\"\npath = \"{{ warehouse_path }}\"\nport = {{config.postgres.config.port}}\n";
        let out =
            substitute_tokens(text, "http://a/v1", Path::new("/w/x.duckdb"), &config).unwrap();
        assert_eq!(
            out,
            "url = \"http://a/v1\"\npath = \"/w/x.duckdb\"\nport = 5433\n"
        );
        let err = substitute_tokens("{{nope}}", "", Path::new(""), &config).unwrap_err();
        assert!(err.contains("unknown token `{{nope}}`"), "{err}");
        let err = substitute_tokens("{{config.x.y}}", "", Path::new(""), &config).unwrap_err();
        assert!(err.contains("no scalar `x.y`"), "{err}");
        assert!(substitute_tokens("{{airbyte_url", "", Path::new(""), &config).is_err());
    }
}
