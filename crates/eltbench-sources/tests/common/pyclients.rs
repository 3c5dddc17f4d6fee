//! Reading an environment's MongoDB collections with pymongo (the venv of
//! `scripts/setup`) and comparing them with the canonical CSV tables, the same way
//! `clients::check_mongo` does for the Rust driver.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use eltbench_sources::Table;
use eltbench_sources::env::{EnvRecord, TaskTables};
use eltbench_task::SourceKind;

use super::readback::{Got, Typing, check_rows};

/// `<repo>/.venv/bin/python3`; panics with the fix when it is missing.
pub fn python() -> PathBuf {
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python3");
    assert!(
        python.exists(),
        "{} is missing: run scripts/setup (it creates the venv with pymongo and boto3)",
        python.display()
    );
    python
}

/// Every value is tagged with its Python type, numbers as text (exact round trip).
const PY_MONGO_READER: &str = r#"
import datetime, json, sys
import pymongo
ep = json.load(open(sys.argv[1]))["endpoints"]["mongodb"]
client = pymongo.MongoClient(ep["uri"])
db = client[ep["database"]]
def enc(v):
    if isinstance(v, bool): return ["b", v]
    if isinstance(v, int): return ["i", str(v)]
    if isinstance(v, float): return ["f", repr(v)]
    if isinstance(v, datetime.datetime):
        return ["t", "%04d-%02d-%02d %02d:%02d:%02d.%03d" % (v.year, v.month, v.day,
                v.hour, v.minute, v.second, v.microsecond // 1000)]
    if isinstance(v, str): return ["s", v]
    return ["?", type(v).__name__]
out = {}
for name in sorted(db.list_collection_names()):
    docs = [{k: enc(v) for k, v in d.items() if k != "_id"} for d in db[name].find({})]
    out[name] = {"count": db[name].count_documents({}), "docs": docs}
print(json.dumps(out))
"#;

fn got(table: &Table, tagged: &serde_json::Value) -> Got {
    let (tag, value) = (tagged[0].as_str().unwrap(), &tagged[1]);
    match tag {
        "b" => Got::Bool(value.as_bool().unwrap()),
        "i" => Got::Int(value.as_str().unwrap().parse().unwrap()),
        "f" => Got::Float(value.as_str().unwrap().parse().unwrap()),
        "t" => Got::Time(value.as_str().unwrap().to_owned()),
        "s" => Got::Str(value.as_str().unwrap().to_owned()),
        _ => panic!("pymongo {}: unexpected Python type {value}", table.name),
    }
}

/// Reads every collection of `record` with pymongo; checks that exactly the task's
/// collections exist, with the CSV's row counts and values. Returns tables checked.
pub fn check_mongo_pymongo(env_json: &Path, record: &EnvRecord, tables: &TaskTables) -> usize {
    let out = Command::new(python())
        .arg("-c")
        .arg(PY_MONGO_READER)
        .arg(env_json)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: pymongo reader failed: {}",
        record.db,
        String::from_utf8_lossy(&out.stderr)
    );
    let read: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let read = read.as_object().unwrap();
    let mongo: Vec<&Table> = tables
        .tables
        .iter()
        .filter(|(kind, _)| *kind == SourceKind::Mongodb)
        .map(|(_, t)| t)
        .collect();
    let mut names: Vec<&str> = mongo.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    let listed: Vec<&str> = read.keys().map(String::as_str).collect();
    assert_eq!(
        listed, names,
        "{}: pymongo list_collection_names",
        record.db
    );
    for table in mongo {
        let coll = &read[&table.name];
        assert_eq!(
            coll["count"].as_u64().unwrap() as usize,
            table.len(),
            "pymongo {}: count_documents",
            table.name
        );
        let rows: Vec<Vec<Got>> = coll["docs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|doc| {
                let doc = doc.as_object().unwrap();
                for key in doc.keys() {
                    assert!(
                        table.columns.iter().any(|c| &c.name == key),
                        "pymongo {}: unexpected field {key}",
                        table.name
                    );
                }
                table
                    .columns
                    .iter()
                    .map(|c| doc.get(&c.name).map_or(Got::Null, |v| got(table, v)))
                    .collect()
            })
            .collect();
        check_rows(
            &format!("pymongo {}", table.name),
            table,
            Typing::Native,
            &rows,
        );
    }
    names.len()
}
