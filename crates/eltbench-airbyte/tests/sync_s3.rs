//! The S3 source against eltbench's S3 endpoint (SigV4, path style) read through
//! aws-sdk-s3: globs over several files, csv/jsonl/parquet formats, the file columns
//! the file-based CDK adds, and missing bucket / no match / bad key failures.

mod sync_common;

use std::net::SocketAddr;
use std::path::Path;

use eltbench_s3::{Credentials, S3Server, create_bucket, put_object};
use serde_json::{Value, json};
use sync_common::{Env, columns, count, query};

struct S3 {
    server: S3Server,
    _runtime: tokio::runtime::Runtime,
    _root: tempfile::TempDir,
}

fn parquet_bytes(dir: &Path) -> Vec<u8> {
    let path = dir.join("f.parquet");
    let conn = duckdb::Connection::open_in_memory().expect("duckdb");
    conn.execute_batch(&format!(
        "COPY (SELECT CAST(i AS BIGINT) AS id, i * 0.5 AS v FROM range(4) r(i)) TO '{}' (FORMAT parquet)",
        path.display()
    ))
    .expect("parquet");
    std::fs::read(path).expect("read")
}

fn start() -> S3 {
    let root = tempfile::tempdir().expect("tempdir");
    create_bucket(root.path(), "shop").expect("bucket");
    put_object(
        root.path(),
        "shop",
        "users/part1.csv",
        b"id,name\n1,a\n2,b\n",
    )
    .expect("put");
    put_object(root.path(), "shop", "users/part2.csv", b"id,name\n3,c\n").expect("put");
    put_object(root.path(), "shop", "other/x.csv", b"id,name\n9,z\n").expect("put");
    put_object(
        root.path(),
        "shop",
        "events.jsonl",
        b"{\"id\": 1, \"kind\": \"a\"}\n{\"id\": 2, \"kind\": \"b\"}\n",
    )
    .expect("put");
    let parquet = parquet_bytes(root.path());
    put_object(root.path(), "shop", "facts/2024/f.parquet", &parquet).expect("put");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let bind: SocketAddr = "127.0.0.1:0".parse().expect("address");
    let server = runtime
        .block_on(S3Server::start(
            bind,
            root.path(),
            Credentials::new("test", "testsecret"),
            "us-west-2",
        ))
        .expect("s3 starts");
    S3 {
        server,
        _runtime: runtime,
        _root: root,
    }
}

fn config(s3: &S3, bucket: &str, secret: &str, users_glob: &str) -> Value {
    json!({"sourceType": "s3", "bucket": bucket, "endpoint": s3.server.endpoint_url(),
    "aws_access_key_id": "test", "aws_secret_access_key": secret, "region_name": "us-west-2",
    "streams": [
        {"name": "users", "globs": [users_glob], "format": {"filetype": "csv"}},
        {"name": "events", "globs": ["*.jsonl"], "format": {"filetype": "jsonl"}},
        {"name": "facts", "globs": ["facts/**/*.parquet"], "format": {"filetype": "parquet"}}
    ]})
}

#[test]
fn globbed_objects_land_with_the_file_columns() {
    let s3 = start();
    let env = Env::start();
    let source = env.source(config(&s3, "shop", "testsecret", "users/*.csv"), None);
    let db = env.db_path("shop");
    let dest = env.destination(&db, "airbyte_schema");
    let conn = env.connection(
        &source,
        &dest,
        json!([{"name": "users"}, {"name": "events"}, {"name": "facts"}]),
        json!({}),
    );
    assert_eq!(env.sync_ok(&conn), 3 + 2 + 4);
    assert_eq!(
        &columns(&db, "airbyte_schema", "users")[4..],
        [
            "id VARCHAR",
            "name VARCHAR",
            "_ab_source_file_last_modified VARCHAR",
            "_ab_source_file_url VARCHAR"
        ]
    );
    let files = query(
        &db,
        "SELECT string_agg(DISTINCT _ab_source_file_url, ',' ORDER BY _ab_source_file_url) FROM airbyte_schema.users",
    );
    assert_eq!(files[0][0], "users/part1.csv,users/part2.csv");
    assert_eq!(
        &columns(&db, "airbyte_schema", "events")[4..6],
        ["id BIGINT", "kind VARCHAR"]
    );
    assert_eq!(
        &columns(&db, "airbyte_schema", "facts")[4..6],
        ["id BIGINT", "v DOUBLE"]
    );
    assert_eq!(count(&db, "airbyte_schema.facts"), 4);
}

#[test]
fn bad_keys_missing_buckets_and_unmatched_globs_fail_the_job() {
    let s3 = start();
    let env = Env::start();
    let source = env.source(config(&s3, "shop", "testsecret", "users/*.csv"), None);
    let db = env.db_path("bad");
    let dest = env.destination(&db, "main");
    let conn = env.connection(&source, &dest, json!([{"name": "users"}]), json!({}));

    env.patch_source(&source, json!({"aws_secret_access_key": "wrong"}));
    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "failed");
    assert!(log.contains("Check that your credentials"), "{log}");

    env.patch_source(
        &source,
        json!({"aws_secret_access_key": "testsecret", "bucket": "nope"}),
    );
    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "failed");
    assert!(log.contains("The bucket `nope` does not exist"), "{log}");

    let unmatched = env.source(config(&s3, "shop", "testsecret", "missing/*.csv"), None);
    let conn = env.connection(&unmatched, &dest, json!([{"name": "users"}]), json!({}));
    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "failed");
    assert!(
        log.contains("No files were identified in the stream `users`"),
        "{log}"
    );
}
