//! Command dispatch: one table from command name to handler, the authentication gate, and
//! the helpers handlers share (reading typed fields, building `{..., ok: 1}` replies).
//! Handlers live in one file per concern. A command that is not in the table gets
//! MongoDB's `CommandNotFound` reply; a handler error becomes MongoDB's error document.
//! Nothing here touches sockets.

mod aggregate;
mod auth;
mod catalog;
mod handshake;
mod read;
mod write;

use bson::{Bson, Document, RawDocumentBuf};

use crate::error::CommandError;
use crate::filter::type_name;
use crate::server::{Session, Shared};

/// Everything a handler may use for one command.
pub struct Ctx<'a> {
    pub shared: &'a Shared,
    pub session: &'a mut Session,
    /// The command's database (`$db`, or the OP_QUERY namespace's database).
    pub db: String,
    pub body: &'a Document,
    /// OP_MSG kind-1 sections, by identifier.
    pub sequences: Vec<(String, Vec<Document>)>,
}

type Handler = fn(&mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError>;

/// Whether a command may run on a connection that has not authenticated yet.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Open,
    Authenticated,
}

const COMMANDS: &[(&str, Handler, Access)] = &[
    ("hello", handshake::hello, Access::Open),
    ("isMaster", handshake::is_master, Access::Open),
    ("ismaster", handshake::is_master, Access::Open),
    ("ping", handshake::ping, Access::Open),
    ("buildInfo", handshake::build_info, Access::Open),
    ("buildinfo", handshake::build_info, Access::Open),
    ("hostInfo", handshake::host_info, Access::Authenticated),
    (
        "getParameter",
        handshake::get_parameter,
        Access::Authenticated,
    ),
    ("whatsmyuri", handshake::whats_my_uri, Access::Open),
    (
        "connectionStatus",
        handshake::connection_status,
        Access::Open,
    ),
    ("endSessions", handshake::no_op, Access::Open),
    ("killSessions", handshake::no_op, Access::Authenticated),
    ("abortTransaction", handshake::no_op, Access::Authenticated),
    ("saslStart", auth::sasl_start, Access::Open),
    ("saslContinue", auth::sasl_continue, Access::Open),
    ("logout", auth::logout, Access::Open),
    (
        "listDatabases",
        catalog::list_databases,
        Access::Authenticated,
    ),
    (
        "listCollections",
        catalog::list_collections,
        Access::Authenticated,
    ),
    ("listIndexes", catalog::list_indexes, Access::Authenticated),
    ("create", catalog::create, Access::Authenticated),
    ("drop", catalog::drop, Access::Authenticated),
    (
        "dropDatabase",
        catalog::drop_database,
        Access::Authenticated,
    ),
    ("find", read::find, Access::Authenticated),
    ("getMore", read::get_more, Access::Authenticated),
    ("killCursors", read::kill_cursors, Access::Authenticated),
    ("count", read::count, Access::Authenticated),
    ("distinct", read::distinct, Access::Authenticated),
    ("aggregate", aggregate::aggregate, Access::Authenticated),
    ("insert", write::insert, Access::Authenticated),
    ("delete", write::delete, Access::Authenticated),
];

/// Runs one command and returns its reply document (success or MongoDB error).
pub fn run(
    shared: &Shared,
    session: &mut Session,
    body: &Document,
    sequences: Vec<(String, Vec<Document>)>,
    default_db: &str,
) -> RawDocumentBuf {
    let db = body.get_str("$db").unwrap_or(default_db).to_owned();
    let mut ctx = Ctx {
        shared,
        session,
        db,
        body,
        sequences,
    };
    let result = dispatch(&mut ctx);
    result.unwrap_or_else(|err| {
        tracing::debug!(code = err.code, "command failed: {}", err.errmsg);
        RawDocumentBuf::from_document(&err.to_document()).unwrap_or_default()
    })
}

fn dispatch(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let name = ctx.body.keys().next().cloned().unwrap_or_default();
    let Some((_, handler, access)) = COMMANDS.iter().find(|(n, _, _)| *n == name) else {
        return Err(CommandError::command_not_found(&name));
    };
    let gated = ctx.shared.user.is_some() && !ctx.session.authenticated;
    if gated && *access == Access::Authenticated {
        return Err(CommandError::unauthorized(&name));
    }
    handler(ctx)
}

/// `doc` plus `ok: 1.0`, encoded.
pub fn ok(mut doc: Document) -> Result<RawDocumentBuf, CommandError> {
    doc.insert("ok", 1.0);
    RawDocumentBuf::from_document(&doc)
        .map_err(|e| CommandError::internal(format!("cannot encode reply: {e}")))
}

/// The collection named by the command's first field (`{find: "orders", ...}`).
pub fn collection(body: &Document) -> Result<String, CommandError> {
    match body.iter().next() {
        Some((_, Bson::String(name))) if !name.is_empty() => Ok(name.clone()),
        Some((cmd, other)) => Err(CommandError::invalid_namespace(format!(
            "collection name has invalid type {}",
            if matches!(other, Bson::String(_)) {
                "empty string".to_owned()
            } else {
                format!("{} for {cmd}", type_name(other))
            }
        ))),
        None => Err(CommandError::invalid_namespace("empty command")),
    }
}

/// An optional non-negative integer field.
pub fn count_field(body: &Document, field: &str) -> Result<Option<usize>, CommandError> {
    let value = match body.get(field) {
        None | Some(Bson::Null) => return Ok(None),
        Some(Bson::Int32(v)) => i64::from(*v),
        Some(Bson::Int64(v)) => *v,
        Some(Bson::Double(v)) if v.fract() == 0.0 => *v as i64,
        Some(other) => {
            return Err(CommandError::type_mismatch(format!(
                "BSON field '{field}' is the wrong type '{}', expected types '[long, int, decimal, double]'",
                type_name(other)
            )));
        }
    };
    usize::try_from(value).map(Some).map_err(|_| {
        CommandError::bad_value(format!(
            "{field} value must be non-negative, but received: {value}"
        ))
    })
}

/// An optional document field (missing or null: `None`).
pub fn document_field<'a>(
    body: &'a Document,
    field: &str,
) -> Result<Option<&'a Document>, CommandError> {
    match body.get(field) {
        None | Some(Bson::Null) => Ok(None),
        Some(Bson::Document(d)) => Ok(Some(d)),
        Some(other) => Err(CommandError::type_mismatch(format!(
            "BSON field '{field}' is the wrong type '{}', expected type 'object'",
            type_name(other)
        ))),
    }
}

/// Documents given either in the body (`documents: [...]`) or as an OP_MSG sequence.
pub fn documents_arg(ctx: &mut Ctx<'_>, field: &str) -> Result<Vec<Document>, CommandError> {
    if let Some(pos) = ctx.sequences.iter().position(|(id, _)| id == field) {
        return Ok(ctx.sequences.swap_remove(pos).1);
    }
    match ctx.body.get(field) {
        Some(Bson::Array(items)) => items
            .iter()
            .map(|item| match item {
                Bson::Document(d) => Ok(d.clone()),
                other => Err(CommandError::type_mismatch(format!(
                    "BSON field '{field}' has an element of type '{}', expected 'object'",
                    type_name(other)
                ))),
            })
            .collect(),
        _ => Err(CommandError::new(
            40414,
            "Location40414",
            format!("BSON field '{field}' is missing but a required field"),
        )),
    }
}

/// `db.coll`.
pub fn namespace(db: &str, coll: &str) -> String {
    format!("{db}.{coll}")
}
