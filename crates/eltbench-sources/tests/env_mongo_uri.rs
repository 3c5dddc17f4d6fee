//! `EnvOptions::mongodb_uri`: the task's collections go into a MongoDB server that is
//! already running (here an `eltbench_mongo::MongoServer` the test starts, standing in
//! for an external MongoDB), through the official driver, replacing what was there;
//! the run files name that server; a server that cannot be reached is a clear error
//! that names the URI without its password and leaves nothing behind.
//!
//! A real `mongod` is not installed on this machine; its command line and `PATH`
//! lookup are unit-tested in `src/env/mongod.rs`.

mod common;

use std::net::SocketAddr;

use bson::doc;
use eltbench_mongo::{MongoServer, Store};
use eltbench_sources::env::{EnvOptions, Environment};
use eltbench_task::{SourceKind, Suite};

use common::{clients, pyclients};

fn external() -> MongoServer {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let bind: SocketAddr = "127.0.0.1:0".parse().unwrap();
    rt.block_on(MongoServer::start(bind, Store::new(), None))
        .unwrap()
}

#[test]
fn an_external_mongodb_is_refilled_and_reads_back_exactly() {
    let suite = Suite::load(&common::suite()).unwrap();
    let server = external();
    let uri = server.uri();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // A stale document in one of the task's collections must be gone afterwards.
    rt.block_on(async {
        let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
        let coll = client
            .database("asana")
            .collection::<bson::Document>("team");
        coll.insert_one(doc! {"stale": true}).await.unwrap();
        client.shutdown().await;
    });
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let opts = EnvOptions {
        mongodb_uri: Some(uri.clone()),
        ..EnvOptions::new(&run)
    };
    let env = Environment::start(&suite, "asana", opts).unwrap();
    let record = env.record().clone();
    let mongo = record.endpoints.mongodb.clone().unwrap();
    assert_eq!(mongo.uri, uri);
    assert_eq!(mongo.port, server.addr().port());
    assert_eq!(mongo.served_by, "external");
    assert!(!record.endpoints.ports().contains_key("mongodb"));
    let config = std::fs::read_to_string(run.join("config.yaml")).unwrap();
    assert!(config.contains(&uri), "{config}");
    let json = std::fs::read_to_string(run.join("env.json")).unwrap();
    assert!(json.contains("\"served_by\": \"external\""), "{json}");

    let tables = clients::tables(&suite, "asana", None);
    let checked = rt.block_on(clients::check_all(&suite, &record, &tables));
    let mongo_tables = checked
        .keys()
        .filter(|(kind, _)| *kind == SourceKind::Mongodb)
        .count();
    assert_eq!(mongo_tables, 3);
    let by_python = pyclients::check_mongo_pymongo(&run.join("env.json"), &record, &tables);
    assert_eq!(by_python, 3);
    env.stop().unwrap();

    // The external server outlives the environment, with the data in it.
    assert!(clients::port_open(server.addr().port()));
    for (kind, table) in &tables.tables {
        if *kind == SourceKind::Mongodb {
            rt.block_on(clients::check_mongo(&record, table));
        }
    }
}

#[test]
fn an_unreachable_mongodb_uri_is_a_clear_error_and_leaves_nothing() {
    let suite = Suite::load(&common::suite()).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let uri = format!("mongodb://alice:s3cret@127.0.0.1:{port}/?serverSelectionTimeoutMS=1000");
    let tmp = tempfile::tempdir().unwrap();
    let run = tmp.path().join("run");
    let opts = EnvOptions {
        mongodb_uri: Some(uri),
        ..EnvOptions::new(&run)
    };
    let err = Environment::start(&suite, "asana", opts)
        .unwrap_err()
        .to_string();
    assert!(err.contains("MongoDB"), "{err}");
    assert!(
        err.contains(&format!("mongodb://***@127.0.0.1:{port}/")),
        "{err}"
    );
    assert!(!err.contains("s3cret") && !err.contains("alice"), "{err}");
    assert!(!run.join("env.json").exists());
    assert!(clients::processes_under(&run).is_empty(), "processes left");
}
