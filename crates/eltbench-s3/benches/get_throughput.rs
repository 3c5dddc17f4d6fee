//! GetObject throughput of a 50 MB object through aws-sdk-s3, beside reading the same
//! file from disk in the same run. Prints MB/s and the ratio; asserts nothing.
//!
//! Run: `cargo bench -p eltbench-s3 --bench get_throughput`

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::{ACCESS_KEY, SECRET_KEY, Style, client, start};

const SIZE: usize = 50 * 1024 * 1024;
const ROUNDS: u32 = 5;

fn mb_per_s(bytes: usize, took: Duration) -> f64 {
    bytes as f64 / (1024.0 * 1024.0) / took.as_secs_f64()
}

async fn s3_get(s3: &aws_sdk_s3::Client) -> usize {
    let out = s3
        .get_object()
        .bucket("bench")
        .key("big.bin")
        .send()
        .await
        .unwrap();
    out.body.collect().await.unwrap().into_bytes().len()
}

#[allow(clippy::print_stdout, reason = "a bench reports on stdout")]
fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let root = tempfile::tempdir().unwrap();
    let data: Vec<u8> = (0..SIZE).map(|i| (i % 251) as u8).collect();
    let path = eltbench_s3::put_object(root.path(), "bench", "big.bin", &data).unwrap();

    let (s3_took, disk_took) = runtime.block_on(async {
        let server = start(root.path()).await;
        let (s3, _) = client(&server, Style::Path, ACCESS_KEY, SECRET_KEY);
        assert_eq!(
            s3_get(&s3).await,
            SIZE,
            "warm-up GET (computes the ETag once)"
        );
        let t = Instant::now();
        for _ in 0..ROUNDS {
            assert_eq!(s3_get(&s3).await, SIZE);
        }
        let s3_took = t.elapsed();
        let t = Instant::now();
        for _ in 0..ROUNDS {
            assert_eq!(tokio::fs::read(&path).await.unwrap().len(), SIZE);
        }
        (s3_took, t.elapsed())
    });

    let total = SIZE * ROUNDS as usize;
    let (s3_rate, disk_rate) = (mb_per_s(total, s3_took), mb_per_s(total, disk_took));
    println!("GetObject via aws-sdk-s3: {s3_rate:8.1} MB/s ({ROUNDS} x 50 MB)");
    println!("read from disk:           {disk_rate:8.1} MB/s");
    println!("ratio S3 / disk:          {:8.2}", s3_rate / disk_rate);
}
