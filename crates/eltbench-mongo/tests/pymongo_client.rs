//! pymongo (from the repository's `.venv`, installed by `scripts/setup`) against the
//! endpoint: the same reads as the Rust driver test, run by `tests/pymongo_reads.py`,
//! whose JSON output is checked here against values computed from the fixture.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use common::{COLL, DB, sample, samples, server};
use eltbench_mongo::{Credentials, Store};
use serde_json::{Value, json};

const N: i32 = 1_000;

fn python() -> PathBuf {
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python3");
    assert!(
        python.exists(),
        "{} is missing: run scripts/setup to install pymongo",
        python.display()
    );
    python
}

fn run_script(args: &[&str]) -> Value {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/pymongo_reads.py");
    let output = Command::new(python())
        .arg(script)
        .args(args)
        .output()
        .expect("python runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "pymongo script failed: {stderr}");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("bad JSON ({e}): {stderr}"))
}

fn seeded_store() -> Store {
    let store = Store::new();
    store.insert_many(DB, COLL, samples(N));
    store
}

fn expected_find() -> Value {
    let mut rows: Vec<_> = samples(N)
        .into_iter()
        .filter(|d| {
            [1, 3].contains(&d.get_i32("group").unwrap()) && d.get_f64("price").unwrap() >= 10.0
        })
        .map(|d| json!({"name": d.get_str("name").unwrap(), "seq": d.get_i32("seq").unwrap()}))
        .collect();
    rows.reverse();
    Value::from(rows[2..7].to_vec())
}

fn expected_groups() -> Value {
    let mut groups: BTreeMap<i32, (i64, i64)> = BTreeMap::new();
    for d in (0..500).map(sample) {
        let g = groups.entry(d.get_i32("group").unwrap()).or_default();
        g.0 += i64::from(d.get_i32("seq").unwrap());
        g.1 += 1;
    }
    groups
        .into_iter()
        .map(|(id, (total, n))| json!({"_id": id, "total": total, "n": n}))
        .collect()
}

#[tokio::test]
async fn pymongo_reads_match_the_store() {
    let server = server(seeded_store(), None).await;
    let out = run_script(&[&server.uri(), DB, COLL]);
    assert_eq!(out["ping"], json!(1.0));
    assert_eq!(out["databases"], json!([DB]));
    assert_eq!(out["collections"], json!([COLL]));
    assert_eq!(out["count_all"], json!(N));
    let group2 = samples(N)
        .iter()
        .filter(|d| d.get_i32("group") == Ok(2))
        .count();
    assert_eq!(out["count_group2"], json!(group2));
    assert_eq!(out["estimated"], json!(N));
    assert_eq!(out["find"], expected_find());
    assert_eq!(out["scan_seqs"], json!((0..N).collect::<Vec<_>>()));
    assert_eq!(out["get_mores"], json!((N as usize).div_ceil(100) - 1));
    assert_eq!(out["groups"], expected_groups());
    assert_eq!(
        out["unknown"],
        json!({"code": 59, "codeName": "CommandNotFound", "errmsg": "no such command: 'frobnicate'"})
    );
    assert_eq!(out["ping_after"], json!(1.0));
}

#[tokio::test]
async fn pymongo_sees_bson_types_unchanged() {
    let server = server(seeded_store(), None).await;
    let out = run_script(&[&server.uri(), DB, COLL]);
    let types = json!({
        "_id": "ObjectId", "seq": "int", "big": "Int64", "price": "float", "name": "str",
        "group": "int", "created": "datetime", "dims": "dict", "tags": "list", "note": "NoneType",
    });
    assert_eq!(out["types"], types);
    let doc5 = json!({
        "seq": 5, "big": 5_000_000_035_i64, "price": 1.25, "name": "item-00005", "group": 5,
        "created": "2020-09-13T12:26:45", "dims": {"w": 5, "h": 2.5}, "tags": ["t2", "all"], "note": null,
    });
    assert_eq!(out["doc5"], doc5);
}

#[tokio::test]
async fn pymongo_authenticates_and_wrong_password_fails_with_code_18() {
    let server = server(seeded_store(), Some(Credentials::new("airbyte", "secret"))).await;
    let good = format!(
        "mongodb://airbyte:secret@{}/?directConnection=true",
        server.addr()
    );
    let out = run_script(&[&good, DB, COLL]);
    assert_eq!(out["count_all"], json!(N));
    let bad = format!(
        "mongodb://airbyte:nope@{}/?directConnection=true",
        server.addr()
    );
    let out = run_script(&[&bad, "--auth-failure"]);
    assert_eq!(
        out["failure"],
        json!({"code": 18, "codeName": "AuthenticationFailed", "errmsg": "Authentication failed."})
    );
}
