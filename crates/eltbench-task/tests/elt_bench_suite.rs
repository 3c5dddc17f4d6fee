//! The original 100 ELT-Bench tasks (`../shared/elt-bench`) load and
//! validate: their quirks are handled, with warnings, never errors.

use std::path::PathBuf;

use eltbench_task::{Severity, SourceKind, Suite};

fn suite_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench")
}

fn load() -> Suite {
    let root = suite_root();
    assert!(
        root.join("tasks").is_dir(),
        "the compatibility test bed is missing at {}",
        root.display()
    );
    Suite::load(&root).unwrap()
}

#[test]
fn loads_100_tasks_835_tables_203_models_without_errors() {
    let suite = load();
    let tasks: Vec<_> = suite.tasks().collect();
    assert_eq!(tasks.len(), 100);
    assert_eq!(
        tasks.iter().map(|t| t.source_tables().len()).sum::<usize>(),
        835
    );
    assert_eq!(tasks.iter().map(|t| t.models.len()).sum::<usize>(), 203);
    let problems = suite.validate();
    let errors: Vec<_> = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let names: Vec<_> = tasks.iter().map(|t| t.db.as_str()).collect();
    assert!(
        names.windows(2).all(|w| w[0] < w[1]),
        "tasks are sorted by db"
    );
}

#[test]
fn the_known_quirks_are_warnings_with_lines() {
    let problems: Vec<String> = load().validate().iter().map(ToString::to_string).collect();
    let has = |needle: &str| problems.iter().any(|p| p.contains(needle));
    // config.yaml says `airlines`, the schema file is `Airlines.csv`.
    assert!(
        has(
            "tasks/airline/config.yaml:32: warning: table `airlines` has schema file `schemas/Airlines.csv`"
        ),
        "{problems:#?}"
    );
    // source_row_counts.json says `SeasonStatus`, config.yaml `seasonstatus`.
    assert!(
        has("warning: `ice_hockey_draft.SeasonStatus`: the table is `seasonstatus` in config.yaml"),
        "{problems:#?}"
    );
    // shipping/drivers was evaluated with a free-form query.
    assert!(
        has("model_eval_keys.json") && has("warning: `shipping.drivers`: no table or ORDER BY key"),
        "{problems:#?}"
    );
    // One model spells `description` as `descrption`.
    assert!(
        has(
            "tasks/codebase_community/data_model.yaml:22: warning: model `codebase_community__posts` spells `description` as `descrption`"
        ),
        "{problems:#?}"
    );
    // Qualtrics schema descriptions hold unquoted commas.
    assert!(
        has("tasks/qualtrics/schemas/block.csv:7: warning: column `id`: 3 fields"),
        "{problems:#?}"
    );
}

#[test]
fn lookups_match_table_names_case_insensitively() {
    let suite = load();
    let airline = suite.task("airline").unwrap();
    assert!(airline.schema("airlines").is_some());
    assert!(
        suite
            .expected_rows_for("ice_hockey_draft", "seasonstatus")
            .is_some()
    );
    assert_eq!(suite.expected_rows("amplitude").map(|r| r.len()), Some(2));
    let kinds = suite.task("address").unwrap().source_kinds();
    assert_eq!(kinds.len(), 5);
    assert!(kinds.contains(&SourceKind::FlatFiles));
    let drivers = suite.eval_key("shipping", "drivers").unwrap();
    assert_eq!(
        (drivers.table.as_ref(), drivers.order_by.as_ref()),
        (None, None)
    );
}

#[test]
fn every_ground_truth_file_parses_and_matches_its_meta() {
    let suite = load();
    let mut files = 0;
    for task in suite.tasks() {
        for model in &task.models {
            let Some(gt) = suite.ground_truth(&task.db, &model.name).unwrap() else {
                continue;
            };
            files += 1;
            let columns: Vec<_> = model.columns.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(gt.header, columns, "{}", gt.path.display());
            let meta = suite.gt_meta(&task.db, &model.name).unwrap();
            assert_eq!(
                meta.rows,
                Some(gt.rows.len() as u64),
                "{}",
                gt.path.display()
            );
        }
    }
    assert_eq!(files, 81);
}

#[test]
fn data_files_exist_for_the_22_fivetran_tasks() {
    let suite = load();
    let with_data: Vec<_> = suite
        .tasks()
        .filter(|t| {
            t.source_tables()
                .iter()
                .all(|table| suite.data_path(&t.db, &table.name).is_some())
        })
        .map(|t| t.db.as_str())
        .collect();
    assert_eq!(with_data.len(), 22, "{with_data:?}");
    assert!(suite.data_path("amplitude", "EVENT").is_some());
    assert!(suite.gold_dir("amplitude").is_none());
}
