//! A small job directory for `eltbench report` and `eltbench view`, built
//! from the record types: two trials of the first task of the shared suite
//! (one passing stage 1, one with a missing table and a wrong count), a
//! harness failure, and a builtin-agent trajectory for the first trial.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use eltbench_report::{AgentStatus, HARNESS_FAILURE, TrialRecord};
use eltbench_score::{
    ModelError, ModelScore, ModelStatus, Stage1Score, TableStatus, TaskScore, WarehouseState,
};
use eltbench_task::Suite;

/// `../shared/elt-bench`.
pub fn shared_suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench")
}

/// The first task with at least two source tables and its table names.
fn task() -> (String, Vec<String>, Vec<String>) {
    let suite = Suite::load_lenient(&shared_suite()).unwrap();
    let task = suite
        .tasks()
        .find(|t| t.source_tables().len() >= 2 && !t.models.is_empty())
        .unwrap();
    let tables = task
        .source_tables()
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let models = task.models.iter().map(|m| m.name.clone()).collect();
    (task.db.clone(), tables, models)
}

fn score(db: &str, tables: &[String], models: &[String], good: bool) -> TaskScore {
    let status = |i: usize| match (good, i) {
        (true, _) | (false, 2..) => TableStatus::Ok { rows: 10 },
        (false, 0) => TableStatus::Missing,
        (false, _) => TableStatus::WrongCount {
            expected: 10,
            actual: 20,
        },
    };
    let model = |i: usize| ModelScore {
        status: match (good, i) {
            (false, _) => ModelStatus::NotScoredStage1Failed,
            (true, 0) => ModelStatus::Matched,
            (true, _) => ModelStatus::Unmatched,
        },
        matched_ungated: good && i == 0,
        run_date_dependent: false,
        unkeyed: false,
        relation: None,
        error: (good && i > 0).then(|| ModelError::MissingColumns {
            columns: vec!["total".into()],
        }),
        comparison: None,
    };
    TaskScore {
        db: db.into(),
        warehouse: WarehouseState::Read,
        srdel: Stage1Score {
            passed: good,
            tables: tables
                .iter()
                .enumerate()
                .map(|(i, t)| (t.clone(), status(i)))
                .collect(),
        },
        models: models
            .iter()
            .enumerate()
            .map(|(i, m)| (m.clone(), model(i)))
            .collect::<BTreeMap<_, _>>(),
    }
}

fn record(
    db: &str,
    index: u32,
    agent: Option<AgentStatus>,
    score: Option<TaskScore>,
) -> TrialRecord {
    let sandboxed = agent.as_ref().map(|_| index == 0);
    TrialRecord {
        trial_id: format!("{db}__{index}"),
        db: db.into(),
        index,
        agent_status: agent
            .as_ref()
            .map_or(HARNESS_FAILURE, AgentStatus::name)
            .into(),
        harness_attempts: if agent.is_some() { 1 } else { 2 },
        harness_errors: if agent.is_some() {
            vec![]
        } else {
            vec!["postgres did not start".into(); 2]
        },
        agent,
        steps: 2 + u64::from(index),
        input_tokens: 1200,
        output_tokens: 300,
        cost_usd: 0.02 * f64::from(index + 1),
        duration_s: 40.0 + f64::from(index),
        started_at: "2026-01-01T00:00:00.000Z".into(),
        finished_at: "2026-01-01T00:01:00.000Z".into(),
        sandboxed,
        sandbox_mode: None,
        score,
    }
}

const TRAJECTORY: &str = r#"{
  "agent": "builtin", "model": "scripted", "provider": "openai",
  "started_at": "2026-01-01T00:00:00Z", "instruction": "Build the pipeline.",
  "system_prompt": "You are an ELT agent.",
  "steps": [
    {"index": 0, "started_at": "2026-01-01T00:00:01Z", "duration_ms": 1500, "llm_ms": 900,
     "thought": "Look at the workspace first.", "response": "...",
     "action": {"type": "bash", "code": "ls elt && cat config.yaml"},
     "observation": "main.tf\npostgres: ...", "parse_error": null,
     "input_tokens": 600, "output_tokens": 100, "cost_usd": 0.01},
    {"index": 1, "started_at": "2026-01-01T00:00:03Z", "duration_ms": 800, "llm_ms": 700,
     "thought": "Done.", "response": "...", "action": {"type": "terminate", "answer": "pipeline built"},
     "observation": "", "parse_error": null,
     "input_tokens": 600, "output_tokens": 200, "cost_usd": 0.01}
  ],
  "outcome": {"kind": "finished", "answer": "pipeline built"},
  "totals": {"steps": 2, "llm_calls": 2, "llm_retries": 0, "input_tokens": 1200,
             "output_tokens": 300, "cost_usd": 0.02, "priced": true, "duration_ms": 2300}
}"#;

/// Writes the job into `dir` and returns its trial ids.
pub fn write_job(dir: &Path) -> Vec<String> {
    let (db, tables, models) = task();
    let records = [
        record(
            &db,
            0,
            Some(AgentStatus::Finished),
            Some(score(&db, &tables, &models, true)),
        ),
        record(
            &db,
            1,
            Some(AgentStatus::StepLimit),
            Some(score(&db, &tables, &models, false)),
        ),
        record(&db, 2, None, None),
    ];
    std::fs::create_dir_all(dir).unwrap();
    let job = serde_json::json!({"name": "fixture-job", "agent": "builtin", "k": 3,
        "suite": shared_suite().display().to_string()});
    std::fs::write(dir.join("job.json"), job.to_string()).unwrap();
    let lines: Vec<String> = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
    std::fs::write(dir.join("results.jsonl"), lines.join("\n") + "\n").unwrap();
    for r in &records {
        let trial = dir.join("trials").join(&r.trial_id);
        std::fs::create_dir_all(&trial).unwrap();
        std::fs::write(trial.join("result.json"), serde_json::to_string(r).unwrap()).unwrap();
    }
    let first = dir.join("trials").join(&records[0].trial_id);
    std::fs::write(first.join("trajectory.json"), TRAJECTORY).unwrap();
    records.iter().map(|r| r.trial_id.clone()).collect()
}
