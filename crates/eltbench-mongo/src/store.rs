//! The in-memory data the endpoint serves: databases → collections → documents, shared
//! between the endpoint and whoever fills it (`Store` is a cheap `Arc` clone). Documents
//! keep their BSON types exactly; `_id` is assigned (ObjectId) and moved to the front on
//! insert, as `mongod` does. Each document is also kept BSON-encoded, so reads hand out
//! shared entries and cursors copy bytes instead of re-encoding. Never persists anything
//! and never panics on a poisoned lock.

use std::collections::BTreeMap;
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use bson::oid::ObjectId;
use bson::{Bson, Document, RawDocumentBuf};

use crate::filter::Filter;

type Databases = BTreeMap<String, BTreeMap<String, Vec<Arc<Entry>>>>;

/// One stored document and its encoding (`None` only for a document that BSON cannot
/// encode, e.g. a key with a NUL byte given through the Rust API; it fails when read).
#[derive(Debug)]
pub(crate) struct Entry {
    pub doc: Document,
    pub raw: Option<RawDocumentBuf>,
}

impl Entry {
    fn new(doc: Document) -> Arc<Self> {
        let raw = RawDocumentBuf::from_document(&doc).ok();
        Arc::new(Self { doc, raw })
    }
}

/// Thread-safe databases of collections of documents.
#[derive(Debug, Clone, Default)]
pub struct Store {
    inner: Arc<RwLock<Databases>>,
}

