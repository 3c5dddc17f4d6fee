//! `saslStart` / `saslContinue` / `logout`: drives one SCRAM conversation per connection
//! and marks the connection authenticated on success. Every failure answers MongoDB's
//! `AuthenticationFailed` (code 18); the reason goes to the log only.

use bson::spec::BinarySubtype;
use bson::{Binary, Bson, Document, RawDocumentBuf, doc};

use super::{Ctx, ok};
use crate::error::CommandError;
use crate::scram::{self, Mechanism};
use crate::server::Conversation;

const CONVERSATION_ID: i32 = 1;

pub fn sasl_start(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let name = ctx.body.get_str("mechanism").unwrap_or_default();
    let mechanism = Mechanism::from_name(name).ok_or_else(|| {
        CommandError::new(
            334,
            "MechanismUnavailable",
            format!("Received authentication for mechanism {name} which is not enabled"),
        )
    })?;
    let user = ctx
        .shared
        .user
        .as_ref()
        .ok_or_else(|| fail("no user is configured"))?;
    if ctx.db != user.source {
        return Err(fail(&format!("user is not defined on database {}", ctx.db)));
    }
    let (scram, server_first) =
        scram::start(user, mechanism, &payload(ctx.body)?).map_err(|e| fail(&e.to_string()))?;
    let skip_empty = ctx
        .body
        .get_document("options")
        .is_ok_and(|o| o.get_bool("skipEmptyExchange").unwrap_or(false));
    ctx.session.conversation = Some(Conversation {
        scram,
        skip_empty,
        verified: false,
    });
    ok(step_reply(false, server_first.into_bytes()))
}

pub fn sasl_continue(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let user = ctx
        .shared
        .user
        .as_ref()
        .ok_or_else(|| fail("no user is configured"))?;
    let conversation = ctx
        .session
        .conversation
        .take()
        .ok_or_else(|| fail("no conversation in progress"))?;
    if conversation.verified {
        ctx.session.authenticated = true;
        return ok(step_reply(true, Vec::new()));
    }
    let server_final = scram::finish(user, &conversation.scram, &payload(ctx.body)?)
        .map_err(|e| fail(&e.to_string()))?;
    if conversation.skip_empty {
        ctx.session.authenticated = true;
    } else {
        ctx.session.conversation = Some(Conversation {
            verified: true,
            ..conversation
        });
    }
    let done = ctx.session.authenticated;
    ok(step_reply(done, server_final.into_bytes()))
}

pub fn logout(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    ctx.session.authenticated = false;
    ctx.session.conversation = None;
    ok(Document::new())
}

fn step_reply(done: bool, payload: Vec<u8>) -> Document {
    doc! {
        "conversationId": CONVERSATION_ID,
        "done": done,
        "payload": Binary { subtype: BinarySubtype::Generic, bytes: payload },
    }
}

fn payload(body: &Document) -> Result<Vec<u8>, CommandError> {
    match body.get("payload") {
        Some(Bson::Binary(b)) => Ok(b.bytes.clone()),
        Some(Bson::String(s)) => Ok(s.clone().into_bytes()),
        _ => Err(fail("no payload")),
    }
}

fn fail(reason: &str) -> CommandError {
    tracing::info!("authentication failed: {reason}");
    CommandError::authentication_failed()
}
