//! Write commands: `insert` (documents from the body or an OP_MSG document sequence,
//! `_id` assigned when missing) and `delete` (`deletes: [{q, limit: 0|1}]`). Replies
//! carry `n` as `mongod` does. Updates are not supported (they answer CommandNotFound).

use bson::{Bson, RawDocumentBuf, doc};

use super::{Ctx, collection, documents_arg, ok};
use crate::aggregate::number;
use crate::error::CommandError;
use crate::filter::Filter;

pub fn insert(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let coll = collection(ctx.body)?;
    if coll.contains('$') {
        return Err(CommandError::invalid_namespace(format!(
            "Invalid collection name: {coll}"
        )));
    }
    let docs = documents_arg(ctx, "documents")?;
    let n = ctx.shared.store.insert_many(&ctx.db, &coll, docs);
    ok(doc! {"n": number(n)})
}

pub fn delete(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let coll = collection(ctx.body)?;
    let mut n = 0;
    for statement in documents_arg(ctx, "deletes")? {
        let filter = Filter::from_field(&statement, "q")?;
        let just_one = match statement.get("limit") {
            Some(Bson::Int32(1)) | Some(Bson::Int64(1)) => true,
            Some(Bson::Double(v)) if *v == 1.0 => true,
            Some(Bson::Int32(0)) | Some(Bson::Int64(0)) | None => false,
            Some(Bson::Double(v)) if *v == 0.0 => false,
            Some(other) => {
                return Err(CommandError::failed_to_parse(format!(
                    "The limit field in delete objects must be 0 or 1. Got {other}"
                )));
            }
        };
        n += ctx.shared.store.delete(&ctx.db, &coll, &filter, just_one);
    }
    ok(doc! {"n": number(n)})
}
