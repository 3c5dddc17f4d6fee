//! The MongoDB source against eltbench's MongoDB wire-protocol endpoint (a real
//! server speaking OP_MSG + SCRAM, read through the official driver): sampled schema,
//! top-level fields as columns, `_id` as a string, numbers as DOUBLE, bad credentials.

mod sync_common;

use std::net::SocketAddr;

use eltbench_mongo::bson::{self, doc};
use eltbench_mongo::{Credentials, MongoServer, Store};
use serde_json::{Value, json};
use sync_common::{Env, columns, query};

struct Mongo {
    server: MongoServer,
    _runtime: tokio::runtime::Runtime,
}

fn start() -> Mongo {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let store = Store::new();
    store.insert_many(
        "shop",
        "customers",
        vec![
            doc! {"_id": bson::oid::ObjectId::parse_str("65a000000000000000000001").expect("oid"),
            "name": "ann", "age": 31, "score": 2.5, "address": {"city": "Oslo"},
            "tags": ["a", "b"], "joined": bson::DateTime::from_millis(86_400_000)},
            doc! {"_id": bson::oid::ObjectId::parse_str("65a000000000000000000002").expect("oid"),
            "name": "bob", "age": 40_i64},
            doc! {"_id": 3, "name": "cy", "vip": true},
        ],
    );
    store.insert_many("shop", "orders", vec![doc! {"_id": 1, "total": 9.5}]);
    let bind: SocketAddr = "127.0.0.1:0".parse().expect("address");
    let server = runtime
        .block_on(MongoServer::start(
            bind,
            store,
            Some(Credentials::new("elt", "testelt")),
        ))
        .expect("mongo starts");
    Mongo {
        server,
        _runtime: runtime,
    }
}

fn config(mongo: &Mongo, password: &str) -> Value {
    json!({"sourceType": "mongodb-v2", "database_config": {
        "cluster_type": "SELF_MANAGED_REPLICA_SET", "connection_string": mongo.server.uri(),
        "database": "shop", "username": "elt", "password": password, "auth_source": "admin"}})
}

#[test]
fn collections_land_with_top_level_fields_as_columns() {
    let mongo = start();
    let env = Env::start();
    let source = env.source(config(&mongo, "testelt"), None);
    let db = env.db_path("shop");
    let dest = env.destination(&db, "airbyte_schema");
    let conn = env.connection(
        &source,
        &dest,
        json!([{"name": "customers"}, {"name": "orders"}]),
        json!({}),
    );
    assert_eq!(env.sync_ok(&conn), 4);
    assert_eq!(
        &columns(&db, "airbyte_schema", "customers")[4..],
        [
            "_id VARCHAR",
            "name VARCHAR",
            "age DOUBLE",
            "score DOUBLE",
            "address JSON",
            "tags JSON",
            "joined TIMESTAMP WITH TIME ZONE",
            "vip BOOLEAN",
        ]
    );
    let rows = query(
        &db,
        "SELECT _id, name, CAST(age AS VARCHAR), CAST(address AS VARCHAR), CAST(epoch(joined) AS VARCHAR), CAST(vip AS VARCHAR) \
         FROM airbyte_schema.customers ORDER BY name",
    );
    assert_eq!(
        rows[0],
        [
            "65a000000000000000000001",
            "ann",
            "31.0",
            "{\"city\":\"Oslo\"}",
            "86400.0",
            "NULL"
        ]
    );
    assert_eq!(rows[1][2], "40.0");
    assert_eq!(rows[2][0], "3");
    assert_eq!(rows[2][5], "true");
}

#[test]
fn wrong_credentials_fail_the_job() {
    let mongo = start();
    let env = Env::start();
    let source = env.source(config(&mongo, "testelt"), None);
    let db = env.db_path("bad");
    let dest = env.destination(&db, "main");
    let conn = env.connection(&source, &dest, json!([{"name": "orders"}]), json!({}));
    env.patch_source(&source, json!({"database_config": {"password": "wrong"}}));
    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "failed");
    assert!(
        log.contains("Failure in source: Authentication to MongoDB at mongodb://"),
        "{log}"
    );
    assert!(log.contains("Check that your credentials"), "{log}");
}
