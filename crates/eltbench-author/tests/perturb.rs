//! `suite perturb` on the tiny shop task with its gold: the variant
//! validates, shares no table, column or model name with the source, its
//! values differ, and its gold run end to end (stage-1 oracle, gold dbt
//! models, ground truth recomputed) scores SRDEL = SRDT = 100%.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use eltbench_author::perturb_suite;
use eltbench_task::Suite;

use common::*;

/// Every table, column and model name of a suite (lower case).
fn names(root: &Path) -> BTreeSet<String> {
    let suite = Suite::load(root).unwrap();
    let mut out = BTreeSet::new();
    for task in suite.tasks() {
        for table in task.source_tables() {
            out.insert(table.name.to_ascii_lowercase());
            let path = suite.data_path(&task.db, &table.name).unwrap();
            let text = std::fs::read_to_string(path).unwrap();
            out.extend(
                text.lines()
                    .next()
                    .unwrap()
                    .split(',')
                    .map(str::to_ascii_lowercase),
            );
        }
        for schema in task.schemas.values() {
            out.extend(schema.columns.iter().map(|c| c.name.to_ascii_lowercase()));
        }
        for model in &task.models {
            out.insert(model.name.to_ascii_lowercase());
            out.extend(model.columns.iter().map(|c| c.name.to_ascii_lowercase()));
        }
    }
    out
}

fn source_suite(tmp: &Path) -> std::path::PathBuf {
    let src = tmp.join("suite");
    scaffold(&src);
    fill_task(&src);
    src
}

#[test]
fn a_perturbed_suite_validates_and_shares_no_name() {
    let tmp = open_tempdir();
    let src = source_suite(tmp.path());
    let dst = tmp.path().join("variant");
    let report = perturb_suite(&src, &dst, 42).unwrap();
    assert_eq!(report.tasks_with_gold, [DB]);
    let suite = Suite::load(&dst).unwrap();
    assert_eq!(errors(&suite), Vec::<String>::new());
    let (old, new) = (names(&src), names(&dst));
    assert_eq!(old.len(), new.len(), "{old:?}\n{new:?}");
    assert_eq!(old.intersection(&new).count(), 0, "{old:?}\n{new:?}");
    let words = |text: &str| -> BTreeSet<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_ascii_lowercase)
            .collect()
    };
    let everything = ["tasks", "gold", "data", "verify"]
        .iter()
        .flat_map(|d| walk(&dst.join(d)))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .chain(
            [
                "model_eval_keys.json",
                "source_row_counts.json",
                "postgres_ddl.json",
                "rest_api_streams.json",
                "mongodb_collections.json",
            ]
            .iter()
            .map(|f| std::fs::read_to_string(dst.join(f)).unwrap()),
        )
        .collect::<Vec<_>>()
        .join("\n");
    // `name` is also a key of the file formats (data_model.yaml, postgres_ddl.json).
    let structural: BTreeSet<String> = ["name"].map(String::from).into();
    let leaked: Vec<_> = words(&everything)
        .intersection(&old)
        .filter(|w| !structural.contains(*w))
        .cloned()
        .collect();
    assert_eq!(leaked, Vec::<String>::new());
    let again = tmp.path().join("again");
    perturb_suite(&src, &again, 42).unwrap();
    assert_eq!(walk(&again).len(), walk(&dst).len());
    for (a, b) in walk(&again).iter().zip(walk(&dst)) {
        assert_eq!(
            std::fs::read(a).unwrap(),
            std::fs::read(b).unwrap(),
            "{}",
            a.display()
        );
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn the_oracle_scores_100_percent_on_a_perturbed_suite() {
    let tmp = open_tempdir();
    let src = source_suite(tmp.path());
    let dst = tmp.path().join("variant");
    perturb_suite(&src, &dst, 7).unwrap();
    let dbt = toolchain();
    let v = eltbench_harness::oracle::verify_task(&dst, DB, &tmp.path().join("verify"), &dbt, true)
        .unwrap();
    assert!(v.score.srdel.passed, "{:?}", v.score.srdel);
    assert_eq!(v.score.models.len(), 1);
    assert_eq!(unmatched(&v), Vec::<String>::new());
    assert_eq!(v.problems(), Vec::<String>::new());
    assert_eq!(v.checks.len(), 2);
    assert_eq!(v.gt_written.len(), 1);
    let gt = std::fs::read_to_string(&v.gt_written[0]).unwrap();
    assert_eq!(gt.lines().count(), GT.lines().count(), "{gt}");
    assert_ne!(gt.lines().nth(1), GT.lines().nth(1), "{gt}");
}

/// The repository's built-in suite (SUITE's), perturbed: no name survives,
/// it validates, and the two tasks whose gold and testing queries carry
/// date and key literals still verify end to end with recomputed ground truth.
#[test]
fn the_builtin_suite_perturbed_still_verifies() {
    let builtin = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../suites/builtin");
    assert!(builtin.join("tasks").is_dir(), "suites/builtin is missing");
    let tmp = open_tempdir();
    let dst = tmp.path().join("variant");
    let report = perturb_suite(&builtin, &dst, 11).unwrap();
    assert_eq!(report.tasks_with_gold.len(), report.tasks.len());
    assert_eq!(errors(&Suite::load(&dst).unwrap()), Vec::<String>::new());
    let (old, new) = (names(&builtin), names(&dst));
    assert_eq!(old.intersection(&new).count(), 0);
    let dbt = toolchain();
    for db in ["saas_billing", "library"] {
        let work = tmp.path().join("verify").join(db);
        let v = eltbench_harness::oracle::verify_task(&dst, db, &work, &dbt, true).unwrap();
        assert!(v.score.srdel.passed, "{db}: {:?}", v.score.srdel);
        assert_eq!(v.problems(), Vec::<String>::new(), "{db}");
        assert!(!v.checks.is_empty(), "{db}");
    }
}
