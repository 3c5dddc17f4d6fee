//! All 100 tasks of the compatibility test bed (`../shared/elt-bench`)
//! generate at 50 rows per table, with exact capped counts, schema headers,
//! unique primary keys and foreign keys that join; the output is a suite
//! that loads and validates; generation is deterministic.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use eltbench_synth::{Kind, Source, SynthOptions, SynthReport, Synthesizer, TaskPlan};
use eltbench_task::{Severity, Suite};

const CAP: u64 = 50;

fn suite_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench")
}

fn load() -> Suite {
    let root = suite_root();
    assert!(
        root.join("tasks").is_dir(),
        "test bed missing at {}",
        root.display()
    );
    Suite::load(&root).unwrap()
}

fn options(seed: u64) -> SynthOptions {
    SynthOptions {
        seed,
        max_rows: Some(CAP),
    }
}

/// Generates `dbs` on two threads; reports sorted by db.
fn generate(synth: &Synthesizer<'_>, dbs: &[String], out: &Path) -> Vec<SynthReport> {
    let halves: Vec<&[String]> = dbs.chunks(dbs.len().div_ceil(2).max(1)).collect();
    let mut reports: Vec<SynthReport> = std::thread::scope(|scope| {
        let handles: Vec<_> = halves
            .iter()
            .map(|half| {
                scope.spawn(move || {
                    half.iter()
                        .map(|db| synth.synthesize(db, out).unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    reports.sort_by(|a, b| a.db.cmp(&b.db));
    reports
}

/// `(header, rows)` of a generated CSV.
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect();
    (header, rows)
}

fn column<'a>(header: &[String], rows: &'a [Vec<String>], name: &str) -> Vec<&'a str> {
    let i = header.iter().position(|h| h == name).unwrap();
    rows.iter().map(|r| r[i].as_str()).collect()
}

#[test]
fn every_task_generates_with_counts_headers_keys_and_types() {
    let suite = load();
    let synth = Synthesizer::new(&suite, options(7)).unwrap();
    let out = tempfile::tempdir().unwrap();
    let dbs: Vec<String> = suite.tasks().map(|t| t.db.clone()).collect();
    assert_eq!(dbs.len(), 100);
    let started = std::time::Instant::now();
    let reports = generate(&synth, &dbs, out.path());
    eprintln!("generated 100 tasks in {:?}", started.elapsed());
    let (mut tables, mut fks, mut pks) = (0, 0, 0);
    for report in &reports {
        let task = suite.task(&report.db).unwrap();
        let plan = synth.plan(&report.db).unwrap();
        let data: BTreeMap<&str, (Vec<String>, Vec<Vec<String>>)> = report
            .tables
            .iter()
            .map(|t| (t.table.as_str(), read_csv(&t.path)))
            .collect();
        for table in &plan.tables {
            let (header, rows) = &data[table.table.as_str()];
            let schema = task.schema(&table.table).unwrap();
            let names: Vec<&str> = schema.columns.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(header, &names, "{}.{} header", report.db, table.table);
            let expected = suite
                .expected_rows_for(&report.db, &table.table)
                .unwrap()
                .min(CAP);
            assert_eq!(
                rows.len() as u64,
                expected,
                "{}.{} rows",
                report.db,
                table.table
            );
            check_primary_key(&report.db, &table.table, &table.primary_key, header, rows);
            fks += check_foreign_keys(&report.db, table, header, rows, &data);
            check_kinds(&report.db, table, header, rows);
            pks += usize::from(!table.primary_key.is_empty());
            tables += 1;
        }
    }
    eprintln!("{tables} tables, {pks} with a primary key, {fks} foreign keys");
    assert_eq!(tables, 835);
    assert!(
        pks > 300 && fks > 150,
        "{pks} primary keys, {fks} foreign keys"
    );
}

fn check_primary_key(
    db: &str,
    table: &str,
    key: &[String],
    header: &[String],
    rows: &[Vec<String>],
) {
    if key.is_empty() {
        return;
    }
    let parts: Vec<Vec<&str>> = key.iter().map(|k| column(header, rows, k)).collect();
    let mut seen = BTreeSet::new();
    for row in 0..rows.len() {
        let tuple: Vec<&str> = parts.iter().map(|p| p[row]).collect();
        assert!(
            tuple.iter().all(|v| !v.is_empty()),
            "{db}.{table}: NULL in key {key:?}"
        );
        assert!(
            seen.insert(tuple.clone()),
            "{db}.{table}: duplicate key {tuple:?}"
        );
    }
}

fn check_foreign_keys(
    db: &str,
    table: &eltbench_synth::TablePlan,
    header: &[String],
    rows: &[Vec<String>],
    data: &BTreeMap<&str, (Vec<String>, Vec<Vec<String>>)>,
) -> usize {
    let fks = table.foreign_keys();
    for (name, reference) in &fks {
        let (parent_header, parent_rows) = &data[reference.table.as_str()];
        let keys: BTreeSet<&str> = column(parent_header, parent_rows, &reference.column)
            .into_iter()
            .collect();
        for value in column(header, rows, name) {
            assert!(
                keys.contains(value),
                "{db}.{}.{name} = {value:?} is not a key of {}.{}",
                table.table,
                reference.table,
                reference.column
            );
        }
    }
    fks.len()
}

fn check_kinds(
    db: &str,
    table: &eltbench_synth::TablePlan,
    header: &[String],
    rows: &[Vec<String>],
) {
    for c in &table.columns {
        if !matches!(c.source, Source::Random) {
            continue;
        }
        for value in column(header, rows, &c.name)
            .into_iter()
            .filter(|v| !v.is_empty())
        {
            let ok = match c.ty.kind {
                Kind::Int => value.parse::<i64>().is_ok(),
                Kind::Decimal { scale } => {
                    value.parse::<f64>().is_ok()
                        && value.split_once('.').map_or(0, |(_, f)| f.len()) == usize::from(scale)
                }
                Kind::Float => value.parse::<f64>().is_ok(),
                Kind::Bool => value == "true" || value == "false",
                Kind::Date => chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").is_ok(),
                Kind::Timestamp => {
                    chrono::NaiveDateTime::parse_from_str(value, "%Y-%m-%d %H:%M:%S").is_ok()
                }
                Kind::Text { max_len } => {
                    max_len.is_none_or(|n| value.chars().count() <= n as usize)
                }
            };
            assert!(
                ok,
                "{db}.{}.{}: {value:?} is not a {:?}",
                table.table, c.name, c.ty.kind
            );
        }
    }
}

#[test]
fn the_generated_suite_loads_validates_and_expects_the_capped_counts() {
    let suite = load();
    let synth = Synthesizer::new(&suite, options(3)).unwrap();
    let out = tempfile::tempdir().unwrap();
    let dbs: Vec<String> = ["address", "airline", "ice_hockey_draft", "simpson_episodes"]
        .map(String::from)
        .to_vec();
    generate(&synth, &dbs, out.path());
    let generated = Suite::load(out.path()).unwrap();
    let errors: Vec<String> = generated
        .validate()
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(generated.tasks().count(), 4);
    for db in &dbs {
        for table in generated.task(db).unwrap().source_tables() {
            let original = suite.expected_rows_for(db, &table.name).unwrap();
            assert_eq!(
                generated.expected_rows_for(db, &table.name),
                Some(original.min(CAP))
            );
            assert!(
                generated.data_path(db, &table.name).is_some(),
                "{db}.{}",
                table.name
            );
        }
    }
    // ice_hockey_draft writes `SeasonStatus` in the counts, `seasonstatus` in config.yaml.
    assert_eq!(
        generated.expected_rows_for("ice_hockey_draft", "seasonstatus"),
        Some(CAP)
    );
    let key = generated
        .eval_key("simpson_episodes", "simpson_episodes__episode")
        .unwrap();
    assert_eq!(key.order_by, Some(vec!["episode_id".to_owned()]));
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for db in std::fs::read_dir(dir.join("data")).unwrap() {
        let db = db.unwrap().path();
        for file in std::fs::read_dir(&db).unwrap() {
            let path = file.unwrap().path();
            let key = path.strip_prefix(dir).unwrap().display().to_string();
            out.insert(key, std::fs::read(&path).unwrap());
        }
    }
    out
}

#[test]
fn output_depends_on_seed_db_and_table_only() {
    let suite = load();
    let dbs: Vec<String> = ["movie_3", "address", "formula_1", "zuora"]
        .map(String::from)
        .to_vec();
    let run = |seed, dbs: &[String]| {
        let synth = Synthesizer::new(&suite, options(seed)).unwrap();
        let out = tempfile::tempdir().unwrap();
        generate(&synth, dbs, out.path());
        files(out.path())
    };
    let first = run(11, &dbs);
    let reversed: Vec<String> = dbs.iter().rev().cloned().collect();
    assert_eq!(
        first,
        run(11, &reversed),
        "same seed, other order: same bytes"
    );
    let alone = run(11, &dbs[1..2]);
    assert!(!alone.is_empty());
    for (path, bytes) in &alone {
        assert_eq!(
            Some(bytes),
            first.get(path),
            "{path} differs when generated alone"
        );
    }
    let other = run(12, &dbs);
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        other.keys().collect::<Vec<_>>()
    );
    let same: Vec<&String> = first
        .keys()
        .filter(|path| other[*path] == first[*path])
        .collect();
    // Only tables made of key columns alone (keys are numbered, not drawn) may stay.
    let synth = Synthesizer::new(&suite, options(11)).unwrap();
    for path in &same {
        let (db, table) = path
            .trim_start_matches("data/")
            .trim_end_matches(".csv")
            .split_once('/')
            .unwrap();
        let plan = synth.plan(db).unwrap();
        let table = plan.tables.iter().find(|t| t.table == table).unwrap();
        assert!(
            table
                .columns
                .iter()
                .all(|c| matches!(c.source, Source::Key { .. })),
            "{path} did not change with the seed"
        );
    }
    assert!(same.len() * 10 < first.len(), "{same:?}");
}

#[test]
fn plans_infer_the_known_joins_of_the_test_bed() {
    let suite = load();
    let synth = Synthesizer::new(&suite, options(1)).unwrap();
    let plan: TaskPlan = synth.plan("address").unwrap();
    let area = plan.tables.iter().find(|t| t.table == "area_code").unwrap();
    assert_eq!(area.primary_key, ["zip_code", "area_code"]);
    let fks: Vec<(&str, &str)> = area
        .foreign_keys()
        .iter()
        .map(|(c, r)| (*c, r.table.as_str()))
        .collect();
    assert_eq!(fks, [("zip_code", "zip_data")]);
    let plan = synth.plan("movie_3").unwrap();
    let rental = plan.tables.iter().find(|t| t.table == "rental").unwrap();
    assert_eq!(rental.primary_key, ["rental_id"]);
    let referenced: BTreeSet<&str> = rental
        .foreign_keys()
        .iter()
        .map(|(_, r)| r.table.as_str())
        .collect();
    assert!(referenced.contains("inventory"), "{referenced:?}");
}

#[test]
fn the_suite_itself_is_never_the_output() {
    let suite = load();
    let err =
        eltbench_synth::synthesize_task(&suite, "address", &options(1), &suite_root()).unwrap_err();
    assert!(
        err.to_string()
            .contains("the output directory is the suite itself"),
        "{err}"
    );
}
