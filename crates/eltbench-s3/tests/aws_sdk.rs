//! The endpoint driven by the official AWS SDK for Rust (aws-sdk-s3), path style and
//! virtual-host style, including SigV4 failures and missing buckets and keys.

mod common;

use aws_sdk_s3::Client;
use aws_sdk_s3::error::ProvideErrorMetadata;
use aws_sdk_s3::primitives::ByteStream;
use common::{ACCESS_KEY, SECRET_KEY, Style, client, md5_hex, start};

const BUCKET: &str = "address-bucket";
const KEYS: &[&str] = &["CBSA.jsonl", "geo/a.csv", "geo/b.csv", "other/c.csv"];

fn body_of(key: &str) -> Vec<u8> {
    format!("id,name\n1,{key}\n2,second row of {key}\n").into_bytes()
}

async fn put_all(s3: &Client) {
    s3.create_bucket().bucket(BUCKET).send().await.unwrap();
    for key in KEYS {
        let put = s3
            .put_object()
            .bucket(BUCKET)
            .key(*key)
            .body(ByteStream::from(body_of(key)))
            .send()
            .await
            .unwrap();
        assert_eq!(
            put.e_tag(),
            Some(format!("\"{}\"", md5_hex(&body_of(key))).as_str())
        );
    }
}

async fn list(
    s3: &Client,
    prefix: Option<&str>,
    delimiter: Option<&str>,
) -> (Vec<String>, Vec<String>) {
    let out = s3
        .list_objects_v2()
        .bucket(BUCKET)
        .set_prefix(prefix.map(str::to_owned))
        .set_delimiter(delimiter.map(str::to_owned))
        .send()
        .await
        .unwrap();
    let keys = out
        .contents()
        .iter()
        .filter_map(|o| o.key().map(str::to_owned))
        .collect();
    let prefixes = out
        .common_prefixes()
        .iter()
        .filter_map(|p| p.prefix().map(str::to_owned))
        .collect();
    (keys, prefixes)
}

/// Lists the whole bucket one key per page, following continuation tokens.
async fn list_paged(s3: &Client) -> Vec<String> {
    let mut keys = Vec::new();
    let mut token = None;
    loop {
        let out = s3
            .list_objects_v2()
            .bucket(BUCKET)
            .max_keys(1)
            .set_continuation_token(token)
            .send()
            .await
            .unwrap();
        keys.extend(
            out.contents()
                .iter()
                .filter_map(|o| o.key().map(str::to_owned)),
        );
        if out.is_truncated() != Some(true) {
            return keys;
        }
        token = out.next_continuation_token().map(str::to_owned);
        assert!(
            token.is_some(),
            "truncated page without a continuation token"
        );
    }
}

async fn get_bytes(s3: &Client, key: &str, range: Option<&str>) -> (Vec<u8>, Option<String>) {
    let out = s3
        .get_object()
        .bucket(BUCKET)
        .key(key)
        .set_range(range.map(str::to_owned))
        .send()
        .await
        .unwrap();
    let content_range = out.content_range().map(str::to_owned);
    (
        out.body.collect().await.unwrap().into_bytes().to_vec(),
        content_range,
    )
}

/// Everything a reader of an ELT-Bench S3 source does, checked against what was put.
async fn check_reads(s3: &Client) {
    assert_eq!(
        list(s3, Some("geo/"), None).await.0,
        ["geo/a.csv", "geo/b.csv"]
    );
    let (keys, prefixes) = list(s3, None, Some("/")).await;
    assert_eq!(keys, ["CBSA.jsonl"]);
    assert_eq!(prefixes, ["geo/", "other/"]);
    assert_eq!(list_paged(s3).await, KEYS);

    let whole = body_of("geo/a.csv");
    assert_eq!(get_bytes(s3, "geo/a.csv", None).await.0, whole);
    let (part, content_range) = get_bytes(s3, "geo/a.csv", Some("bytes=2-5")).await;
    assert_eq!(part, &whole[2..=5]);
    assert_eq!(content_range, Some(format!("bytes 2-5/{}", whole.len())));
    let (tail, _) = get_bytes(s3, "geo/a.csv", Some("bytes=-4")).await;
    assert_eq!(tail, &whole[whole.len() - 4..]);

    let head = s3
        .head_object()
        .bucket(BUCKET)
        .key("geo/a.csv")
        .send()
        .await
        .unwrap();
    assert_eq!(
        head.content_length(),
        Some(i64::try_from(whole.len()).unwrap())
    );
    assert_eq!(
        head.e_tag(),
        Some(format!("\"{}\"", md5_hex(&whole)).as_str())
    );
}

fn error_code<T, E: ProvideErrorMetadata>(result: Result<T, E>) -> String {
    match result {
        Ok(_) => panic!("expected an S3 error"),
        Err(e) => e.code().unwrap_or("<no code>").to_owned(),
    }
}

