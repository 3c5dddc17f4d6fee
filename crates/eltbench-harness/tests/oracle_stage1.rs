//! The stage-1 oracle end to end: for each of the 22 tasks with real data, the
//! gold `main.tf` applied with eltbench's Terraform against the Airbyte API on
//! the real sync engine, one sync per connection, scores SRDEL = pass. A second
//! sync of one connection doubles exactly that connection's tables and fails
//! SRDEL, as in the original. Also: the gold `main.tf` of all 100 task configs
//! passes `terraform validate` and `terraform fmt -check`.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use eltbench_harness::oracle::{OracleRun, gold_main_tf, run_stage1_oracle, terraform_code};
use eltbench_score::TableStatus;
use eltbench_task::Suite;

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/elt-bench")
}

fn real_tasks() -> Vec<String> {
    let mut dbs: Vec<String> = std::fs::read_dir(suite_dir().join("data"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dbs.sort();
    dbs
}

/// A temp dir the `postgres` user can traverse.
fn open_tempdir() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    tmp
}

fn failures(score: &eltbench_score::TaskScore) -> Vec<String> {
    score
        .srdel
        .tables
        .iter()
        .filter(|(_, s)| !matches!(s, TableStatus::Ok { .. }))
        .map(|(t, s)| format!("{t}: {s:?}"))
        .collect()
}

#[test]
fn gold_main_tf_of_every_config_validates_and_is_formatted() {
    let tasks = std::fs::read_dir(suite_dir().join("tasks")).unwrap();
    let mut checked = 0;
    let mut problems = Vec::new();
    for entry in tasks {
        let dir = entry.unwrap().path();
        let db = dir.file_name().unwrap().to_string_lossy().into_owned();
        let config_path = dir.join("config.yaml");
        let mut doc: serde_yaml::Value =
            serde_yaml::from_str(&std::fs::read_to_string(&config_path).unwrap()).unwrap();
        if let Some(cfg) = doc.get_mut("custom_api").and_then(|b| b.get_mut("config")) {
            cfg["base_url"] = serde_yaml::Value::from("http://127.0.0.1:9");
        }
        let yaml = serde_yaml::to_string(&doc).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let warehouse = tmp.path().join(format!("{db}.duckdb"));
        let text = gold_main_tf(
            &yaml,
            &config_path,
            &warehouse,
            "http://127.0.0.1:9/api/public/v1",
        )
        .unwrap();
        assert!(text.contains("sync_mode = \"full_refresh_append\""), "{db}");
        assert!(
            text.contains("namespace_definition = \"destination\""),
            "{db}"
        );
        std::fs::write(tmp.path().join("main.tf"), &text).unwrap();
        for args in [&["init"][..], &["validate"], &["fmt", "-check"]] {
            let (code, out) = terraform_code(tmp.path(), args);
            if code != 0 {
                problems.push(format!(
                    "{db}: terraform {}: {}{}\n{text}",
                    args.join(" "),
                    out.stdout,
                    out.stderr
                ));
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 100);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn stage1_oracle_passes_srdel_on_every_real_data_task() {
    let suite = Suite::load(&suite_dir()).unwrap();
    let tasks = real_tasks();
    assert_eq!(tasks.len(), 22);
    let mut failed = Vec::new();
    for db in &tasks {
        let tmp = open_tempdir();
        let started = std::time::Instant::now();
        match run_stage1_oracle(&suite, db, &tmp.path().join("run")) {
            Ok(score) if score.srdel.passed => {
                eprintln!(
                    "{db}: SRDEL pass, {} tables, {:.1?}",
                    score.srdel.tables.len(),
                    started.elapsed()
                );
            }
            Ok(score) => failed.push(format!(
                "{db}: SRDEL failed ({:?}): {}",
                score.warehouse,
                failures(&score).join("; ")
            )),
            Err(e) => failed.push(format!("{db}: oracle error: {e}")),
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} tasks fail stage 1:\n{}",
        failed.len(),
        tasks.len(),
        failed.join("\n")
    );
}

#[test]
fn a_second_sync_of_one_connection_doubles_its_tables_and_fails_srdel() {
    let suite = Suite::load(&suite_dir()).unwrap();
    let db = "amplitude";
    let tmp = open_tempdir();
    let run = OracleRun::start(&suite, db, &tmp.path().join("run")).unwrap();
    run.sync_all().unwrap();
    let postgres = run.connections()["postgres"].clone();
    run.sync(&postgres).unwrap();
    let score = run.score(&suite).unwrap();
    assert!(
        !score.srdel.passed,
        "{db}: SRDEL passed after a double sync"
    );
    let task = suite.task(db).unwrap();
    let pg_tables: Vec<String> = task
        .config
        .postgres
        .as_ref()
        .unwrap()
        .tables
        .iter()
        .map(|t| t.to_lowercase())
        .collect();
    for (table, status) in &score.srdel.tables {
        let want = suite.expected_rows_for(db, table).unwrap();
        if pg_tables.contains(&table.to_lowercase()) && want > 0 {
            assert_eq!(
                status,
                &TableStatus::WrongCount {
                    expected: want,
                    actual: 2 * want
                },
                "{db}.{table}"
            );
        } else {
            assert_eq!(status, &TableStatus::Ok { rows: want }, "{db}.{table}");
        }
    }
}