impl Store {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn read(&self) -> RwLockReadGuard<'_, Databases> {
        self.inner.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, Databases> {
        self.inner.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// Appends documents (creating the collection), giving each an `_id` if it has none.
    /// Returns how many were inserted.
    pub fn insert_many(&self, db: &str, coll: &str, docs: Vec<Document>) -> usize {
        let count = docs.len();
        let prepared: Vec<Arc<Entry>> = docs
            .into_iter()
            .map(|d| Entry::new(with_id_first(d)))
            .collect();
        let mut dbs = self.write();
        let target = dbs
            .entry(db.to_owned())
            .or_default()
            .entry(coll.to_owned())
            .or_default();
        target.extend(prepared);
        count
    }

    /// Creates an empty collection; false when it already existed.
    pub fn create_collection(&self, db: &str, coll: &str) -> bool {
        let mut dbs = self.write();
        let colls = dbs.entry(db.to_owned()).or_default();
        if colls.contains_key(coll) {
            return false;
        }
        colls.insert(coll.to_owned(), Vec::new());
        true
    }

    /// Names of databases holding at least one collection, sorted.
    pub fn database_names(&self) -> Vec<String> {
        self.read()
            .iter()
            .filter(|(_, colls)| !colls.is_empty())
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// Names of a database's collections, sorted (empty for an unknown database).
    pub fn collection_names(&self, db: &str) -> Vec<String> {
        self.read()
            .get(db)
            .map(|c| c.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// True when the collection exists.
    pub fn has_collection(&self, db: &str, coll: &str) -> bool {
        self.read().get(db).is_some_and(|c| c.contains_key(coll))
    }

    /// Number of documents in a collection (0 when it does not exist).
    pub fn count(&self, db: &str, coll: &str) -> usize {
        self.read()
            .get(db)
            .and_then(|c| c.get(coll))
            .map_or(0, Vec::len)
    }

    /// Approximate BSON size of a database's documents, in bytes.
    pub fn size_of_database(&self, db: &str) -> u64 {
        let dbs = self.read();
        let docs = dbs.get(db).into_iter().flat_map(|c| c.values()).flatten();
        docs.map(|e| e.raw.as_ref().map_or(0, |r| r.as_bytes().len() as u64))
            .sum()
    }

    /// A copy of every document of a collection, in insertion order.
    pub fn documents(&self, db: &str, coll: &str) -> Vec<Document> {
        let entries = self.find(db, coll, &Filter::default());
        entries.iter().map(|e| e.doc.clone()).collect()
    }

    /// The entries matching `filter`, in insertion order (shared, not copied).
    pub(crate) fn find(&self, db: &str, coll: &str, filter: &Filter) -> Vec<Arc<Entry>> {
        let dbs = self.read();
        let Some(docs) = dbs.get(db).and_then(|c| c.get(coll)) else {
            return Vec::new();
        };
        docs.iter()
            .filter(|e| filter.matches(&e.doc))
            .cloned()
            .collect()
    }

    /// Number of documents matching `filter`.
    pub(crate) fn count_matching(&self, db: &str, coll: &str, filter: &Filter) -> usize {
        let dbs = self.read();
        let docs = dbs.get(db).and_then(|c| c.get(coll));
        docs.map_or(0, |d| d.iter().filter(|e| filter.matches(&e.doc)).count())
    }

    /// Deletes matching documents (at most one when `just_one`); returns how many.
    pub(crate) fn delete(&self, db: &str, coll: &str, filter: &Filter, just_one: bool) -> usize {
        let mut dbs = self.write();
        let Some(docs) = dbs.get_mut(db).and_then(|c| c.get_mut(coll)) else {
            return 0;
        };
        let before = docs.len();
        if just_one {
            if let Some(pos) = docs.iter().position(|e| filter.matches(&e.doc)) {
                docs.remove(pos);
            }
        } else {
            docs.retain(|e| !filter.matches(&e.doc));
        }
        before - docs.len()
    }

    /// Drops a collection (and its database once empty); false when it did not exist.
    pub fn drop_collection(&self, db: &str, coll: &str) -> bool {
        let mut dbs = self.write();
        let Some(colls) = dbs.get_mut(db) else {
            return false;
        };
        let existed = colls.remove(coll).is_some();
        if colls.is_empty() {
            dbs.remove(db);
        }
        existed
    }

    /// Drops a whole database; false when it did not exist.
    pub fn drop_database(&self, db: &str) -> bool {
        self.write().remove(db).is_some()
    }
}

/// Puts `_id` first, assigning a new ObjectId when the document has none.
fn with_id_first(mut doc: Document) -> Document {
    let id = doc
        .remove("_id")
        .unwrap_or_else(|| Bson::ObjectId(ObjectId::new()));
    let mut out = Document::new();
    out.insert("_id", id);
    out.extend(doc);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn insert_assigns_ids_and_keeps_types() {
        let store = Store::new();
        store.insert_many(
            "db",
            "c",
            vec![doc! {"a": 1_i64, "b": 2.5}, doc! {"x": null, "_id": 7}],
        );
        let docs = store.documents("db", "c");
        assert!(matches!(docs[0].get("_id"), Some(Bson::ObjectId(_))));
        assert_eq!(docs[0].get("a"), Some(&Bson::Int64(1)));
        assert_eq!(docs[1].keys().next().map(String::as_str), Some("_id"));
        assert_eq!(docs[1].get("_id"), Some(&Bson::Int32(7)));
    }

    #[test]
    fn catalog_listing_and_dropping() {
        let store = Store::new();
        store.insert_many("b", "y", vec![doc! {}]);
        store.insert_many("a", "x", vec![doc! {}]);
        assert!(store.create_collection("a", "w"));
        assert!(!store.create_collection("a", "w"));
        assert_eq!(store.database_names(), ["a", "b"]);
        assert_eq!(store.collection_names("a"), ["w", "x"]);
        assert!(store.drop_collection("b", "y"));
        assert_eq!(store.database_names(), ["a"]);
        assert!(store.drop_database("a"));
        assert!(store.database_names().is_empty());
    }

    #[test]
    fn delete_one_or_many() {
        let store = Store::new();
        store.insert_many("d", "c", vec![doc! {"k": 1}, doc! {"k": 1}, doc! {"k": 2}]);
        let f = Filter::parse(&doc! {"k": 1}).unwrap();
        assert_eq!(store.delete("d", "c", &f, true), 1);
        assert_eq!(store.delete("d", "c", &f, false), 1);
        assert_eq!(store.count("d", "c"), 1);
    }
}
