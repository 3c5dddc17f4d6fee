//! The scorer on the real test bed (`../shared/elt-bench`: 22 tasks with
//! source data and ground truth for 81 models): reference warehouses built
//! from the suite's own files must score 100%, and each kind of damage must
//! be caught and named.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use eltbench_score::compat::pandas::infer_column;
use eltbench_score::reference::{build_reference, has_reference_data};
use eltbench_score::{
    Compat, ModelError, ModelStatus, TableStatus, TaskScore, report, score_task_file,
};
use eltbench_task::Suite;
use eltbench_warehouse::{Access, DuckDbWarehouse};

fn suite() -> &'static Suite {
    static SUITE: OnceLock<Suite> = OnceLock::new();
    SUITE.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench");
        Suite::load(&root).unwrap_or_else(|e| panic!("cannot load {}: {e}", root.display()))
    })
}

fn tasks_with_data() -> Vec<String> {
    let suite = suite();
    suite
        .tasks()
        .map(|t| t.db.clone())
        .filter(|db| has_reference_data(suite, db))
        .collect()
}

/// Reference warehouses of every task with data, built once per test binary.
fn reference_dir() -> &'static Path {
    static DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, path) = DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        for db in tasks_with_data() {
            build_reference(suite(), &db, dir.path()).unwrap();
        }
        let path = dir.path().to_path_buf();
        (dir, path)
    });
    path
}

fn score_all(compat: Compat) -> Vec<TaskScore> {
    tasks_with_data()
        .iter()
        .map(|db| {
            let path = reference_dir().join(format!("{db}.duckdb"));
            score_task_file(suite(), db, &path, compat).unwrap()
        })
        .collect()
}

/// A private reference warehouse of one task, to damage.
fn damaged(db: &str, sql: &str) -> TaskScore {
    let dir = tempfile::tempdir().unwrap();
    let build = build_reference(suite(), db, dir.path()).unwrap();
    {
        let wh = DuckDbWarehouse::open(&build.path, db, Access::ReadWrite).unwrap();
        wh.execute_batch(sql).unwrap();
    }
    score_task_file(suite(), db, &build.path, Compat::Fixed).unwrap()
}

fn failing_models(tasks: &[TaskScore]) -> BTreeSet<String> {
    tasks
        .iter()
        .flat_map(|t| {
            t.models
                .iter()
                .filter(|(_, m)| m.status != ModelStatus::Matched)
                .map(move |(name, _)| format!("{}.{name}", t.db))
        })
        .collect()
}

#[test]
fn reference_warehouses_score_100_percent_under_the_fixed_rule() {
    let tasks = score_all(Compat::Fixed);
    assert_eq!(tasks.len(), 22);
    for task in &tasks {
        assert!(task.srdel.passed, "{}: {:?}", task.db, task.srdel);
    }
    assert_eq!(failing_models(&tasks), BTreeSet::new());
    let summary = report(tasks, Compat::Fixed).summary;
    let models = summary.srdt.total + summary.srdt_run_date_dependent.total;
    assert_eq!(models, 81);
    assert_eq!(summary.srdel.rate, Some(1.0));
    assert_eq!(summary.srdt.rate, Some(1.0));
    assert_eq!(summary.srdt_run_date_dependent.rate, Some(1.0));
    assert!(summary.models_without_ground_truth.is_empty());
}

/// Whether a ground truth holds a negative number in a column pandas reads
/// as numeric: the original rule fails such a value even against itself.
fn has_negative_number(db: &str, model: &str) -> bool {
    let gt = suite().ground_truth(db, model).unwrap().unwrap();
    (0..gt.header.len()).any(|c| {
        let column = infer_column(gt.rows.iter().map(|r| r[c].as_deref()));
        column
            .iter()
            .any(|v| v.as_number().is_some_and(|n| n < 0.0))
    })
}

