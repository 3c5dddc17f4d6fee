//! A trial's trajectory, as an agent left it in the trial directory, read
//! without knowing which agent wrote it: `trajectory.json` (an object with
//! `steps`, `outcome`, `totals`: the builtin agent's format) or
//! `trajectory.jsonl` (one step per line). Unknown fields are kept and shown.
//!
//! This module only reads; rendering is [`crate::render_trajectory`].

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::ReportError;

/// The files looked for, in order, in a trial directory and its `agent/`.
pub const TRAJECTORY_FILES: [&str; 2] = ["trajectory.json", "trajectory.jsonl"];

/// One trajectory: its header fields, steps and totals, as JSON.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trajectory {
    /// The file read.
    pub path: PathBuf,
    /// Top-level fields other than `steps` and `totals` (agent, model, outcome...).
    pub header: Map<String, Value>,
    /// The steps in file order.
    pub steps: Vec<Value>,
    /// `totals`, when the file has them.
    pub totals: Option<Value>,
}

/// The trajectory file of a trial directory, if any.
pub fn trajectory_path(trial_dir: &Path) -> Option<PathBuf> {
    let dirs = [trial_dir.to_path_buf(), trial_dir.join("agent")];
    dirs.iter()
        .flat_map(|d| TRAJECTORY_FILES.iter().map(move |f| d.join(f)))
        .find(|p| p.is_file())
}

/// Reads the trajectory of a trial directory; `None` when it has none.
pub fn load_trajectory(trial_dir: &Path) -> Result<Option<Trajectory>, ReportError> {
    let Some(path) = trajectory_path(trial_dir) else {
        return Ok(None);
    };
    let text = fs::read_to_string(&path).map_err(|source| ReportError::Read {
        path: path.clone(),
        source,
    })?;
    let parsed = if path.extension().is_some_and(|e| e == "jsonl") {
        parse_lines(&text, &path)?
    } else {
        parse_object(&text, &path)?
    };
    Ok(Some(Trajectory { path, ..parsed }))
}

fn parse_object(text: &str, path: &Path) -> Result<Trajectory, ReportError> {
    let value: Value = serde_json::from_str(text).map_err(|source| ReportError::Trajectory {
        path: path.to_path_buf(),
        line: None,
        source,
    })?;
    let mut header = match value {
        Value::Object(map) => map,
        Value::Array(steps) => {
            return Ok(Trajectory {
                steps,
                ..Trajectory::default()
            });
        }
        other => Map::from_iter([("value".to_owned(), other)]),
    };
    let steps = match header.remove("steps") {
        Some(Value::Array(steps)) => steps,
        Some(other) => vec![other],
        None => Vec::new(),
    };
    let totals = header.remove("totals");
    Ok(Trajectory {
        path: PathBuf::new(),
        header,
        steps,
        totals,
    })
}

fn parse_lines(text: &str, path: &Path) -> Result<Trajectory, ReportError> {
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let steps = lines
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|source| ReportError::Trajectory {
                path: path.to_path_buf(),
                line: Some(i + 1),
                source,
            })
        })
        .collect::<Result<Vec<Value>, _>>()?;
    Ok(Trajectory {
        steps,
        ..Trajectory::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_object_with_steps_and_totals() {
        let dir = tempfile::tempdir().unwrap();
        let text = r#"{"agent":"builtin","steps":[{"index":0},{"index":1}],"totals":{"steps":2}}"#;
        fs::write(dir.path().join("trajectory.json"), text).unwrap();
        let t = load_trajectory(dir.path()).unwrap().unwrap();
        assert_eq!(t.steps.len(), 2);
        assert_eq!(t.header["agent"], "builtin");
        assert_eq!(t.totals.unwrap()["steps"], 2);
    }

    #[test]
    fn reads_jsonl_under_agent_and_names_a_bad_line() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("agent")).unwrap();
        let path = dir.path().join("agent/trajectory.jsonl");
        fs::write(&path, "{\"a\":1}\n\n{\"a\":2}\n").unwrap();
        assert_eq!(load_trajectory(dir.path()).unwrap().unwrap().steps.len(), 2);
        fs::write(&path, "{\"a\":1}\n{oops\n").unwrap();
        let err = load_trajectory(dir.path()).unwrap_err().to_string();
        assert!(err.contains("trajectory.jsonl:2"), "{err}");
    }

    #[test]
    fn a_trial_without_one_has_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(load_trajectory(dir.path()).unwrap().is_none());
    }
}
