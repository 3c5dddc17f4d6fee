//! Read throughput of the MongoDB endpoint: a 200k-document collection read through the
//! official Rust driver (find, default batches), beside a plain `serde_json` parse of
//! the same rows as JSON lines. Prints docs/s for both and their ratio (plus the driver
//! reading raw BSON, which separates the endpoint's cost from the driver's decoding);
//! asserts nothing but that every document arrived.
//! Run: `cargo bench -p eltbench-mongo`.
#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]

use std::net::SocketAddr;
use std::time::Instant;

use eltbench_mongo::bson::{Document, RawDocumentBuf, doc};
use eltbench_mongo::{MongoServer, Store};
use futures_util::TryStreamExt;
use mongodb::Client;

const ROWS: usize = 200_000;

fn row(i: usize) -> (Document, serde_json::Value) {
    let id = i64::try_from(i).unwrap_or(i64::MAX);
    let name = format!("customer-{i:06}");
    let amount = (i % 10_000) as f64 / 100.0;
    let city = ["Oslo", "Lima", "Pune", "Kiev"][i % 4];
    let bson = doc! {"_id": id, "name": &name, "amount": amount, "city": city, "active": i.is_multiple_of(3),
    "address": {"zip": format!("{:05}", i % 99_999), "line": "1 Main St"}, "tags": ["a", "b"]};
    let json = serde_json::json!({"_id": id, "name": name, "amount": amount, "city": city,
        "active": i.is_multiple_of(3), "address": {"zip": format!("{:05}", i % 99_999), "line": "1 Main St"},
        "tags": ["a", "b"]});
    (bson, json)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 1)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (docs, json): (Vec<Document>, Vec<serde_json::Value>) = (0..ROWS).map(row).unzip();
    let lines: Vec<String> = json.iter().map(serde_json::Value::to_string).collect();
    let store = Store::new();
    store.insert_many("bench", "rows", docs);
    let server = MongoServer::start(SocketAddr::from(([127, 0, 0, 1], 0)), store, None).await?;
    let client = Client::with_uri_str(server.uri()).await?;
    let coll = client.database("bench").collection::<Document>("rows");

    coll.find(doc! {})
        .limit(1000)
        .await?
        .try_collect::<Vec<_>>()
        .await?; // warm-up
    let start = Instant::now();
    let read: Vec<Document> = coll.find(doc! {}).await?.try_collect().await?;
    let mongo_secs = start.elapsed().as_secs_f64();
    assert_eq!(read.len(), ROWS, "the endpoint returned every document");

    let raw = client
        .database("bench")
        .collection::<RawDocumentBuf>("rows");
    let start = Instant::now();
    let read_raw: Vec<RawDocumentBuf> = raw.find(doc! {}).await?.try_collect().await?;
    let raw_secs = start.elapsed().as_secs_f64();
    assert_eq!(
        read_raw.len(),
        ROWS,
        "the endpoint returned every raw document"
    );

    let start = Instant::now();
    let mut parsed = 0usize;
    for line in &lines {
        let value: serde_json::Value = serde_json::from_str(line)?;
        parsed += usize::from(value.is_object());
    }
    let json_secs = start.elapsed().as_secs_f64();

    let mongo_rate = ROWS as f64 / mongo_secs;
    let json_rate = parsed as f64 / json_secs;
    println!("rows: {ROWS}");
    println!("mongo endpoint via Rust driver: {mongo_rate:>12.0} docs/s ({mongo_secs:.3} s)");
    println!(
        "  (raw BSON, no decoding):       {:>12.0} docs/s ({raw_secs:.3} s)",
        ROWS as f64 / raw_secs
    );
    println!("serde_json parse of JSON lines: {json_rate:>12.0} docs/s ({json_secs:.3} s)");
    println!("ratio mongo/json: {:.3}", mongo_rate / json_rate);
    Ok(())
}
