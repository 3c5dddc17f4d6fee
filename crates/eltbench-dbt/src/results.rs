//! `target/run_results.json` as dbt writes it after `run`, `build`, `test`,
//! `seed` or `snapshot`: one [`NodeResult`] per node with its status and
//! message, sorted by unique id.
//!
//! Reading only; the classification of messages lives in `outcome`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::DbtError;
use crate::outcome::{ErrorKind, classify_node_message};

/// A node's status as dbt reports it (run, test and freshness statuses).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeStatus {
    Success,
    Error,
    Skipped,
    Pass,
    Fail,
    Warn,
    NoOp,
    PartialSuccess,
    /// A status this version of eltbench does not know, as dbt spelled it.
    Other(String),
}

impl NodeStatus {
    fn parse(raw: &str) -> Self {
        match raw {
            "success" => Self::Success,
            "error" | "runtime error" => Self::Error,
            "skipped" => Self::Skipped,
            "pass" => Self::Pass,
            "fail" => Self::Fail,
            "warn" => Self::Warn,
            "no-op" => Self::NoOp,
            "partial success" => Self::PartialSuccess,
            other => Self::Other(other.to_owned()),
        }
    }

    /// Whether the node itself failed (not skipped because of another).
    pub fn is_error(&self) -> bool {
        matches!(self, Self::Error | Self::Fail)
    }
}

/// One node of `run_results.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeResult {
    /// `model.<project>.<name>`.
    pub unique_id: String,
    /// `model`, `test`, `seed`, `snapshot`...
    pub resource_type: String,
    /// The node's name (the model file's stem for a model).
    pub name: String,
    pub status: NodeStatus,
    /// dbt's message (`OK`, or the error text with its kind first).
    pub message: Option<String>,
    /// `"<db>"."<schema>"."<name>"` for models dbt built.
    pub relation_name: Option<String>,
    /// Seconds dbt spent on the node.
    pub execution_time: f64,
    /// For a failed node: what kind of error it was.
    pub error_kind: Option<ErrorKind>,
}

#[derive(Deserialize)]
struct RawFile {
    results: Vec<RawResult>,
}

#[derive(Deserialize)]
struct RawResult {
    unique_id: String,
    status: String,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    relation_name: Option<String>,
    #[serde(default)]
    execution_time: f64,
}

impl From<RawResult> for NodeResult {
    fn from(raw: RawResult) -> Self {
        let mut parts = raw.unique_id.splitn(3, '.');
        let resource_type = parts.next().unwrap_or_default().to_owned();
        let name = raw
            .unique_id
            .rsplit('.')
            .next()
            .unwrap_or_default()
            .to_owned();
        let status = NodeStatus::parse(&raw.status);
        let error_kind = match status {
            NodeStatus::Fail => Some(ErrorKind::Test),
            NodeStatus::Error => Some(classify_node_message(
                raw.message.as_deref().unwrap_or_default(),
            )),
            _ => None,
        };
        Self {
            unique_id: raw.unique_id,
            resource_type,
            name,
            status,
            message: raw.message,
            relation_name: raw.relation_name,
            execution_time: raw.execution_time,
            error_kind,
        }
    }
}

/// Parses `run_results.json` text; results sorted by unique id.
pub(crate) fn parse_run_results(text: &str, path: &Path) -> Result<Vec<NodeResult>, DbtError> {
    let file: RawFile = serde_json::from_str(text).map_err(|e| DbtError::RunResults {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let mut results: Vec<NodeResult> = file.results.into_iter().map(NodeResult::from).collect();
    results.sort_by(|a, b| a.unique_id.cmp(&b.unique_id));
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"{"metadata": {}, "elapsed_time": 1.2, "args": {}, "results": [
      {"status": "success", "message": "OK", "unique_id": "model.shop.stg", "execution_time": 0.19,
       "relation_name": "\"shop\".\"airbyte_schema\".\"stg\"", "timing": [], "failures": null},
      {"status": "error", "unique_id": "model.shop.bad", "execution_time": 0.01,
       "message": "Runtime Error in model bad (models/bad.sql)\n  Binder Error: Referenced column \"nope\" not found"},
      {"status": "skipped", "unique_id": "model.shop.after", "message": null}
    ]}"#;

    #[test]
    fn results_parse_and_sort() {
        let results = parse_run_results(SAMPLE, Path::new("run_results.json")).unwrap();
        let ids: Vec<&str> = results.iter().map(|r| r.unique_id.as_str()).collect();
        assert_eq!(
            ids,
            ["model.shop.after", "model.shop.bad", "model.shop.stg"]
        );
        assert_eq!(results[1].name, "bad");
        assert_eq!(results[1].resource_type, "model");
        assert_eq!(results[1].status, NodeStatus::Error);
        assert_eq!(results[1].error_kind, Some(ErrorKind::Database));
        assert_eq!(results[0].status, NodeStatus::Skipped);
        assert_eq!(results[0].error_kind, None);
        assert_eq!(
            results[2].relation_name.as_deref(),
            Some("\"shop\".\"airbyte_schema\".\"stg\"")
        );
    }

    #[test]
    fn unknown_status_is_kept() {
        assert_eq!(
            NodeStatus::parse("reused"),
            NodeStatus::Other("reused".into())
        );
    }

    #[test]
    fn broken_file_names_itself() {
        let err = parse_run_results("{", Path::new("/p/target/run_results.json")).unwrap_err();
        assert!(
            err.to_string().contains("/p/target/run_results.json"),
            "{err}"
        );
    }
}
