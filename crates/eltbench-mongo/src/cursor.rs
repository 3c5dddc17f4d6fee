//! Server-side cursors: the documents a `find`, `aggregate` or `listCollections` has not
//! yet returned, under a random non-zero id, handed out in batches by `getMore` until
//! exhausted (id 0) or killed. Batches are capped by count (`batchSize`, 101 for a first
//! batch by default) and by bytes (so a reply stays under the 16 MiB document limit).
//! Never holds the registry lock while encoding a batch.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use bson::{Document, RawArrayBuf, RawDocumentBuf};

use crate::error::CommandError;
use crate::store::Entry;

/// Documents in a first batch when the client gives no `batchSize`, as in `mongod`.
pub const DEFAULT_FIRST_BATCH: usize = 101;

/// Upper bound on the encoded documents of one batch.
const MAX_BATCH_BYTES: usize = 16 * 1024 * 1024 - 64 * 1024;

/// A document a cursor will return: shared with the store (already encoded) or built
/// by the command (projected, grouped, catalog entries).
pub enum CursorDoc {
    Stored(Arc<Entry>),
    Owned(Document),
}

impl From<Document> for CursorDoc {
    fn from(doc: Document) -> Self {
        Self::Owned(doc)
    }
}

impl From<Arc<Entry>> for CursorDoc {
    fn from(entry: Arc<Entry>) -> Self {
        Self::Stored(entry)
    }
}

impl CursorDoc {
    fn encode(&self) -> Result<RawDocumentBuf, CommandError> {
        let doc = match self {
            Self::Stored(entry) => match &entry.raw {
                Some(raw) => return Ok(raw.clone()),
                None => &entry.doc,
            },
            Self::Owned(doc) => doc,
        };
        RawDocumentBuf::from_document(doc)
            .map_err(|e| CommandError::internal(format!("cannot encode a document: {e}")))
    }
}

struct Cursor {
    ns: String,
    docs: VecDeque<CursorDoc>,
}

/// All open cursors of one endpoint.
#[derive(Default)]
pub struct Cursors {
    open: Mutex<HashMap<i64, Cursor>>,
}

/// Which batch a reply carries.
#[derive(Clone, Copy)]
pub enum BatchKind {
    First,
    Next,
}

impl Cursors {
    /// Opens a cursor over `docs` and returns the reply with its first batch. With
    /// `single_batch` the cursor is closed after the first batch whatever remains.
    pub fn open<D: Into<CursorDoc>>(
        &self,
        ns: &str,
        docs: Vec<D>,
        batch_size: Option<usize>,
        single_batch: bool,
    ) -> Result<RawDocumentBuf, CommandError> {
        let mut docs: VecDeque<CursorDoc> = docs.into_iter().map(Into::into).collect();
        let batch = take_batch(&mut docs, batch_size.unwrap_or(DEFAULT_FIRST_BATCH))?;
        let id = if docs.is_empty() || single_batch {
            0
        } else {
            self.insert(ns.to_owned(), docs)
        };
        Ok(reply(id, ns, BatchKind::First, batch))
    }

    /// Returns the next batch of cursor `id`, which must belong to namespace `ns`.
    pub fn get_more(
        &self,
        id: i64,
        ns: &str,
        batch_size: Option<usize>,
    ) -> Result<RawDocumentBuf, CommandError> {
        let mut cursor = self
            .lock()
            .remove(&id)
            .ok_or_else(|| CommandError::cursor_not_found(id))?;
        if cursor.ns != ns {
            let msg = format!(
                "Requested getMore on namespace '{ns}', but cursor belongs to a different namespace {}",
                cursor.ns
            );
            self.lock().insert(id, cursor);
            return Err(CommandError::new(13, "Unauthorized", msg));
        }
        let batch = take_batch(&mut cursor.docs, batch_size.unwrap_or(usize::MAX))?;
        let next_id = if cursor.docs.is_empty() {
            0
        } else {
            self.lock().insert(id, cursor);
            id
        };
        Ok(reply(next_id, ns, BatchKind::Next, batch))
    }

    /// Closes a cursor; false when no such cursor was open.
    pub fn kill(&self, id: i64) -> bool {
        self.lock().remove(&id).is_some()
    }

