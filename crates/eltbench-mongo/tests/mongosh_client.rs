//! mongosh (installed into `target/mongosh` by `scripts/setup`) against the endpoint:
//! `tests/mongosh_reads.js` reads catalog, filtered/sorted/projected rows, a batched
//! scan, an aggregate and an unknown command, and prints canonical Extended JSON that
//! is checked here, types included.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use common::{COLL, DB, sample, samples, server};
use eltbench_mongo::Store;
use serde_json::{Value, json};

const N: i32 = 1_000;

fn mongosh() -> PathBuf {
    let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/mongosh/node_modules/.bin/mongosh");
    assert!(
        bin.exists(),
        "{} is missing: run scripts/setup to install mongosh",
        bin.display()
    );
    bin
}

fn int(n: i64) -> Value {
    json!({"$numberInt": n.to_string()})
}

#[tokio::test]
async fn mongosh_reads_match_the_store() {
    let store = Store::new();
    store.insert_many(DB, COLL, samples(N));
    let server = server(store, None).await;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mongosh_reads.js");
    let output = Command::new(mongosh())
        .args([server.uri().as_str(), "--quiet", "--norc", "--file"])
        .arg(script)
        .env("ELTBENCH_DB", DB)
        .env("ELTBENCH_COLL", COLL)
        .output()
        .expect("mongosh runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "mongosh failed: {stderr}");
    let out: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "bad JSON ({e}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    });

    assert_eq!(out["databases"], json!([DB]));
    assert_eq!(out["collections"], json!([COLL]));
    let group2 = samples(N)
        .iter()
        .filter(|d| d.get_i32("group") == Ok(2))
        .count();
    assert_eq!(out["count_group2"], int(group2 as i64));
    let mut find: Vec<Value> = samples(N)
        .into_iter()
        .filter(|d| [1, 3].contains(&d.get_i32("group").unwrap()) && d.get_f64("price").unwrap() >= 10.0)
        .map(|d| json!({"seq": int(d.get_i32("seq").unwrap().into()), "name": d.get_str("name").unwrap()}))
        .collect();
    find.reverse();
    assert_eq!(out["find"], Value::from(find[2..7].to_vec()));
    assert_eq!(
        out["seqs"],
        (0..N).map(|i| int(i.into())).collect::<Value>()
    );
    let doc5 = json!({
        "seq": int(5), "big": {"$numberLong": "5000000035"}, "price": {"$numberDouble": "1.25"},
        "name": "item-00005", "group": int(5), "created": {"$date": {"$numberLong": "1600000005000"}},
        "dims": {"w": int(5), "h": {"$numberDouble": "2.5"}}, "tags": ["t2", "all"], "note": null,
    });
    assert_eq!(out["doc5"], doc5);
    let mut groups: BTreeMap<i32, i64> = BTreeMap::new();
    for d in (0..500).map(sample) {
        *groups.entry(d.get_i32("group").unwrap()).or_default() += 1;
    }
    let groups: Value = groups
        .into_iter()
        .map(|(g, n)| json!({"_id": int(g.into()), "n": int(n)}))
        .collect();
    assert_eq!(out["groups"], groups);
    let unknown = json!({"code": int(59), "codeName": "CommandNotFound", "errmsg": "no such command: 'frobnicate'"});
    assert_eq!(out["unknown"], unknown);
    assert_eq!(out["ping_after"], int(1), "a JS number 1 prints as an int");
}
