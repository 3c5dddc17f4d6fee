//! `eltbench tasks verify` on the built-in suite, end to end with the real
//! sources, Airbyte engine, Terraform and dbt: every task's gold reaches SRDEL
//! and SRDT 100% with every testing query passing, and a wrong gold model (in
//! a copy of the suite) makes the command exit 1 naming the model. The dbt
//! toolchain is the one under eltbench's home (`eltbench setup` installs it).

use std::path::{Path, PathBuf};
use std::process::Command;

fn builtin() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../suites/builtin")
}

fn verify(suite: &Path, db: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_eltbench"))
        .args(["tasks", "verify", db, "--suite"])
        .arg(suite)
        .output()
        .expect("run eltbench");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn every_builtin_task_verifies_with_its_gold() {
    let tasks: Vec<String> = std::fs::read_dir(builtin().join("tasks"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(tasks.len() >= 6);
    let mut failed = Vec::new();
    for db in &tasks {
        let (code, text) = verify(&builtin(), db);
        let models = text
            .lines()
            .find(|l| l.starts_with(&format!("{db}: SRDEL pass, SRDT ")));
        let full = models.is_some_and(|l| {
            let srdt = l
                .split("SRDT ")
                .nth(1)
                .and_then(|s| s.split(' ').next())
                .unwrap_or("");
            let (m, n) = srdt.split_once('/').unwrap_or(("0", "1"));
            m == n && m != "0"
        });
        if code != 0 || !full {
            failed.push(format!("{db} exit {code}:\n{text}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn a_wrong_gold_model_fails_verification_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("suite");
    copy_dir(&builtin(), &suite);
    let model = suite.join("gold/retail_store/models/category_sales.sql");
    let sql = std::fs::read_to_string(&model).unwrap();
    // An off-by-one threshold a hurried author might write: units double counted.
    let wrong = sql.replace(
        "coalesce(sum(l.quantity), 0) as units_sold",
        "coalesce(sum(l.quantity) * 2, 0) as units_sold",
    );
    assert_ne!(sql, wrong);
    std::fs::write(&model, wrong).unwrap();
    let gt_before = std::fs::read(suite.join("gt/retail_store/category_sales.csv")).unwrap();
    let (code, text) = verify(&suite, "retail_store");
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("model category_sales"), "{text}");
    assert!(text.contains("units_sold"), "{text}");
    assert!(text.contains("units sold add up"), "{text}");
    let gt_after = std::fs::read(suite.join("gt/retail_store/category_sales.csv")).unwrap();
    assert_eq!(
        gt_before, gt_after,
        "ground truth rewritten without --write-gt"
    );
}
