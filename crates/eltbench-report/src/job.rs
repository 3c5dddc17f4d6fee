//! `job.json`, as far as a report uses it: its top-level fields, shown in
//! the report header in file order, the job's title and the suite it ran.
//!
//! The job runner owns the format; this module reads any JSON object and
//! never requires a field.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::ReportError;

/// Nested values longer than this are cut in the header.
const MAX_VALUE_CHARS: usize = 120;

/// The header facts of a job.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobInfo {
    /// Top-level fields of `job.json`, in file order, as display strings.
    pub fields: Vec<(String, String)>,
}

impl JobInfo {
    /// Parses `job.json` text; `path` names the file in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Self, ReportError> {
        let map: Map<String, Value> =
            serde_json::from_str(text).map_err(|source| ReportError::Job {
                path: path.to_path_buf(),
                source,
            })?;
        let fields = map.iter().map(|(k, v)| (k.clone(), display(v)));
        Ok(Self {
            fields: fields.collect(),
        })
    }

    /// A field's display value.
    pub fn get(&self, key: &str) -> Option<&str> {
        let field = self.fields.iter().find(|(k, _)| k == key);
        field.map(|(_, v)| v.as_str())
    }

    /// The job's name: `name`, else `job_id`, else `id`.
    pub fn title(&self) -> Option<&str> {
        ["name", "job_id", "id"].iter().find_map(|k| self.get(k))
    }

    /// The suite directory (`suite` or `suite_dir`), relative to `job_dir`
    /// unless absolute.
    pub fn suite_dir(&self, job_dir: &Path) -> Option<PathBuf> {
        let suite = self.get("suite").or_else(|| self.get("suite_dir"))?;
        Some(job_dir.join(suite))
    }
}

fn display(value: &Value) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Null => "-".to_owned(),
        other => other.to_string(),
    };
    if text.chars().count() <= MAX_VALUE_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_VALUE_CHARS).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_field_order_and_finds_title_and_suite() {
        let text = r#"{"job_id":"j1","agent":"oracle","k":3,"suite":"/s","extra":null}"#;
        let job = JobInfo::parse(text, Path::new("job.json")).unwrap();
        let keys: Vec<&str> = job.fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["job_id", "agent", "k", "suite", "extra"]);
        assert_eq!(job.title(), Some("j1"));
        assert_eq!(job.get("k"), Some("3"));
        assert_eq!(job.get("extra"), Some("-"));
        assert_eq!(
            job.suite_dir(Path::new("/jobs/j1")),
            Some(PathBuf::from("/s"))
        );
    }

    #[test]
    fn rejects_a_non_object_naming_the_file() {
        let err = JobInfo::parse("[1]", Path::new("d/job.json")).unwrap_err();
        assert!(
            err.to_string().starts_with("d/job.json: not a JSON object"),
            "{err}"
        );
    }
}
