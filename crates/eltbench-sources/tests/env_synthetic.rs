//! All 100 original tasks come up with synthetic data at a small scale: for each
//! task, `eltbench-synth` writes capped canonical CSVs into a generated suite, the
//! environment brings every source of the task's config up from them, and every
//! table reads back through a real client of its kind with exactly the capped row
//! count and the generated values. Each environment is stopped before the next
//! starts; after each stop no port and no server process is left.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use eltbench_sources::env::{EnvOptions, Environment};
use eltbench_synth::{SynthOptions, Synthesizer};
use eltbench_task::{SourceKind, Suite};

use common::clients;

/// Rows per table: small enough to keep the loop over 100 tasks to minutes.
const SCALE: u64 = 20;

fn link_hint_files(from: &Path, to: &Path) {
    for name in ["postgres_ddl.json", "rest_api_streams.json"] {
        std::os::unix::fs::symlink(from.join(name), to.join(name)).unwrap();
    }
}

#[test]
fn every_original_task_comes_up_with_synthetic_data() {
    let original = Suite::load(&common::suite()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let generated = tmp.path().join("suite");
    let options = SynthOptions {
        seed: 7,
        max_rows: Some(SCALE),
    };
    let synth = Synthesizer::new(&original, options).unwrap();
    let dbs: Vec<String> = original.tasks().map(|t| t.db.clone()).collect();
    assert_eq!(dbs.len(), 100);
    for db in &dbs {
        synth.synthesize(db, &generated).unwrap();
    }
    link_hint_files(&common::suite(), &generated);
    let suite = Suite::load(&generated).unwrap();

    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut per_kind: BTreeMap<SourceKind, usize> = BTreeMap::new();
    for db in &dbs {
        let run = tmp.path().join("runs").join(db);
        let env = Environment::start(&suite, db, EnvOptions::new(&run))
            .unwrap_or_else(|e| panic!("{db}: {e}"));
        let record = env.record().clone();
        let tables = clients::tables(&suite, db, None);
        let checked = rt.block_on(clients::check_all(&suite, &record, &tables));
        let expected = suite.expected_rows(db).unwrap();
        assert_eq!(checked.len(), expected.len(), "{db}: every table checked");
        for (kind, _) in checked.keys() {
            *per_kind.entry(*kind).or_default() += 1;
        }
        let ports = record.endpoints.ports();
        let data_dir = record
            .endpoints
            .postgres
            .as_ref()
            .map(|p| p.data_dir.clone());
        env.stop().unwrap();
        for (kind, port) in &ports {
            assert!(!clients::port_open(*port), "{db}: {kind} port {port} open");
        }
        if let Some(dir) = data_dir {
            assert!(
                clients::processes_under(&dir).is_empty(),
                "{db}: processes left"
            );
        }
    }
    let total: usize = per_kind.values().sum();
    assert_eq!(
        total, 835,
        "every source table of the 100 tasks: {per_kind:?}"
    );
    assert_eq!(per_kind.len(), 5, "all five source kinds: {per_kind:?}");
}
