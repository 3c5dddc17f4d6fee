//! The endpoint driven by boto3 (the client Airbyte's S3 source and awscli build on),
//! path style and virtual-host style, through `tests/boto3_client.py`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{ACCESS_KEY, REGION, SECRET_KEY, md5_hex, repo_root, start};
use serde_json::{Value, json};

const BUCKET: &str = "address-bucket";

fn python() -> PathBuf {
    let python = repo_root().join(".venv/bin/python3");
    assert!(
        python.is_file(),
        "{} is missing: run scripts/setup to create the venv with boto3",
        python.display()
    );
    python
}

/// Runs the boto3 script against `endpoint` and parses its JSON output.
fn run_boto3(endpoint: &str, style: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/boto3_client.py");
    let out = Command::new(python())
        .arg(&script)
        .args([endpoint, BUCKET, style])
        .env("S3_ACCESS_KEY", ACCESS_KEY)
        .env("S3_SECRET_KEY", SECRET_KEY)
        .env("S3_REGION", REGION)
        .env_remove("AWS_PROFILE")
        .env("AWS_CONFIG_FILE", "/dev/null")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "boto3 script failed ({}):\n{stderr}",
        out.status
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("bad JSON from boto3 script: {e}\n{stderr}"))
}

fn body_of(key: &str) -> String {
    format!("id,name\n1,{key}\n2,second row of {key}\n")
}

fn quoted_md5(key: &str) -> Value {
    json!(format!("\"{}\"", md5_hex(body_of(key).as_bytes())))
}

fn check(out: &Value) {
    assert_eq!(out["buckets"], json!([BUCKET]));
    assert_eq!(out["location"], json!(REGION));
    for key in ["CBSA.jsonl", "geo/a b.csv", "geo/b.csv", "other/c.csv"] {
        assert_eq!(
            out["put_etags"][key],
            quoted_md5(key),
            "PutObject ETag of {key}"
        );
    }
    assert_eq!(
        out["prefix_geo"]["keys"],
        json!(["geo/a b.csv", "geo/b.csv"])
    );
    assert_eq!(out["v1_prefix_geo"], json!(["geo/a b.csv", "geo/b.csv"]));
    assert_eq!(
        out["delimited"],
        json!({"keys": ["CBSA.jsonl"], "prefixes": ["geo/", "other/"]})
    );
    assert_eq!(
        out["paged"],
        json!(["CBSA.jsonl", "geo/a b.csv", "geo/b.csv", "other/c.csv"])
    );

    let body = body_of("geo/a b.csv");
    assert_eq!(out["body"], json!(body));
    assert_eq!(out["range_body"], json!(body[2..=5]));
    assert_eq!(
        out["range_header"],
        json!(format!("bytes 2-5/{}", body.len()))
    );
    assert_eq!(
        out["head"],
        json!({"length": body.len(), "etag": quoted_md5("geo/a b.csv")})
    );

    let errors = json!({
        "missing_key": "NoSuchKey",
        "missing_bucket": "NoSuchBucket",
        "wrong_access_key": "InvalidAccessKeyId",
        "wrong_secret": "SignatureDoesNotMatch",
    });
    assert_eq!(out["errors"], errors);
    assert_eq!(
        out["after_delete"],
        json!(["CBSA.jsonl", "geo/a b.csv", "geo/b.csv"])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boto3_path_style() {
    let root = tempfile::tempdir().unwrap();
    let server = start(root.path()).await;
    let endpoint = server.endpoint_url();
    let out = tokio::task::spawn_blocking(move || run_boto3(&endpoint, "path"))
        .await
        .unwrap();
    check(&out);
    assert_eq!(out["bucket_hosts"], json!([]));
    assert!(root.path().join(BUCKET).join("geo/a b.csv").is_file());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boto3_virtual_host_style() {
    let root = tempfile::tempdir().unwrap();
    let server = start(root.path()).await;
    let endpoint = format!("http://localhost:{}", server.addr().port());
    let out = tokio::task::spawn_blocking(move || run_boto3(&endpoint, "virtual"))
        .await
        .unwrap();
    check(&out);
    assert_eq!(
        out["bucket_hosts"],
        json!(["address-bucket.localhost", "no-such-bucket.localhost"])
    );
}
