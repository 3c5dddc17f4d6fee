//! Catalog commands: `listDatabases`, `listCollections` (a cursor, with `filter` and
//! `nameOnly`), `listIndexes` (the implicit `_id_` index), `create`, `drop`,
//! `dropDatabase`. Replies follow `mongod`'s shapes; names are validated, never trusted.

use bson::{Bson, Document, RawDocumentBuf, doc};

use super::{Ctx, collection, count_field, document_field, namespace, ok};
use crate::error::CommandError;
use crate::filter::{Filter, truthy};

pub fn list_databases(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let filter = Filter::from_field(ctx.body, "filter")?;
    let name_only = ctx.body.get("nameOnly").is_some_and(truthy);
    let store = &ctx.shared.store;
    let mut total: i64 = 0;
    let mut databases = Vec::new();
    for name in store.database_names() {
        let size = i64::try_from(store.size_of_database(&name)).unwrap_or(i64::MAX);
        let entry = doc! {"name": &name, "sizeOnDisk": size, "empty": false};
        if filter.matches(&entry) {
            total = total.saturating_add(size);
            databases.push(if name_only {
                doc! {"name": name}
            } else {
                entry
            });
        }
    }
    let mut reply = doc! {"databases": databases};
    if !name_only {
        reply.insert("totalSize", total);
        reply.insert("totalSizeMb", total / (1024 * 1024));
    }
    ok(reply)
}

pub fn list_collections(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let filter = Filter::from_field(ctx.body, "filter")?;
    let name_only = ctx.body.get("nameOnly").is_some_and(truthy);
    let entries: Vec<Document> = ctx
        .shared
        .store
        .collection_names(&ctx.db)
        .into_iter()
        .map(|name| collection_entry(name, name_only))
        .filter(|entry| filter.matches(entry))
        .collect();
    let batch_size = cursor_batch_size(ctx.body)?;
    let ns = namespace(&ctx.db, "$cmd.listCollections");
    ctx.shared.cursors.open(&ns, entries, batch_size, false)
}

fn collection_entry(name: String, name_only: bool) -> Document {
    if name_only {
        return doc! {"name": name, "type": "collection"};
    }
    doc! {
        "name": name,
        "type": "collection",
        "options": {},
        "info": {"readOnly": false},
        "idIndex": id_index(),
    }
}

fn id_index() -> Document {
    doc! {"v": 2, "key": {"_id": 1}, "name": "_id_"}
}

/// `cursor.batchSize` of listCollections/aggregate-style commands.
pub fn cursor_batch_size(body: &Document) -> Result<Option<usize>, CommandError> {
    match document_field(body, "cursor")? {
        Some(cursor) => count_field(cursor, "batchSize"),
        None => Ok(None),
    }
}

pub fn list_indexes(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let coll = collection(ctx.body)?;
    let ns = namespace(&ctx.db, &coll);
    if !ctx.shared.store.has_collection(&ctx.db, &coll) {
        return Err(CommandError::new(
            26,
            "NamespaceNotFound",
            format!("ns does not exist: {ns}"),
        ));
    }
    let batch_size = cursor_batch_size(ctx.body)?;
    ctx.shared
        .cursors
        .open(&ns, vec![id_index()], batch_size, false)
}

pub fn create(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let coll = checked_name(ctx.body)?;
    if !ctx.shared.store.create_collection(&ctx.db, &coll) {
        return Err(CommandError::new(
            48,
            "NamespaceExists",
            format!("Collection {} already exists.", namespace(&ctx.db, &coll)),
        ));
    }
    ok(Document::new())
}

pub fn drop(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let coll = collection(ctx.body)?;
    let ns = namespace(&ctx.db, &coll);
    if !ctx.shared.store.drop_collection(&ctx.db, &coll) {
        return Err(CommandError::new(26, "NamespaceNotFound", "ns not found"));
    }
    ok(doc! {"nIndexesWas": 1, "ns": ns})
}

pub fn drop_database(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    ctx.shared.store.drop_database(&ctx.db);
    ok(doc! {"dropped": Bson::String(ctx.db.clone())})
}

/// A collection name `mongod` would accept for creation.
fn checked_name(body: &Document) -> Result<String, CommandError> {
    let name = collection(body)?;
    if name.starts_with('.') || name.contains('$') || name.contains('\0') {
        return Err(CommandError::invalid_namespace(format!(
            "Invalid collection name: {name}"
        )));
    }
    Ok(name)
}
