//! SCRAM authentication with the official Rust driver: the right password works with
//! SCRAM-SHA-256 (the default) and SCRAM-SHA-1, a wrong one fails with MongoDB's
//! AuthenticationFailed (18), and an unauthenticated client is refused with Unauthorized.

mod common;

use common::{COLL, DB, samples, server};
use eltbench_mongo::bson::{Document, doc};
use eltbench_mongo::{Credentials, Store};
use mongodb::Client;
use mongodb::error::ErrorKind;

fn seeded_store() -> Store {
    let store = Store::new();
    store.insert_many(DB, COLL, samples(50));
    store
}

fn uri_with(server: &eltbench_mongo::MongoServer, userinfo: &str, extra: &str) -> String {
    format!(
        "mongodb://{userinfo}@{}/?directConnection=true{extra}",
        server.addr()
    )
}

/// The server's error code as the driver exposes it. During authentication the driver
/// keeps only the server's `errmsg` ("SCRAM failure: <errmsg>"), not the code.
fn error_code(err: &mongodb::error::Error) -> Option<i32> {
    match &*err.kind {
        ErrorKind::Command(e) => Some(e.code),
        _ => None,
    }
}

fn auth_message(err: &mongodb::error::Error) -> Option<&str> {
    match &*err.kind {
        ErrorKind::Authentication { message, .. } => Some(message),
        _ => None,
    }
}

#[tokio::test]
async fn right_password_reads_with_both_mechanisms() {
    let server = server(
        seeded_store(),
        Some(Credentials::new("airbyte", "p@ss:w0rd")),
    )
    .await;
    for mechanism in [
        "",
        "&authMechanism=SCRAM-SHA-256",
        "&authMechanism=SCRAM-SHA-1",
    ] {
        let client = Client::with_uri_str(uri_with(&server, "airbyte:p%40ss%3Aw0rd", mechanism))
            .await
            .unwrap();
        let coll = client.database(DB).collection::<Document>(COLL);
        assert_eq!(
            coll.count_documents(doc! {}).await.unwrap(),
            50,
            "mechanism {mechanism:?}"
        );
    }
}

#[tokio::test]
async fn wrong_password_fails_with_authentication_failed() {
    let server = server(seeded_store(), Some(Credentials::new("airbyte", "secret"))).await;
    for userinfo in ["airbyte:wrong", "nobody:secret"] {
        let client = Client::with_uri_str(uri_with(&server, userinfo, ""))
            .await
            .unwrap();
        let err = client.list_database_names().await.unwrap_err();
        assert_eq!(
            auth_message(&err),
            Some("SCRAM failure: Authentication failed."),
            "{userinfo}: {err}"
        );
    }
}

#[tokio::test]
async fn unauthenticated_commands_are_refused() {
    let server = server(seeded_store(), Some(Credentials::new("airbyte", "secret"))).await;
    let client = Client::with_uri_str(server.uri()).await.unwrap();
    client
        .database("admin")
        .run_command(doc! {"ping": 1})
        .await
        .unwrap();
    let err = client
        .database(DB)
        .collection::<Document>(COLL)
        .find_one(doc! {})
        .await
        .unwrap_err();
    assert_eq!(error_code(&err), Some(13), "{err}");
}
