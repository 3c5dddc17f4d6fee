//! Totals over scored tasks: SRDEL over tasks; SRDT over the date-independent
//! models with ground truth (stage-1 gate applied, as the original did), with
//! run-date-dependent models and the ungated count reported separately.
//!
//! This module never mixes the run-date-dependent bucket into SRDT.

use crate::compat::Compat;
use crate::report::{
    ModelScore, ModelStatus, Rate, ScoreReport, Summary, TaskScore, WarehouseState,
};

const NOTE: &str = "srdt counts date-independent models only (stage-1 gate applied: a model of a \
task that failed SRDEL counts as not matched); models whose ground truth depends on the run date \
are in srdt_run_date_dependent; srdt_ungated ignores the gate";

/// Builds the report for `tasks` scored under `rule`.
pub fn report(tasks: Vec<TaskScore>, rule: Compat) -> ScoreReport {
    ScoreReport {
        summary: summarize(&tasks, rule),
        tasks,
    }
}

/// The totals over `tasks`.
pub fn summarize(tasks: &[TaskScore], rule: Compat) -> Summary {
    let passed = tasks.iter().filter(|t| t.srdel.passed).count();
    let mut summary = Summary {
        rule,
        rule_description: rule.describe().to_string(),
        srdel: Rate::new(passed, tasks.len()),
        srdt: Rate::new(0, 0),
        srdt_run_date_dependent: Rate::new(0, 0),
        srdt_ungated: Rate::new(0, 0),
        models_without_ground_truth: Vec::new(),
        models_unkeyed: Vec::new(),
        tasks_unavailable: Vec::new(),
        note: NOTE.to_string(),
    };
    let mut counts = Counts::default();
    for task in tasks {
        if let WarehouseState::Unavailable { .. } = task.warehouse {
            summary.tasks_unavailable.push(task.db.clone());
        }
        for (name, model) in &task.models {
            let qualified = format!("{}.{name}", task.db);
            if model.status == ModelStatus::NoGroundTruth {
                summary.models_without_ground_truth.push(qualified);
                continue;
            }
            if model.unkeyed {
                summary.models_unkeyed.push(qualified);
            }
            counts.add(model);
        }
    }
    summary.srdt = Rate::new(counts.matched, counts.total);
    summary.srdt_run_date_dependent = Rate::new(counts.dated_matched, counts.dated_total);
    summary.srdt_ungated = Rate::new(counts.ungated_matched, counts.total);
    summary
}

#[derive(Default)]
struct Counts {
    matched: usize,
    total: usize,
    dated_matched: usize,
    dated_total: usize,
    ungated_matched: usize,
}

impl Counts {
    fn add(&mut self, model: &ModelScore) {
        let matched = usize::from(model.status == ModelStatus::Matched);
        if model.run_date_dependent {
            self.dated_total += 1;
            self.dated_matched += matched;
        } else {
            self.total += 1;
            self.matched += matched;
            self.ungated_matched += usize::from(model.matched_ungated);
        }
    }
}
