//! All 22 tasks with real data come up with every source their config names, and every
//! table reads back through a real client of its kind (tokio-postgres, the official
//! MongoDB driver, reqwest for the REST API and flat files) with exactly
//! `source_row_counts.json` rows and the CSV's values; every MongoDB collection is
//! also read with pymongo (the venv of `scripts/setup`). Each environment is stopped
//! before the next starts; after each stop no port and no server process is left.

mod common;

use std::collections::BTreeMap;
use std::time::Instant;

use eltbench_sources::env::{EnvOptions, Environment};
use eltbench_task::{SourceKind, Suite};

use common::{clients, pyclients};

fn real_tasks() -> Vec<String> {
    let mut dbs: Vec<String> = std::fs::read_dir(common::suite().join("data"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dbs.sort();
    dbs
}

#[test]
fn every_real_data_task_comes_up_and_reads_back_exactly() {
    let suite = Suite::load(&common::suite()).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let tasks = real_tasks();
    assert_eq!(tasks.len(), 22);
    let mut per_kind: BTreeMap<SourceKind, usize> = BTreeMap::new();
    let mut pymongo_tables = 0;
    for db in &tasks {
        let tmp = tempfile::tempdir().unwrap();
        let run = tmp.path().join("run");
        let started = Instant::now();
        let env = Environment::start(&suite, db, EnvOptions::new(&run)).unwrap();
        let up = started.elapsed();
        let record = env.record().clone();
        let tables = clients::tables(&suite, db, None);
        let checked = rt.block_on(clients::check_all(&suite, &record, &tables));
        let expected = suite.expected_rows(db).unwrap();
        assert_eq!(checked.len(), expected.len(), "{db}: every table checked");
        for (kind, _) in checked.keys() {
            *per_kind.entry(*kind).or_default() += 1;
        }
        if record.endpoints.mongodb.is_some() {
            pymongo_tables +=
                pyclients::check_mongo_pymongo(&run.join("env.json"), &record, &tables);
        }
        let config = std::fs::read_to_string(run.join("config.yaml")).unwrap();
        for remote in ["elt-postgres", "elt-mongodb", "elt-api", "drive.google.com"] {
            assert!(
                !config.contains(remote),
                "{db}: {remote} left in config.yaml"
            );
        }
        assert!(config.contains("snowflake:"), "{db}: snowflake block kept");
        let ports = record.endpoints.ports();
        let data_dir = record.endpoints.postgres.as_ref().unwrap().data_dir.clone();
        env.stop().unwrap();
        for (kind, port) in &ports {
            assert!(
                !clients::port_open(*port),
                "{db}: {kind} port {port} still open"
            );
        }
        assert!(
            clients::processes_under(&data_dir).is_empty(),
            "{db}: processes left"
        );
        eprintln!("{db}: up in {up:.2?}, {} tables", checked.len());
    }
    assert_eq!(
        Some(&pymongo_tables),
        per_kind.get(&SourceKind::Mongodb),
        "every MongoDB collection read with pymongo"
    );
    // The 22 tasks use four of the five kinds (none has S3; see env_fixture.rs).
    for kind in [
        SourceKind::Postgres,
        SourceKind::Mongodb,
        SourceKind::CustomApi,
        SourceKind::FlatFiles,
    ] {
        assert!(
            per_kind.get(&kind).is_some_and(|n| *n > 0),
            "{kind} never checked"
        );
    }
}
