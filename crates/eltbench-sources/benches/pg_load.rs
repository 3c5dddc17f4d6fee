//! Load throughput of the PostgreSQL source: a 2M-row, 16-column lineitem-like CSV is
//! generated in a temporary directory, read into a canonical table, and loaded with
//! `PgCluster::load_table` (COPY FROM STDIN over tokio-postgres). The peer in the same
//! run is the server reading the same file itself (`COPY ... FROM '<file>' CSV`), the
//! upper bound for any client-side loader.
//!
//! Run: `cargo bench -p eltbench-sources --bench pg_load [-- ROWS]` (default 2,000,000).
#![allow(clippy::print_stdout)]

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Instant;

use eltbench_sources::{PgCluster, PgClusterOptions, read_table};

const DEFAULT_ROWS: usize = 2_000_000;
const TARGET_ROWS_PER_SEC: f64 = 200_000.0;
const HEADER: &str = "l_orderkey,l_partkey,l_suppkey,l_linenumber,l_quantity,l_extendedprice,l_discount,l_tax,\
l_returnflag,l_linestatus,l_shipdate,l_commitdate,l_receiptdate,l_shipinstruct,l_shipmode,l_comment";
const INSTRUCT: [&str; 4] = [
    "DELIVER IN PERSON",
    "COLLECT COD",
    "NONE",
    "TAKE BACK RETURN",
];
const MODES: [&str; 7] = ["REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"];
const WORDS: [&str; 8] = [
    "furiously",
    "quickly",
    "regular",
    "deposits",
    "ironic",
    "packages",
    "carefully",
    "final",
];

fn main() {
    let rows = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(DEFAULT_ROWS);
    let tmp = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755))
        .expect("chmod temp dir");
    let csv_path = tmp.path().join("lineitem.csv");

    let t = Instant::now();
    generate(&csv_path, rows);
    let size_mb = std::fs::metadata(&csv_path).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    println!(
        "generate   {rows} rows, {size_mb:.0} MB CSV in {:.2} s",
        t.elapsed().as_secs_f64()
    );

    let t = Instant::now();
    let table = read_table(&csv_path, "lineitem", None).expect("read CSV");
    let read_s = t.elapsed().as_secs_f64();
    println!(
        "read+type  {:.2} s ({:.0} rows/s)",
        read_s,
        rows as f64 / read_s
    );

    let t = Instant::now();
    let cluster = PgCluster::start(&tmp.path().join("pg"), PgClusterOptions::default())
        .expect("start cluster");
    println!(
        "cluster    started in {:.2} s (initdb + pg_ctl start)",
        t.elapsed().as_secs_f64()
    );

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        cluster.create_database("bench").await.expect("create database");
        let t = Instant::now();
        let copied = cluster.load_table("bench", "public", &table).await.expect("load");
        let ours = t.elapsed().as_secs_f64();
        assert_eq!(copied as usize, rows);
        let peer = server_side_copy(&cluster, &csv_path).await;
        let rate = rows as f64 / ours;
        println!("load_table {ours:.2} s = {rate:.0} rows/s (target {TARGET_ROWS_PER_SEC:.0}: {:.2}x)", rate / TARGET_ROWS_PER_SEC);
        println!("peer       server-side COPY FROM file {peer:.2} s = {:.0} rows/s; load_table takes {:.2}x its time", rows as f64 / peer, ours / peer);
    });
    let t = Instant::now();
    cluster.stop().expect("stop cluster");
    println!("cluster    stopped in {:.2} s", t.elapsed().as_secs_f64());
}

async fn server_side_copy(cluster: &PgCluster, csv_path: &Path) -> f64 {
    let client = cluster.connect("bench").await.expect("connect");
    client
        .batch_execute("CREATE TABLE peer (LIKE lineitem)")
        .await
        .expect("create peer table");
    let path = csv_path.to_string_lossy().replace('\'', "''");
    let t = Instant::now();
    client
        .batch_execute(&format!(
            "COPY peer FROM '{path}' (FORMAT csv, HEADER true)"
        ))
        .await
        .expect("server-side COPY");
    t.elapsed().as_secs_f64()
}

fn generate(path: &Path, rows: usize) {
    let file = std::fs::File::create(path).expect("create CSV");
    let mut out = BufWriter::with_capacity(1 << 20, file);
    writeln!(out, "{HEADER}").expect("write");
    let mut line = String::with_capacity(256);
    for i in 0..rows {
        line.clear();
        lineitem_row(i, &mut line);
        out.write_all(line.as_bytes()).expect("write");
    }
    out.flush().expect("flush");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644)).expect("chmod CSV");
}

/// One deterministic lineitem-like row (a cheap LCG stands in for dbgen's randomness).
fn lineitem_row(i: usize, line: &mut String) {
    let r = (i as u64)
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407)
        >> 11;
    let qty = 1 + r % 50;
    let price = (qty * (90_000 + r % 20_000)) as f64 / 100.0;
    let (day, month, year) = (1 + r % 28, 1 + (r >> 5) % 12, 1992 + (r >> 9) % 7);
    let _ = writeln!(
        line,
        "{},{},{},{},{qty},{price:.2},0.{:02},0.{:02},{},{},{year}-{month:02}-{day:02},{year}-{month:02}-{:02},{year}-{month:02}-{:02},{},{},\"{} {}, {}\"",
        i / 4 + 1,
        r % 200_000 + 1,
        r % 10_000 + 1,
        i % 4 + 1,
        r % 11,
        r % 9,
        ["N", "R", "A"][(r % 3) as usize],
        ["O", "F"][(r % 2) as usize],
        1 + (r >> 3) % 28,
        1 + (r >> 4) % 28,
        INSTRUCT[(r % 4) as usize],
        MODES[(r % 7) as usize],
        WORDS[(r % 8) as usize],
        WORDS[((r >> 3) % 8) as usize],
        WORDS[((r >> 6) % 8) as usize],
    );
}
