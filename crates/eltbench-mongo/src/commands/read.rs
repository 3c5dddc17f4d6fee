//! Read commands: `find` (filter, projection, sort, skip, limit, batchSize, singleBatch)
//! opening a cursor, `getMore` and `killCursors` over it, `count` and `distinct`. Reads
//! copy documents out of the store under a short read lock and never modify it.

use bson::{Bson, Document, RawDocumentBuf, doc};

use super::{Ctx, collection, count_field, document_field, namespace, ok};
use crate::aggregate::number;
use crate::compare::equal;
use crate::cursor::CursorDoc;
use crate::error::CommandError;
use crate::filter::{Filter, truthy, type_name};
use crate::projection::Projection;
use crate::sort::SortSpec;

pub fn find(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let coll = collection(ctx.body)?;
    let filter = Filter::from_field(ctx.body, "filter")?;
    let projection = document_field(ctx.body, "projection")?
        .map(Projection::parse)
        .transpose()?
        .unwrap_or_default();
    let sort = document_field(ctx.body, "sort")?
        .map(SortSpec::parse)
        .transpose()?
        .unwrap_or_default();
    let skip = count_field(ctx.body, "skip")?.unwrap_or(0);
    let (limit, negative_limit) = signed_limit(ctx.body)?;
    let batch_size = count_field(ctx.body, "batchSize")?;
    let single_batch = negative_limit || ctx.body.get("singleBatch").is_some_and(truthy);

    let mut entries = ctx.shared.store.find(&ctx.db, &coll, &filter);
    sort.sort_by(&mut entries, |e| &e.doc);
    let docs: Vec<CursorDoc> = entries
        .into_iter()
        .skip(skip)
        .take(limit.unwrap_or(usize::MAX))
        .map(|e| match &projection {
            Projection::All => CursorDoc::Stored(e),
            p => CursorDoc::Owned(p.apply(e.doc.clone())),
        })
        .collect();
    let batch_size = if negative_limit { limit } else { batch_size };
    ctx.shared
        .cursors
        .open(&namespace(&ctx.db, &coll), docs, batch_size, single_batch)
}

/// `limit` (0 = none); a negative limit means "one batch of at most |limit|".
fn signed_limit(body: &Document) -> Result<(Option<usize>, bool), CommandError> {
    let value = match body.get("limit") {
        Some(Bson::Int32(v)) => i64::from(*v),
        Some(Bson::Int64(v)) => *v,
        Some(Bson::Double(v)) if v.fract() == 0.0 => *v as i64,
        None | Some(Bson::Null) => 0,
        Some(other) => {
            return Err(CommandError::type_mismatch(format!(
                "limit has the wrong type '{}'",
                type_name(other)
            )));
        }
    };
    let magnitude = usize::try_from(value.unsigned_abs()).unwrap_or(usize::MAX);
    Ok(((value != 0).then_some(magnitude), value < 0))
}

pub fn get_more(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let id = match ctx.body.get("getMore") {
        Some(Bson::Int64(id)) => *id,
        Some(Bson::Int32(id)) => i64::from(*id),
        other => {
            let found = other.map_or("missing", type_name);
            return Err(CommandError::type_mismatch(format!(
                "BSON field 'getMore' is the wrong type '{found}', expected type 'long'"
            )));
        }
    };
    let coll = ctx.body.get_str("collection").map_err(|_| {
        CommandError::type_mismatch("BSON field 'getMore.collection' must be a string")
    })?;
    let batch_size = count_field(ctx.body, "batchSize")?.filter(|n| *n > 0);
    ctx.shared
        .cursors
        .get_more(id, &namespace(&ctx.db, coll), batch_size)
}

pub fn kill_cursors(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    collection(ctx.body)?;
    let ids = ctx.body.get_array("cursors").map_err(|_| {
        CommandError::type_mismatch("BSON field 'killCursors.cursors' must be an array")
    })?;
    let (mut killed, mut not_found) = (Vec::new(), Vec::new());
    for id in ids {
        let Bson::Int64(id) = id else { continue };
        if ctx.shared.cursors.kill(*id) {
            killed.push(*id)
        } else {
            not_found.push(*id)
        }
    }
    ok(doc! {
        "cursorsKilled": killed,
        "cursorsNotFound": not_found,
        "cursorsAlive": [],
        "cursorsUnknown": [],
    })
}

pub fn count(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let coll = collection(ctx.body)?;
    let filter = Filter::from_field(ctx.body, "query")?;
    let skip = count_field(ctx.body, "skip")?.unwrap_or(0);
    let (limit, _) = signed_limit(ctx.body)?;
    let matching = ctx.shared.store.count_matching(&ctx.db, &coll, &filter);
    let n = matching
        .saturating_sub(skip)
        .min(limit.unwrap_or(usize::MAX));
    ok(doc! {"n": number(n)})
}

pub fn distinct(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let coll = collection(ctx.body)?;
    let key = ctx
        .body
        .get_str("key")
        .map_err(|_| CommandError::type_mismatch("BSON field 'distinct.key' must be a string"))?;
    let filter = Filter::from_field(ctx.body, "query")?;
    let mut values: Vec<Bson> = Vec::new();
    for entry in ctx.shared.store.find(&ctx.db, &coll, &filter) {
        let found = match crate::expr::lookup(&entry.doc, key) {
            Some(Bson::Array(items)) => items.clone(),
            Some(v) => vec![v.clone()],
            None => Vec::new(),
        };
        for v in found {
            if !values.iter().any(|seen| equal(seen, &v)) {
                values.push(v);
            }
        }
    }
    values.sort_by(crate::compare::compare);
    ok(doc! {"values": values})
}
