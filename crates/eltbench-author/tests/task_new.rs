//! `tasks new` end to end on a tiny domain written here: five CSVs become a
//! task dealt over all five source kinds, the suite validates, and once the
//! test fills a model, its gold, ground truth and eval key, the stage-1
//! oracle loads every table with the exact row count (SRDEL = 100%) and the
//! gold run on it matches the hand-computed ground truth (SRDT = 100%).

mod common;

use eltbench_task::{SourceKind, Suite};

use common::*;

#[test]
fn a_new_task_validates_and_covers_every_kind() {
    let tmp = open_tempdir();
    let suite_dir = tmp.path().join("suite");
    std::fs::create_dir_all(suite_dir.join("tasks/other")).unwrap();
    std::fs::write(
        suite_dir.join("source_row_counts.json"),
        r#"{"other": {"t": 3}}"#,
    )
    .unwrap();
    scaffold(&suite_dir);
    let counts = std::fs::read_to_string(suite_dir.join("source_row_counts.json")).unwrap();
    assert!(
        counts.contains("\"other\"") && counts.contains("\"orders\": 5"),
        "{counts}"
    );
    std::fs::remove_dir_all(suite_dir.join("tasks/other")).unwrap();
    let suite = Suite::load(&suite_dir).unwrap();
    assert_eq!(errors(&suite), Vec::<String>::new());
    let task = suite.task(DB).unwrap();
    let kinds: std::collections::BTreeSet<SourceKind> =
        task.source_tables().iter().map(|t| t.kind).collect();
    assert_eq!(kinds.len(), 5);
    let schema =
        std::fs::read_to_string(suite_dir.join("tasks/tiny_shop/schemas/orders.csv")).unwrap();
    assert_eq!(
        schema,
        "column_name,column_description\nid,\ncustomer_id,\namount,\nordered_at,\n"
    );
    let ddl = std::fs::read_to_string(suite_dir.join("postgres_ddl.json")).unwrap();
    assert!(
        ddl.contains("\"customers\"") && ddl.contains("BIGINT"),
        "{ddl}"
    );
    let streams = std::fs::read_to_string(suite_dir.join("rest_api_streams.json")).unwrap();
    assert!(
        streams.contains("\"path\": \"/tiny_shop/payments\""),
        "{streams}"
    );
    let mongo = std::fs::read_to_string(suite_dir.join("mongodb_collections.json")).unwrap();
    assert!(
        mongo.contains("\"tiny_shop\": [\n        \"orders\"\n    ]"),
        "{mongo}"
    );
}

#[test]
fn the_stage1_oracle_solves_a_filled_in_new_task() {
    let tmp = open_tempdir();
    let suite_dir = tmp.path().join("suite");
    scaffold(&suite_dir);
    fill_task(&suite_dir);
    let suite = Suite::load(&suite_dir).unwrap();
    assert_eq!(errors(&suite), Vec::<String>::new());
    let run = tmp.path().join("run");
    let score = eltbench_harness::oracle::run_stage1_oracle(&suite, DB, &run).unwrap();
    assert!(score.srdel.passed, "{:?}", score.srdel);
    assert_eq!(score.srdel.tables.len(), 5);
}

#[test]
fn the_gold_of_a_filled_in_new_task_matches_its_ground_truth() {
    let tmp = open_tempdir();
    let suite_dir = tmp.path().join("suite");
    scaffold(&suite_dir);
    fill_task(&suite_dir);
    let dbt = toolchain();
    let work = tmp.path().join("verify");
    let v = eltbench_harness::oracle::verify_task(&suite_dir, DB, &work, &dbt, false).unwrap();
    assert!(v.score.srdel.passed, "{:?}", v.score.srdel);
    assert_eq!(v.score.models.len(), 1);
    assert_eq!(unmatched(&v), Vec::<String>::new());
    assert_eq!(v.problems(), Vec::<String>::new());
}
