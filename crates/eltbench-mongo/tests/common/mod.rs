//! Shared fixtures for the integration tests: a deterministic sample collection with
//! every BSON type the endpoint must keep, and a server on a free loopback port.
#![allow(dead_code, reason = "each test binary uses a different part")]

use std::net::SocketAddr;

use eltbench_mongo::bson::{Bson, DateTime, Document, doc};
use eltbench_mongo::{Credentials, MongoServer, Store};

pub const DB: &str = "shop";
pub const COLL: &str = "items";

/// Sample document `i`: int32, int64, double, string, null/missing, date, nested, array.
pub fn sample(i: i32) -> Document {
    let mut d = doc! {
        "seq": i,
        "big": i64::from(i) * 1_000_000_007,
        "price": f64::from(i) * 0.25,
        "name": format!("item-{i:05}"),
        "group": i % 7,
        "created": DateTime::from_millis(1_600_000_000_000 + i64::from(i) * 1000),
        "dims": {"w": i % 10, "h": 2.5},
        "tags": [format!("t{}", i % 3), "all"],
    };
    if i % 5 == 0 {
        d.insert("note", Bson::Null);
    }
    d
}

pub fn samples(n: i32) -> Vec<Document> {
    (0..n).map(sample).collect()
}

pub fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

pub async fn server(store: Store, auth: Option<Credentials>) -> MongoServer {
    MongoServer::start(loopback(), store, auth)
        .await
        .expect("endpoint starts")
}

/// The document without its `_id` (drivers and the store assign those).
pub fn without_id(mut d: Document) -> Document {
    d.remove("_id");
    d
}