#[test]
fn original_rule_fails_exactly_the_models_whose_ground_truth_has_negative_numbers() {
    let tasks = score_all(Compat::Original);
    let failing = failing_models(&tasks);
    let predicted: BTreeSet<String> = tasks
        .iter()
        .flat_map(|t| t.models.keys().map(move |m| (t.db.clone(), m.clone())))
        .filter(|(db, m)| has_negative_number(db, m))
        .map(|(db, m)| format!("{db}.{m}"))
        .collect();
    assert!(!failing.is_empty());
    assert_eq!(failing, predicted);
    for task in &tasks {
        for model in task
            .models
            .values()
            .filter(|m| m.status != ModelStatus::Matched)
        {
            assert!(matches!(model.error, Some(ModelError::WrongValues { .. })));
            // Every first difference is a value identical to the ground truth.
            let comparison = model.comparison.as_ref().unwrap();
            for column in &comparison.unmatched_columns {
                let diff = column.first_diff.as_ref().unwrap();
                assert_eq!(diff.expected, diff.actual, "{}", column.column);
            }
        }
    }
    let summary = report(tasks, Compat::Original).summary;
    eprintln!(
        "--compat original on reference warehouses: SRDT {}/{}, run-date-dependent {}/{}; failing: {failing:?}",
        summary.srdt.passed,
        summary.srdt.total,
        summary.srdt_run_date_dependent.passed,
        summary.srdt_run_date_dependent.total
    );
}

#[test]
fn a_dropped_table_fails_srdel_and_gates_the_models() {
    let score = damaged("apple_store", "DROP TABLE airbyte_schema.usage_device;");
    assert!(!score.srdel.passed);
    assert_eq!(score.srdel.tables["usage_device"], TableStatus::Missing);
    assert_eq!(score.srdel.problems().count(), 1);
    for model in score.models.values() {
        assert_eq!(model.status, ModelStatus::NotScoredStage1Failed);
        assert!(
            model.matched_ungated,
            "the model tables themselves are intact"
        );
    }
    let summary = report(vec![score], Compat::Fixed).summary;
    assert_eq!(summary.srdel.rate, Some(0.0));
    assert_eq!(summary.srdt.passed, 0);
    assert_eq!(summary.srdt_ungated.passed, summary.srdt_ungated.total);
}

#[test]
fn a_table_loaded_twice_fails_srdel_with_the_doubled_count() {
    let score = damaged(
        "apple_store",
        "INSERT INTO airbyte_schema.app_store_territory SELECT * FROM airbyte_schema.app_store_territory;",
    );
    assert!(!score.srdel.passed);
    assert_eq!(
        score.srdel.tables["app_store_territory"],
        TableStatus::WrongCount {
            expected: 17,
            actual: 34
        }
    );
}

#[test]
fn one_changed_value_fails_that_model_with_wrong_values_naming_column_and_row() {
    let score = damaged(
        "apple_store",
        "UPDATE airbyte_schema.apple_store__device_report SET impressions = impressions + 1000 \
         WHERE device = 'Desktop' AND date_day = DATE '2021-02-24';",
    );
    assert!(score.srdel.passed);
    let failing: Vec<&String> = score
        .models
        .iter()
        .filter(|(_, m)| m.status != ModelStatus::Matched)
        .map(|(name, _)| name)
        .collect();
    assert_eq!(failing, ["apple_store__device_report"]);
    let model = &score.models["apple_store__device_report"];
    assert_eq!(
        model.error,
        Some(ModelError::WrongValues {
            columns: vec!["impressions".into()]
        })
    );
    let column = &model.comparison.as_ref().unwrap().unmatched_columns[0];
    assert_eq!(column.rows_differing, 1);
    let diff = column.first_diff.as_ref().unwrap();
    let key: Vec<(&str, Option<&str>)> = diff
        .key
        .iter()
        .map(|k| (k.column.as_str(), k.value.as_deref()))
        .collect();
    assert_eq!(
        key,
        [
            ("device", Some("Desktop")),
            ("date_day", Some("2021-02-24"))
        ]
    );
    assert_eq!(
        (diff.expected.as_deref(), diff.actual.as_deref()),
        (Some("0"), Some("1000"))
    );
    // Desktop is the first device in key order and 2021-02-24 its second day.
    assert_eq!(diff.row, 1);
}
