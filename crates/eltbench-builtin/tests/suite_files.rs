//! The committed built-in suite: its generated files are byte for byte what
//! the generator writes, and, counted from the files themselves, it covers
//! the five source kinds, the three file formats, at least 40 source tables
//! and 12 data models, each model with a gold dbt model, ground truth and a
//! testing query.

use std::collections::BTreeSet;

use eltbench_builtin::{check, default_root, generated_files, write};
use eltbench_task::{SourceKind, Suite};

#[test]
fn committed_files_are_what_the_generator_writes() {
    let stale = check(&default_root());
    assert!(
        stale.is_empty(),
        "out of date (run `cargo run -p eltbench-builtin --example write_suite`): {stale:?}"
    );
}

#[test]
fn regenerating_twice_gives_the_same_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let n = write(a.path()).unwrap();
    write(b.path()).unwrap();
    assert_eq!(n, generated_files().len());
    for rel in generated_files().keys() {
        assert_eq!(
            std::fs::read(a.path().join(rel)).unwrap(),
            std::fs::read(b.path().join(rel)).unwrap(),
            "{rel}"
        );
    }
    assert!(check(a.path()).is_empty());
    std::fs::write(a.path().join("data/clinic/doctors.csv"), "x\n").unwrap();
    assert_eq!(check(a.path()), ["data/clinic/doctors.csv"]);
}

fn formats(text: &str, out: &mut BTreeSet<String>) {
    let doc: serde_yaml::Value = serde_yaml::from_str(text).unwrap();
    if let Some(list) = doc["flat_files"].as_sequence() {
        out.extend(
            list.iter()
                .filter_map(|f| f["format"].as_str())
                .map(str::to_owned),
        );
    }
    if let Some(list) = doc["aws_s3"]["data"].as_sequence() {
        for path in list.iter().filter_map(|o| o["path"].as_str()) {
            out.extend(path.rsplit('.').next().map(str::to_owned));
        }
    }
}

#[test]
fn suite_covers_every_source_kind_format_and_enough_tables_and_models() {
    let root = default_root();
    let suite = Suite::load(&root).unwrap();
    let problems: Vec<String> = suite
        .validate()
        .iter()
        .filter(|p| p.is_error())
        .map(ToString::to_string)
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
    let (mut kinds, mut fmts, mut tables, mut models) = (BTreeSet::new(), BTreeSet::new(), 0, 0);
    for task in suite.tasks() {
        kinds.extend(task.source_kinds());
        formats(
            &std::fs::read_to_string(task.config_path()).unwrap(),
            &mut fmts,
        );
        tables += task.source_tables().len();
        let checks =
            std::fs::read_to_string(root.join(format!("verify/{}.yaml", task.db))).unwrap();
        for model in &task.models {
            models += 1;
            let gold = root.join(format!("gold/{}/models/{}.sql", task.db, model.name));
            assert!(gold.is_file(), "{} has no gold model", model.name);
            assert!(
                suite.ground_truth_path(&task.db, &model.name).is_some(),
                "{} has no gt",
                model.name
            );
            assert!(
                checks.contains(&format!("model: {}\n", model.name)),
                "{} has no testing query",
                model.name
            );
        }
    }
    assert_eq!(kinds, SourceKind::ALL.into_iter().collect());
    assert_eq!(
        fmts,
        ["csv", "jsonl", "parquet"]
            .map(String::from)
            .into_iter()
            .collect()
    );
    assert!(suite.tasks().count() >= 6);
    assert!(tables >= 40, "{tables} tables");
    assert!(models >= 12, "{models} models");
}

#[test]
fn every_column_kind_appears_in_the_gold() {
    let root = default_root();
    let mut sql = String::new();
    for entry in std::fs::read_dir(root.join("gold")).unwrap() {
        for model in std::fs::read_dir(entry.unwrap().path().join("models")).unwrap() {
            sql.push_str(
                &std::fs::read_to_string(model.unwrap().path())
                    .unwrap()
                    .to_lowercase(),
            );
        }
    }
    for (kind, needle) in [
        ("ranked", "row_number() over ("),
        ("categorical", "case\n"),
        ("aggregated", "group by"),
        ("derived", " || ' ' || "),
    ] {
        assert!(
            sql.contains(needle),
            "no {kind} column ({needle:?}) in the gold models"
        );
    }
}
