//! The official Rust driver (3.x) against the endpoint: handshake, catalog, inserts
//! through document sequences, filtered/projected/sorted reads, multi-batch cursors,
//! counts, aggregation, drop, and MongoDB's error for an unknown command.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{COLL, DB, sample, samples, server, without_id};
use eltbench_mongo::Store;
use eltbench_mongo::bson::{Bson, Document, doc};
use futures_util::TryStreamExt;
use mongodb::error::ErrorKind;
use mongodb::event::EventHandler;
use mongodb::event::command::CommandEvent;
use mongodb::options::ClientOptions;
use mongodb::{Client, Collection};

const N: i32 = 10_000;

/// A client that counts the `getMore` commands it sends.
async fn counting_client(uri: &str) -> (Client, Arc<AtomicUsize>) {
    let get_mores = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&get_mores);
    let mut options = ClientOptions::parse(uri).await.unwrap();
    options.command_event_handler = Some(EventHandler::callback(move |event: CommandEvent| {
        if let CommandEvent::Started(started) = event
            && started.command_name == "getMore"
        {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }));
    (Client::with_options(options).unwrap(), get_mores)
}

async fn seeded() -> (
    eltbench_mongo::MongoServer,
    Client,
    Arc<AtomicUsize>,
    Collection<Document>,
) {
    let server = server(Store::new(), None).await;
    let (client, get_mores) = counting_client(&server.uri()).await;
    let coll = client.database(DB).collection::<Document>(COLL);
    let result = coll.insert_many(samples(N)).await.unwrap();
    assert_eq!(result.inserted_ids.len(), N as usize);
    (server, client, get_mores, coll)
}

#[tokio::test]
async fn handshake_ping_and_catalog() {
    let (_server, client, _, _) = seeded().await;
    let pong = client
        .database("admin")
        .run_command(doc! {"ping": 1})
        .await
        .unwrap();
    assert_eq!(pong.get("ok"), Some(&Bson::Double(1.0)));
    assert_eq!(
        client.list_database_names().await.unwrap(),
        vec![DB.to_owned()]
    );
    assert_eq!(
        client.database(DB).list_collection_names().await.unwrap(),
        vec![COLL.to_owned()]
    );
    let info = client
        .database("admin")
        .run_command(doc! {"buildInfo": 1})
        .await
        .unwrap();
    assert_eq!(
        info.get_str("version").unwrap(),
        eltbench_mongo::SERVER_VERSION
    );
}

#[tokio::test]
async fn cursor_returns_every_document_across_get_more_batches() {
    let (_server, _client, get_mores, coll) = seeded().await;
    let mut cursor = coll.find(doc! {}).batch_size(100).await.unwrap();
    let mut read = Vec::new();
    while let Some(d) = cursor.try_next().await.unwrap() {
        assert!(
            matches!(d.get("_id"), Some(Bson::ObjectId(_))),
            "driver-assigned _id kept"
        );
        read.push(without_id(d));
    }
    assert_eq!(
        read,
        samples(N),
        "same values and types, in insertion order"
    );
    assert_eq!(
        get_mores.load(Ordering::Relaxed),
        (N as usize).div_ceil(100) - 1
    );
}

#[tokio::test]
async fn find_with_filter_projection_sort_and_limit() {
    let (_server, _client, _, coll) = seeded().await;
    let filter = doc! {"group": {"$in": [1, 3]}, "price": {"$gte": 100.0, "$lt": 2000.0}, "note": {"$exists": true}};
    let found: Vec<Document> = coll
        .find(filter)
        .projection(doc! {"seq": 1, "name": 1, "_id": 0})
        .sort(doc! {"price": -1})
        .skip(2)
        .limit(5)
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    let mut expected: Vec<Document> = samples(N)
        .into_iter()
        .filter(|d| [1, 3].contains(&d.get_i32("group").unwrap()))
        .filter(|d| {
            (100.0..2000.0).contains(&d.get_f64("price").unwrap()) && d.contains_key("note")
        })
        .map(|d| doc! {"seq": d.get_i32("seq").unwrap(), "name": d.get_str("name").unwrap()})
        .collect();
    expected.reverse();
    assert_eq!(found, expected[2..7].to_vec());
}

#[tokio::test]
async fn counts_and_aggregate_group() {
    let (_server, _client, _, coll) = seeded().await;
    assert_eq!(
        coll.count_documents(doc! {"group": 2}).await.unwrap(),
        samples(N)
            .iter()
            .filter(|d| d.get_i32("group") == Ok(2))
            .count() as u64
    );
    assert_eq!(coll.estimated_document_count().await.unwrap(), N as u64);
    let pipeline = vec![
        doc! {"$match": {"seq": {"$lt": 1000}}},
        doc! {"$group": {"_id": "$group", "total": {"$sum": "$seq"}, "n": {"$count": {}}, "top": {"$max": "$price"}}},
        doc! {"$sort": {"_id": 1}},
    ];
    let groups: Vec<Document> = coll
        .aggregate(pipeline)
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    let mut expected: BTreeMap<i32, (i32, i32, f64)> = BTreeMap::new();
    for d in (0..1000).map(sample) {
        let e = expected.entry(d.get_i32("group").unwrap()).or_default();
        e.0 += d.get_i32("seq").unwrap();
        e.1 += 1;
        e.2 = e.2.max(d.get_f64("price").unwrap());
    }
    let expected: Vec<Document> = expected
        .into_iter()
        .map(|(g, (total, n, top))| doc! {"_id": g, "total": total, "n": n, "top": top})
        .collect();
    assert_eq!(groups, expected);
}

#[tokio::test]
async fn unknown_command_errors_and_connection_survives() {
    let (_server, client, _, coll) = seeded().await;
    let err = client
        .database(DB)
        .run_command(doc! {"frobnicate": 1})
        .await
        .unwrap_err();
    let ErrorKind::Command(command_error) = *err.kind else {
        panic!("not a command error: {err}")
    };
    assert_eq!(command_error.code, 59);
    assert_eq!(command_error.code_name, "CommandNotFound");
    assert_eq!(command_error.message, "no such command: 'frobnicate'");
    let err = coll.find(doc! {"seq": {"$regexx": 1}}).await.unwrap_err();
    assert!(
        matches!(*err.kind, ErrorKind::Command(ref e) if e.code == 2),
        "{err}"
    );
    assert_eq!(coll.count_documents(doc! {}).await.unwrap(), N as u64);
}

#[tokio::test]
async fn delete_and_drop() {
    let (_server, client, _, coll) = seeded().await;
    let deleted = coll.delete_many(doc! {"group": 0}).await.unwrap();
    let zeros = samples(N)
        .iter()
        .filter(|d| d.get_i32("group") == Ok(0))
        .count() as u64;
    assert_eq!(deleted.deleted_count, zeros);
    assert_eq!(
        coll.count_documents(doc! {}).await.unwrap(),
        N as u64 - zeros
    );
    coll.drop().await.unwrap();
    assert!(
        client
            .database(DB)
            .list_collection_names()
            .await
            .unwrap()
            .is_empty()
    );
    assert!(client.list_database_names().await.unwrap().is_empty());
}