#[tokio::test]
async fn path_style_create_put_list_get_head_delete() {
    let root = tempfile::tempdir().unwrap();
    let server = start(root.path()).await;
    let (s3, _) = client(&server, Style::Path, ACCESS_KEY, SECRET_KEY);
    put_all(&s3).await;
    check_reads(&s3).await;

    assert_eq!(
        std::fs::read(root.path().join(BUCKET).join("geo/b.csv")).unwrap(),
        body_of("geo/b.csv")
    );
    let buckets = s3.list_buckets().send().await.unwrap();
    let names: Vec<&str> = buckets.buckets().iter().filter_map(|b| b.name()).collect();
    assert_eq!(names, [BUCKET]);

    s3.delete_object()
        .bucket(BUCKET)
        .key("geo/a.csv")
        .send()
        .await
        .unwrap();
    let gone = s3.get_object().bucket(BUCKET).key("geo/a.csv").send().await;
    assert_eq!(error_code(gone), "NoSuchKey");
    assert_eq!(list(&s3, Some("geo/"), None).await.0, ["geo/b.csv"]);
}

#[tokio::test]
async fn virtual_host_style_create_put_list_get_head() {
    let root = tempfile::tempdir().unwrap();
    let server = start(root.path()).await;
    let (s3, hosts) = client(&server, Style::VirtualHost, ACCESS_KEY, SECRET_KEY);
    put_all(&s3).await;
    check_reads(&s3).await;

    let bucket_host = format!("{BUCKET}.localhost:{}", server.addr().port());
    let hosts = hosts.hosts();
    assert!(
        hosts.iter().all(|h| *h == bucket_host),
        "Host headers sent: {hosts:?}"
    );
    assert!(root.path().join(BUCKET).join("CBSA.jsonl").is_file());
}

#[tokio::test]
async fn objects_written_to_disk_are_served() {
    let root = tempfile::tempdir().unwrap();
    eltbench_s3::put_object(root.path(), BUCKET, "geo/a.csv", &body_of("geo/a.csv")).unwrap();
    let server = start(root.path()).await;
    let (s3, _) = client(&server, Style::Path, ACCESS_KEY, SECRET_KEY);
    assert_eq!(list(&s3, None, None).await.0, ["geo/a.csv"]);
    assert_eq!(
        get_bytes(&s3, "geo/a.csv", None).await.0,
        body_of("geo/a.csv")
    );
}

#[tokio::test]
async fn wrong_access_key_is_invalid_access_key_id() {
    let root = tempfile::tempdir().unwrap();
    let server = start(root.path()).await;
    let (s3, _) = client(&server, Style::Path, "not-test", SECRET_KEY);
    assert_eq!(
        error_code(s3.list_buckets().send().await),
        "InvalidAccessKeyId"
    );
    let put = s3
        .put_object()
        .bucket(BUCKET)
        .key("k")
        .body(ByteStream::from_static(b"x"))
        .send()
        .await;
    assert_eq!(error_code(put), "InvalidAccessKeyId");
}

#[tokio::test]
async fn wrong_secret_is_signature_does_not_match() {
    let root = tempfile::tempdir().unwrap();
    eltbench_s3::put_object(root.path(), BUCKET, "k", b"secret data").unwrap();
    let server = start(root.path()).await;
    let (s3, _) = client(&server, Style::Path, ACCESS_KEY, "wrong-secret");
    let get = s3.get_object().bucket(BUCKET).key("k").send().await;
    assert_eq!(error_code(get), "SignatureDoesNotMatch");
    let (vh, _) = client(&server, Style::VirtualHost, ACCESS_KEY, "wrong-secret");
    assert_eq!(
        error_code(vh.list_objects_v2().bucket(BUCKET).send().await),
        "SignatureDoesNotMatch"
    );
}

#[tokio::test]
async fn missing_key_and_missing_bucket() {
    let root = tempfile::tempdir().unwrap();
    let server = start(root.path()).await;
    let (s3, _) = client(&server, Style::Path, ACCESS_KEY, SECRET_KEY);
    s3.create_bucket().bucket(BUCKET).send().await.unwrap();

    let get = s3.get_object().bucket(BUCKET).key("nope.csv").send().await;
    assert_eq!(error_code(get), "NoSuchKey");
    let list = s3.list_objects_v2().bucket("no-such-bucket").send().await;
    assert_eq!(error_code(list), "NoSuchBucket");
    let get = s3
        .get_object()
        .bucket("no-such-bucket")
        .key("k")
        .send()
        .await;
    assert_eq!(error_code(get), "NoSuchBucket");
    let put = s3
        .put_object()
        .bucket("no-such-bucket")
        .key("k")
        .body(ByteStream::from_static(b"x"))
        .send()
        .await;
    assert_eq!(error_code(put), "NoSuchBucket");
    let again = s3.create_bucket().bucket(BUCKET).send().await;
    assert_eq!(error_code(again), "BucketAlreadyOwnedByYou");
}

#[tokio::test]
async fn key_that_is_also_a_directory_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let server = start(root.path()).await;
    let (s3, _) = client(&server, Style::Path, ACCESS_KEY, SECRET_KEY);
    put_all(&s3).await;
    let put = |key: &'static str| {
        s3.put_object()
            .bucket(BUCKET)
            .key(key)
            .body(ByteStream::from_static(b"x"))
            .send()
    };
    assert_eq!(error_code(put("geo").await), "InvalidArgument");
    assert_eq!(error_code(put("CBSA.jsonl/inner").await), "InvalidArgument");
    assert_eq!(error_code(put("dir//double").await), "InvalidArgument");
    assert_eq!(
        list_paged(&s3).await,
        KEYS,
        "a refused upload leaves nothing behind"
    );
    let uploads = std::fs::read_dir(root.path().join(".uploads"))
        .unwrap()
        .count();
    assert_eq!(uploads, 0, "staging files are removed");
}
