//! The suite-wide JSON files: `source_row_counts.json` (stage 1),
//! `model_eval_keys.json` (stage 2) and `gt/_meta.json`.
//!
//! Only reading lives here; cross-checks against tasks are validation's.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::error::json_error;
use crate::{SuiteError, lines};

/// Where the scorer reads a model from and how it orders rows.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct EvalKey {
    /// The table the model is read from, as `<db>.<schema>.<table>`; `None`
    /// when the original evaluated it with a free-form query.
    #[serde(default)]
    pub table: Option<String>,
    /// ORDER BY columns; `None` when the original had no simple key.
    #[serde(default)]
    pub order_by: Option<Vec<String>>,
    /// Why the key is incomplete, when the file says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A model's entry in `gt/_meta.json`.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, Deserialize)]
pub struct GtMeta {
    /// The ground truth uses the current date somewhere upstream.
    #[serde(default)]
    pub depends_on_run_date: bool,
    /// Columns the ground truth left empty (not scored).
    #[serde(default)]
    pub columns_left_empty: Vec<String>,
    /// Free-text note.
    #[serde(default)]
    pub note: Option<String>,
    /// Rows in the ground-truth file.
    #[serde(default)]
    pub rows: Option<u64>,
    /// The keys the ground truth is sorted by.
    #[serde(default)]
    pub order_by: Option<Vec<String>>,
}

/// `{db: {table: rows}}`.
pub type RowCounts = BTreeMap<String, BTreeMap<String, u64>>;
/// `{db: {model: key}}`.
pub type EvalKeys = BTreeMap<String, BTreeMap<String, EvalKey>>;
/// `{db: {model: meta}}`, without the `_`-prefixed provenance entries.
pub type GtMetas = BTreeMap<String, BTreeMap<String, GtMeta>>;

/// Parses `source_row_counts.json`.
pub(crate) fn parse_row_counts(text: &str, path: &Path) -> Result<RowCounts, SuiteError> {
    serde_json::from_str(text).map_err(|e| json_error(path, &e))
}

/// Parses `model_eval_keys.json`.
pub(crate) fn parse_eval_keys(text: &str, path: &Path) -> Result<EvalKeys, SuiteError> {
    serde_json::from_str(text).map_err(|e| json_error(path, &e))
}

/// Parses `gt/_meta.json`, skipping `_`-prefixed entries (provenance).
pub(crate) fn parse_gt_meta(text: &str, path: &Path) -> Result<GtMetas, SuiteError> {
    type Raw = BTreeMap<String, BTreeMap<String, serde_json::Value>>;
    let raw: Raw = serde_json::from_str(text).map_err(|e| json_error(path, &e))?;
    let mut metas = GtMetas::new();
    for (db, entries) in raw {
        let mut models = BTreeMap::new();
        for (model, value) in entries.into_iter().filter(|(k, _)| !k.starts_with('_')) {
            let meta = serde_json::from_value(value).map_err(|e| {
                let line = lines::json_key(text, &[&db, &model]);
                SuiteError::invalid(path, line, format!("`{db}.{model}`: {e}"))
            })?;
            models.insert(model, meta);
        }
        metas.insert(db, models);
    }
    Ok(metas)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_keys_may_be_null_with_a_note() {
        let text = r#"{"shipping": {"drivers": {"table": null, "order_by": null, "note": "full query"},
            "x": {"table": "shipping.airbyte_schema.x", "order_by": ["ID"]}}}"#;
        let keys = parse_eval_keys(text, Path::new("k.json")).unwrap();
        assert_eq!(keys["shipping"]["drivers"].table, None);
        assert_eq!(
            keys["shipping"]["drivers"].note.as_deref(),
            Some("full query")
        );
        assert_eq!(keys["shipping"]["x"].order_by, Some(vec!["ID".to_owned()]));
    }

    #[test]
    fn gt_meta_skips_provenance_and_defaults_flags() {
        let text = r#"{"a": {"_computed": {"by": "dbt"}, "m": {"rows": 3, "order_by": ["id"]}}}"#;
        let metas = parse_gt_meta(text, Path::new("_meta.json")).unwrap();
        assert_eq!(metas["a"].len(), 1);
        assert_eq!(metas["a"]["m"].rows, Some(3));
        assert!(!metas["a"]["m"].depends_on_run_date);
    }

    #[test]
    fn a_wrong_shape_names_the_line() {
        let err =
            parse_row_counts("{\n \"a\": {\n  \"t\": -1\n }\n}", Path::new("rc.json")).unwrap_err();
        assert!(
            err.to_string().starts_with("rc.json:3: invalid JSON: "),
            "{err}"
        );
        let text = "{\"a\": {\n \"m\": {\"rows\": \"x\"}}}";
        let err = parse_gt_meta(text, Path::new("_meta.json")).unwrap_err();
        assert!(
            err.to_string().starts_with("_meta.json:2: `a.m`: "),
            "{err}"
        );
    }
}