    /// Number of open cursors.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    fn insert(&self, ns: String, docs: VecDeque<CursorDoc>) -> i64 {
        let mut open = self.lock();
        loop {
            let id = rand::random::<i64>() & i64::MAX;
            if id != 0 && !open.contains_key(&id) {
                open.insert(id, Cursor { ns, docs });
                return id;
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Cursor>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Encodes up to `max` documents from the front of `docs`, stopping before the byte cap
/// (a batch always holds at least one document when any remain and `max > 0`).
fn take_batch(docs: &mut VecDeque<CursorDoc>, max: usize) -> Result<RawArrayBuf, CommandError> {
    let mut batch = RawArrayBuf::new();
    let mut bytes = 0;
    let mut count = 0;
    while count < max {
        let Some(doc) = docs.pop_front() else { break };
        let raw = doc.encode()?;
        if count > 0 && bytes + raw.as_bytes().len() > MAX_BATCH_BYTES {
            docs.push_front(doc);
            break;
        }
        bytes += raw.as_bytes().len();
        count += 1;
        batch.push(raw);
    }
    Ok(batch)
}

/// `{cursor: {firstBatch|nextBatch: [...], id, ns}, ok: 1}`.
pub fn reply(id: i64, ns: &str, kind: BatchKind, batch: RawArrayBuf) -> RawDocumentBuf {
    let key = match kind {
        BatchKind::First => "firstBatch",
        BatchKind::Next => "nextBatch",
    };
    let mut cursor = RawDocumentBuf::new();
    cursor.append(key, batch);
    cursor.append("id", id);
    cursor.append("ns", ns);
    let mut out = RawDocumentBuf::new();
    out.append("cursor", cursor);
    out.append("ok", 1.0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::{Bson, doc};

    fn batch_len(reply: &RawDocumentBuf, key: &str) -> (usize, i64) {
        let d = reply.to_document().unwrap();
        let c = d.get_document("cursor").unwrap();
        (c.get_array(key).unwrap().len(), c.get_i64("id").unwrap())
    }

    #[test]
    fn batches_until_exhausted() {
        let cursors = Cursors::default();
        let docs: Vec<_> = (0..250).map(|i| doc! {"i": i}).collect();
        let first = cursors.open("d.c", docs, None, false).unwrap();
        let (n, id) = batch_len(&first, "firstBatch");
        assert_eq!(n, DEFAULT_FIRST_BATCH);
        assert_ne!(id, 0);
        let (n, same) = batch_len(
            &cursors.get_more(id, "d.c", Some(100)).unwrap(),
            "nextBatch",
        );
        assert_eq!((n, same), (100, id));
        let (n, done) = batch_len(&cursors.get_more(id, "d.c", None).unwrap(), "nextBatch");
        assert_eq!((n, done), (49, 0));
        assert_eq!(cursors.get_more(id, "d.c", None).unwrap_err().code, 43);
        assert_eq!(cursors.len(), 0);
    }

    #[test]
    fn single_batch_and_namespace_checks() {
        let cursors = Cursors::default();
        let docs: Vec<_> = (0..5).map(|i| doc! {"i": i}).collect();
        let (n, id) = batch_len(
            &cursors.open("d.c", docs.clone(), Some(2), true).unwrap(),
            "firstBatch",
        );
        assert_eq!((n, id), (2, 0));
        let (_, id) = batch_len(
            &cursors.open("d.c", docs, Some(2), false).unwrap(),
            "firstBatch",
        );
        assert_eq!(cursors.get_more(id, "d.other", None).unwrap_err().code, 13);
        assert!(cursors.kill(id));
        assert!(!cursors.kill(id));
    }

    #[test]
    fn byte_cap_splits_large_batches() {
        let big = "x".repeat(1024 * 1024);
        let docs: Vec<_> = (0..20)
            .map(|_| doc! {"s": Bson::String(big.clone())})
            .collect();
        let cursors = Cursors::default();
        let (n, id) = batch_len(
            &cursors.open("d.c", docs, Some(1000), false).unwrap(),
            "firstBatch",
        );
        assert!(n < 20 && n > 10, "{n}");
        assert_ne!(id, 0);
    }
}
