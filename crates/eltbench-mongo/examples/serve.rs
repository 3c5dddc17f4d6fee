//! Serves a small demo collection (`demo.items`, 1000 documents) for poking at the
//! endpoint with a real client: `cargo run -p eltbench-mongo --example serve -- 60`
//! prints the URI and serves for the given number of seconds (default 300).
#![allow(clippy::print_stdout, reason = "an example prints its URI")]

use std::net::SocketAddr;
use std::time::Duration;

use eltbench_mongo::bson::{DateTime, doc};
use eltbench_mongo::{MongoServer, Store};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds: u64 = std::env::args().nth(1).map_or(Ok(300), |s| s.parse())?;
    let store = Store::new();
    let docs = (0..1000).map(|i: i32| {
        doc! {"seq": i, "name": format!("item-{i:04}"), "price": f64::from(i) / 4.0,
        "created": DateTime::from_millis(1_600_000_000_000 + i64::from(i) * 1000)}
    });
    store.insert_many("demo", "items", docs.collect());
    let server = MongoServer::start(SocketAddr::from(([127, 0, 0, 1], 0)), store, None).await?;
    println!("{}", server.uri());
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    Ok(())
}
