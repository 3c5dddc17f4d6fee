//! The fixture task `shop` uses all five source kinds, S3 and flat files in csv, jsonl
//! and parquet: everything reads back through real clients (aws-sdk-s3 included), the
//! run files say where everything is, and pymongo and boto3 read the same data.

mod common;

use std::path::PathBuf;
use std::process::Command;

use eltbench_sources::env::{EnvOptions, EnvRecord, Environment, status};
use eltbench_task::{SourceKind, Suite};

use common::clients;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/env-suite")
}

fn python() -> PathBuf {
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python3");
    assert!(
        python.exists(),
        "{} is missing: run scripts/setup (it creates the venv with pymongo and boto3)",
        python.display()
    );
    python
}

#[test]
fn all_five_kinds_read_back_and_the_run_files_describe_them() {
    let suite = Suite::load(&fixture()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let env = Environment::start(&suite, "shop", EnvOptions::new(&run)).unwrap();
    let record = env.record().clone();
    let tables = clients::tables(&suite, "shop", None);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let checked = rt.block_on(clients::check_all(&suite, &record, &tables));
    let kinds: std::collections::BTreeSet<_> = checked.keys().map(|(k, _)| *k).collect();
    assert_eq!(kinds.len(), 5, "{kinds:?}");
    assert_eq!(checked.len(), 10);
    assert_eq!(checked[&(SourceKind::Postgres, "orders".into())], 3);

    // The S3 listing holds exactly the configured objects.
    let listed = rt.block_on(async {
        let out = clients::s3_client(&record)
            .list_objects_v2()
            .bucket("shop-bucket")
            .send()
            .await
            .unwrap();
        let mut keys: Vec<String> = out
            .contents()
            .iter()
            .filter_map(|o| o.key().map(str::to_owned))
            .collect();
        keys.sort();
        keys
    });
    assert_eq!(listed, ["prices.parquet", "raw/events.jsonl", "stock.csv"]);

    // env.json round-trips; env.sh exports; config.yaml points at the endpoints.
    assert_eq!(EnvRecord::read(&run).unwrap(), record);
    let sh = std::fs::read_to_string(run.join("env.sh")).unwrap();
    let pg = record.endpoints.postgres.as_ref().unwrap();
    assert!(sh.contains(&format!("export PGPORT='{}'", pg.port)), "{sh}");
    assert!(sh.contains("export AWS_ACCESS_KEY_ID='test'"), "{sh}");
    let config: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(run.join("config.yaml")).unwrap()).unwrap();
    assert_eq!(config["postgres"]["config"]["host"], "127.0.0.1");
    assert_eq!(config["postgres"]["config"]["port"], u64::from(pg.port));
    let s3 = record.endpoints.aws_s3.as_ref().unwrap();
    assert_eq!(
        config["aws_s3"]["AWS_ENDPOINT_URL"],
        s3.endpoint_url.as_str()
    );
    assert_eq!(config["aws_s3"]["AWS_DEFAULT_REGION"], "us-west-2");
    let files = record.endpoints.flat_files.as_ref().unwrap();
    assert_eq!(
        config["flat_files"][2]["path"],
        files.urls["prices_hist"].as_str()
    );
    assert!(files.urls["prices_hist"].ends_with("/shop/prices_hist.parquet"));
    let api = record.endpoints.custom_api.as_ref().unwrap();
    assert_eq!(
        config["custom_api"]["config"]["base_url"],
        api.base_url.as_str()
    );
    assert_eq!(config["snowflake"]["config"]["password"], "Snowflake@123");

    let now = status(&run).unwrap();
    assert!(now.all_up(), "{now:?}");
    let ports = record.endpoints.ports();
    env.stop().unwrap();
    for port in ports.values() {
        assert!(!clients::port_open(*port), "port {port} still open");
    }
    assert!(clients::processes_under(&run).is_empty());
    assert!(!status(&run).unwrap().running || status(&run).unwrap().pid == std::process::id());
}

const PY_READER: &str = r#"
import json, sys
import boto3, pymongo
from botocore.config import Config
env = json.load(open(sys.argv[1]))
ep = env["endpoints"]
m = pymongo.MongoClient(ep["mongodb"]["uri"])
docs = list(m[ep["mongodb"]["database"]]["customers"].find({}, {"_id": 0}))
s3 = ep["aws_s3"]
client = boto3.client("s3", endpoint_url=s3["endpoint_url"], region_name=s3["region"],
    aws_access_key_id=s3["access_key_id"], aws_secret_access_key=s3["secret_access_key"],
    config=Config(s3={"addressing_style": "path"}))
keys = sorted(o["Key"] for o in client.list_objects_v2(Bucket="shop-bucket")["Contents"])
stock = client.get_object(Bucket="shop-bucket", Key="stock.csv")["Body"].read().decode()
print(json.dumps({"docs": [{k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in d.items()} for d in docs],
                  "types": [{k: type(v).__name__ for k, v in d.items()} for d in docs],
                  "keys": keys, "stock": stock}))
"#;

#[test]
fn pymongo_and_boto3_read_the_fixture_task() {
    let python = python();
    let suite = Suite::load(&fixture()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let env = Environment::start(&suite, "shop", EnvOptions::new(&run)).unwrap();
    let out = Command::new(python)
        .arg("-c")
        .arg(PY_READER)
        .arg(run.join("env.json"))
        .output()
        .unwrap();
    env.stop().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let docs = got["docs"].as_array().unwrap();
    assert_eq!(docs.len(), 3);
    assert_eq!(got["docs"][0]["name"], "Ada");
    assert_eq!(got["docs"][0]["big"], 75_805_000_264_i64);
    assert_eq!(got["docs"][0]["balance"], 100.25);
    assert_eq!(got["docs"][0]["vip"], true);
    assert_eq!(got["docs"][0]["joined"], "2020-05-01T00:00:00");
    // pymongo decodes BSON Int64 as `bson.int64.Int64` (an int subclass), Int32 as int.
    assert_eq!(got["types"][0]["big"], "Int64");
    assert_eq!(got["types"][0]["score"], "int");
    assert_eq!(got["types"][0]["balance"], "float");
    assert_eq!(got["types"][0]["joined"], "datetime");
    // Empty CSV fields are left out of the document.
    assert!(got["docs"][1].get("joined").is_none() && got["docs"][1].get("score").is_none());
    assert_eq!(got["docs"][2]["name"], "Chloé \"C\"");
    assert_eq!(
        got["keys"],
        serde_json::json!(["prices.parquet", "raw/events.jsonl", "stock.csv"])
    );
    let csv = std::fs::read_to_string(fixture().join("data/shop/stock.csv")).unwrap();
    assert_eq!(got["stock"], csv.as_str());
}
