//! Loading a task's collections into a real MongoDB server through the official driver:
//! an external server named by URI (`--mongodb-uri`) or a `mongod` this environment
//! started. Each collection of the task is dropped and refilled with the documents of
//! [`mongo_load::document`], in batches. Nothing else of that server is touched, and a
//! URI's credentials never appear in an error message.

use std::time::Duration;

use bson::{Document, doc};
use mongodb::Client;
use mongodb::options::{ClientOptions, ServerAddress};

use crate::mongo_load;
use crate::table::Table;

/// Documents per `insert_many` call.
const BATCH: usize = 1000;
/// How long the driver looks for a server when the URI does not say.
const SELECTION_TIMEOUT: Duration = Duration::from_secs(5);
/// The port of a URI host without one.
const DEFAULT_PORT: u16 = 27017;

/// Why a real MongoDB server could not be filled.
#[derive(Debug, thiserror::Error)]
pub enum MongoLoadError {
    #[error("MongoDB at {uri}: {detail}")]
    Server { uri: String, detail: String },
    #[error("MongoDB at {uri}: collection `{db}.{collection}`: {detail}")]
    Collection {
        uri: String,
        db: String,
        collection: String,
        detail: String,
    },
}

/// `uri` with any `user:password@` replaced by `***@`.
pub fn redact(uri: &str) -> String {
    let Some((scheme, rest)) = uri.split_once("://") else {
        return uri.to_owned();
    };
    let host_end = rest.find(['/', '?']).unwrap_or(rest.len());
    match rest[..host_end].rfind('@') {
        Some(at) => format!("{scheme}://***{}", &rest[at..]),
        None => uri.to_owned(),
    }
}

/// A connected client that answered `ping`, and the port of the URI's first host.
pub async fn connect(uri: &str) -> Result<(Client, u16), MongoLoadError> {
    let fail = |detail: String| MongoLoadError::Server {
        uri: redact(uri),
        detail,
    };
    let mut options = ClientOptions::parse(uri)
        .await
        .map_err(|e| fail(format!("not a usable connection string: {}", e.kind)))?;
    if options.server_selection_timeout.is_none() {
        options.server_selection_timeout = Some(SELECTION_TIMEOUT);
    }
    let port = match options.hosts.first() {
        Some(ServerAddress::Tcp { port, .. }) => port.unwrap_or(DEFAULT_PORT),
        _ => DEFAULT_PORT,
    };
    let client = Client::with_options(options).map_err(|e| fail(e.kind.to_string()))?;
    if let Err(e) = client.database("admin").run_command(doc! {"ping": 1}).await {
        client.shutdown().await;
        return Err(fail(format!("unreachable or refused: {}", e.kind)));
    }
    Ok((client, port))
}

/// Drops collection `table.name` of `db` and inserts every row; returns the count.
pub async fn load_table(
    client: &Client,
    uri: &str,
    db: &str,
    table: &Table,
) -> Result<usize, MongoLoadError> {
    let fail = |detail: String| MongoLoadError::Collection {
        uri: redact(uri),
        db: db.to_owned(),
        collection: table.name.clone(),
        detail,
    };
    let database = client.database(db);
    let coll = database.collection::<Document>(&table.name);
    coll.drop().await.map_err(|e| fail(e.kind.to_string()))?;
    database
        .create_collection(&table.name)
        .await
        .map_err(|e| fail(e.kind.to_string()))?;
    let docs: Vec<Document> = table
        .rows
        .iter()
        .map(|row| mongo_load::document(table, &row))
        .collect();
    for batch in docs.chunks(BATCH) {
        coll.insert_many(batch)
            .await
            .map_err(|e| fail(e.kind.to_string()))?;
    }
    Ok(docs.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_redacted() {
        assert_eq!(
            redact("mongodb://u:p@h:1,h2:2/db?authSource=admin"),
            "mongodb://***@h:1,h2:2/db?authSource=admin"
        );
        assert_eq!(
            redact("mongodb+srv://a%40b:c@x.example/"),
            "mongodb+srv://***@x.example/"
        );
        assert_eq!(redact("mongodb://h:1/?a=b@c"), "mongodb://h:1/?a=b@c");
        assert_eq!(redact("not a uri"), "not a uri");
    }
}
