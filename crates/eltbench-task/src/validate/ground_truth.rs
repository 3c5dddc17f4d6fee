//! Checks of ground-truth files: each parses (no ragged rows), its header
//! is the model's columns, and its row count is the one `gt/_meta.json`
//! records. Reads `gt/` contents; never compares values.

use super::Check;
use crate::{DataModel, GroundTruth};

pub(super) fn check(c: &mut Check<'_>) {
    for model in &c.task.models {
        let Some(path) = c.suite.ground_truth_path(&c.task.db, &model.name) else {
            continue;
        };
        match GroundTruth::read(&path) {
            Ok(gt) => header_and_rows(c, model, &gt),
            Err(err) => c.out.push(err.into()),
        }
    }
}

fn header_and_rows(c: &mut Check<'_>, model: &DataModel, gt: &GroundTruth) {
    let missing: Vec<&str> = model
        .columns
        .iter()
        .map(|col| col.name.as_str())
        .filter(|name| gt.column_index(name).is_none())
        .collect();
    if !missing.is_empty() {
        let message = format!(
            "header lacks column(s) {} of model `{}`",
            quoted(&missing),
            model.name
        );
        c.error(&gt.path, Some(1), message);
    }
    let extra: Vec<&str> = gt
        .header
        .iter()
        .map(String::as_str)
        .filter(|h| model.column(h).is_none())
        .collect();
    if !extra.is_empty() {
        c.warning(
            &gt.path,
            Some(1),
            format!(
                "column(s) {} are not in model `{}`; not scored",
                quoted(&extra),
                model.name
            ),
        );
    }
    let expected = c
        .suite
        .gt_meta(&c.task.db, &model.name)
        .and_then(|m| m.rows);
    if let Some(expected) = expected.filter(|rows| *rows != gt.rows.len() as u64) {
        let message = format!("{} rows, gt/_meta.json says {expected}", gt.rows.len());
        c.warning(&gt.path, None, message);
    }
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
