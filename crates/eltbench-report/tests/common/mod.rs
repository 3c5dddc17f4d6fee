//! A small job built from eltbench-score's public types: three tasks over
//! five source kinds, three attempts each, with every stage-1 and stage-2
//! failure category, a harness failure and an unscored trial.

#![allow(dead_code)]

use std::collections::BTreeMap;

use eltbench_report::{AgentStatus, SuiteInfo, TrialRecord};
use eltbench_score::{
    ModelError, ModelScore, ModelStatus, Stage1Score, TableStatus, TaskScore, WarehouseState,
};
use eltbench_task::SourceKind;

/// A model's verdict: `(name, status, error, run_date_dependent)`.
pub type Model = (&'static str, ModelStatus, Option<ModelError>, bool);

pub fn ok(rows: u64) -> TableStatus {
    TableStatus::Ok { rows }
}

pub fn matched(name: &'static str) -> Model {
    (name, ModelStatus::Matched, None, false)
}

pub fn failed(name: &'static str, error: ModelError) -> Model {
    (name, ModelStatus::Unmatched, Some(error), false)
}

pub fn gated(name: &'static str) -> Model {
    (name, ModelStatus::NotScoredStage1Failed, None, false)
}

pub fn task_score(db: &str, tables: &[(&str, TableStatus)], models: &[Model]) -> TaskScore {
    let tables: BTreeMap<String, TableStatus> = tables
        .iter()
        .map(|(n, s)| ((*n).to_string(), s.clone()))
        .collect();
    let passed = tables.values().all(|s| matches!(s, TableStatus::Ok { .. }));
    let models = models.iter().map(|(name, status, error, dated)| {
        let score = ModelScore {
            status: *status,
            matched_ungated: *status == ModelStatus::Matched,
            run_date_dependent: *dated,
            unkeyed: false,
            relation: Some(format!("main.{name}")),
            error: error.clone(),
            comparison: None,
        };
        ((*name).to_string(), score)
    });
    TaskScore {
        db: db.into(),
        warehouse: WarehouseState::Read,
        srdel: Stage1Score { passed, tables },
        models: models.collect(),
    }
}

/// The agent status a status name stands for.
pub fn agent(status: &str) -> AgentStatus {
    match status {
        "finished" => AgentStatus::Finished,
        "timeout" => AgentStatus::Timeout,
        "step_limit" => AgentStatus::StepLimit,
        "cost_limit" => AgentStatus::CostLimit,
        "crashed" => AgentStatus::Crashed { exit: Some(1) },
        other => AgentStatus::Error {
            message: other.to_string(),
        },
    }
}

/// A trial with index `attempt - 1`.
pub fn record(
    db: &str,
    attempt: u32,
    status: &str,
    steps: u64,
    cost: f64,
    score: Option<TaskScore>,
) -> TrialRecord {
    TrialRecord {
        trial_id: format!("{db}__{}", attempt - 1),
        db: db.into(),
        index: attempt - 1,
        agent_status: status.into(),
        agent: Some(agent(status)),
        harness_attempts: 1,
        harness_errors: Vec::new(),
        steps,
        input_tokens: steps * 4_000,
        output_tokens: steps * 300,
        cost_usd: cost,
        duration_s: 30.0 + 7.5 * f64::from(u32::try_from(steps).unwrap()),
        started_at: "2026-01-01T00:00:00.000Z".into(),
        finished_at: "2026-01-01T00:05:00.000Z".into(),
        sandboxed: Some(true),
        sandbox_mode: None,
        score,
    }
}

/// A trial the harness failed twice.
pub fn harness_failed(db: &str, attempt: u32, message: &str) -> TrialRecord {
    let mut r = record(db, attempt, "finished", 0, 0.0, None);
    r.agent_status = eltbench_report::HARNESS_FAILURE.into();
    r.agent = None;
    r.harness_attempts = 2;
    r.harness_errors = vec!["first try".into(), message.into()];
    r.sandboxed = None;
    r
}

pub fn suite_info() -> SuiteInfo {
    let mut info = SuiteInfo::default();
    let tables = [
        ("airline", "flights", SourceKind::Postgres),
        ("airline", "airports", SourceKind::FlatFiles),
        ("airline", "carriers", SourceKind::AwsS3),
        ("books", "authors", SourceKind::Mongodb),
        ("books", "titles", SourceKind::CustomApi),
        ("cookbook", "recipes", SourceKind::Postgres),
        ("cookbook", "ingredients", SourceKind::Postgres),
    ];
    for (db, table, kind) in tables {
        info.insert(db, table, kind);
    }
    info
}

fn airline(carriers: TableStatus, models: &[Model]) -> TaskScore {
    let tables = [
        ("flights", ok(500)),
        ("airports", ok(40)),
        ("carriers", carriers),
    ];
    task_score("airline", &tables, models)
}

fn books(models: &[Model]) -> TaskScore {
    task_score("books", &[("authors", ok(12)), ("titles", ok(30))], models)
}

fn cookbook(recipes: TableStatus, ingredients: TableStatus, models: &[Model]) -> TaskScore {
    task_score(
        "cookbook",
        &[("recipes", recipes), ("ingredients", ingredients)],
        models,
    )
}

/// The sample job, in a scrambled order.
pub fn sample_records() -> Vec<TrialRecord> {
    let today = |status, error| ("daily_today", status, error, true);
    let a1 = airline(
        ok(20),
        &[
            matched("delays"),
            failed(
                "route_stats",
                ModelError::WrongValues {
                    columns: vec!["avg_delay".into()],
                },
            ),
            today(ModelStatus::Matched, None),
        ],
    );
    let a2 = airline(
        TableStatus::WrongCount {
            expected: 20,
            actual: 40,
        },
        &[
            gated("delays"),
            gated("route_stats"),
            today(ModelStatus::NotScoredStage1Failed, None),
        ],
    );
    let a3 = airline(
        ok(20),
        &[
            failed("delays", ModelError::NotBuilt),
            failed("route_stats", ModelError::NotBuilt),
            today(ModelStatus::Unmatched, Some(ModelError::NotBuilt)),
        ],
    );
    let b1 = books(&[matched("top_authors")]);
    let b2 = books(&[failed(
        "top_authors",
        ModelError::WrongSize {
            expected: 10,
            actual: 12,
        },
    )]);
    let c1 = cookbook(
        TableStatus::Missing,
        TableStatus::NotBaseTable,
        &[gated("nutrition"), gated("cuisine_counts")],
    );
    let c2 = cookbook(
        ok(80),
        ok(300),
        &[
            failed("nutrition", ModelError::NotBuilt),
            failed(
                "cuisine_counts",
                ModelError::WrongSchema {
                    found_in: vec!["main".into()],
                },
            ),
        ],
    );
    let c3 = cookbook(
        ok(80),
        ok(300),
        &[
            failed(
                "nutrition",
                ModelError::QueryFailed {
                    message: "Catalog Error: Table with name stg_recipes does not exist!".into(),
                },
            ),
            failed(
                "cuisine_counts",
                ModelError::MissingColumns {
                    columns: vec!["cuisine".into()],
                },
            ),
        ],
    );
    let b3 = harness_failed(
        "books",
        3,
        "postgres source: pg_ctl start failed: port 5433 | in use",
    );
    let mut c3 = record("cookbook", 3, "llm_error", 6, 0.08, Some(c3));
    c3.sandboxed = Some(false);
    vec![
        record("cookbook", 2, "finished", 17, 0.37, Some(c2)),
        record("airline", 3, "step_limit", 30, 0.95, Some(a3)),
        record("books", 1, "finished", 9, 0.2, Some(b1)),
        b3,
        record("airline", 1, "finished", 14, 0.42, Some(a1)),
        record("disney", 1, "cancelled", 3, 0.05, None),
        c3,
        record("books", 2, "finished", 11, 0.25, Some(b2)),
        record("cookbook", 1, "finished", 12, 0.3, Some(c1)),
        record("airline", 2, "finished", 22, 0.61, Some(a2)),
    ]
}
