//! The `aggregate` command on a collection: parses the pipeline, scans the collection
//! through a leading `$match` (so unmatched documents are never copied), runs the other
//! stages and returns a cursor. Database-level aggregation (`aggregate: 1`) and
//! `explain` are rejected, never faked.

use bson::{Bson, RawDocumentBuf};

use super::catalog::cursor_batch_size;
use super::{Ctx, namespace};
use crate::aggregate::Pipeline;
use crate::error::CommandError;

pub fn aggregate(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let coll = match ctx.body.get("aggregate") {
        Some(Bson::String(name)) if !name.is_empty() => name.clone(),
        _ => {
            return Err(CommandError::invalid_namespace(
                "eltbench's MongoDB endpoint supports aggregate on a collection only",
            ));
        }
    };
    if ctx.body.get("explain").is_some() {
        return Err(CommandError::new(
            20,
            "IllegalOperation",
            "explain is not supported by eltbench's MongoDB endpoint",
        ));
    }
    let stages = ctx.body.get_array("pipeline").map_err(|_| {
        CommandError::type_mismatch("BSON field 'aggregate.pipeline' is missing or not an array")
    })?;
    let mut pipeline = Pipeline::parse(stages)?;
    if ctx.body.get_document("cursor").is_err() {
        return Err(CommandError::failed_to_parse(
            "The 'cursor' option is required, except for aggregate with the explain argument",
        ));
    }
    let batch_size = cursor_batch_size(ctx.body)?;
    let first_match = pipeline.take_leading_match();
    let matched = ctx.shared.store.find(&ctx.db, &coll, &first_match);
    let docs = pipeline.run(matched.iter().map(|e| e.doc.clone()).collect());
    ctx.shared
        .cursors
        .open(&namespace(&ctx.db, &coll), docs, batch_size, false)
}
