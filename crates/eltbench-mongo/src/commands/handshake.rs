//! Handshake and server-information commands: `hello`/`isMaster` (reporting a standalone
//! server, wire version [`crate::MAX_WIRE_VERSION`], and the SCRAM mechanisms when a
//! user is configured), `ping`, `buildInfo`, `hostInfo`, `getParameter`, and no-ops for
//! session commands. They never read or change the store.

use bson::{Bson, DateTime, Document, RawDocumentBuf, doc};

use super::{Ctx, ok};
use crate::error::CommandError;
use crate::scram::Mechanism;
use crate::wire::MAX_MESSAGE_BYTES;
use crate::{MAX_WIRE_VERSION, SERVER_VERSION};

const MAX_BSON_OBJECT_SIZE: i32 = 16 * 1024 * 1024;

pub fn hello(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    ok(handshake_reply(ctx, "isWritablePrimary"))
}

pub fn is_master(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    ok(handshake_reply(ctx, "ismaster"))
}

fn handshake_reply(ctx: &Ctx<'_>, primary_field: &str) -> Document {
    let mut reply = Document::new();
    if ctx.body.get_bool("helloOk").unwrap_or(false) {
        reply.insert("helloOk", true);
    }
    reply.insert(primary_field, true);
    reply.extend(doc! {
        "maxBsonObjectSize": MAX_BSON_OBJECT_SIZE,
        "maxMessageSizeBytes": i32::try_from(MAX_MESSAGE_BYTES).unwrap_or(i32::MAX),
        "maxWriteBatchSize": 100_000,
        "localTime": DateTime::now(),
        "logicalSessionTimeoutMinutes": 30,
        "connectionId": ctx.session.id,
        "minWireVersion": 0,
        "maxWireVersion": MAX_WIRE_VERSION,
        "readOnly": false,
    });
    if let Some(mechs) = sasl_supported_mechs(ctx) {
        reply.insert("saslSupportedMechs", mechs);
    }
    reply
}

/// The mechanisms for `saslSupportedMechs: "<db>.<user>"`, when that is our user.
fn sasl_supported_mechs(ctx: &Ctx<'_>) -> Option<Vec<&'static str>> {
    let asked = ctx.body.get_str("saslSupportedMechs").ok()?;
    let user = ctx.shared.user.as_ref()?;
    (asked == format!("{}.{}", user.source, user.username)).then(|| Mechanism::NAMES.to_vec())
}

pub fn ping(_: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    ok(Document::new())
}

pub fn no_op(_: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    ok(Document::new())
}

pub fn build_info(_: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let parts: Vec<i32> = SERVER_VERSION
        .split('.')
        .filter_map(|p| p.parse().ok())
        .collect();
    let mut version_array = parts;
    version_array.push(0);
    ok(doc! {
        "version": SERVER_VERSION,
        "gitVersion": "eltbench",
        "versionArray": version_array,
        "modules": [],
        "allocator": "system",
        "javascriptEngine": "none",
        "sysInfo": "deprecated",
        "bits": 64,
        "debug": false,
        "maxBsonObjectSize": MAX_BSON_OBJECT_SIZE,
        "storageEngines": ["eltbench-memory"],
        "openssl": {"running": "disabled"},
    })
}

pub fn host_info(_: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let cores =
        std::thread::available_parallelism().map_or(1, |n| i32::try_from(n.get()).unwrap_or(1));
    ok(doc! {
        "system": {
            "currentTime": DateTime::now(),
            "hostname": "localhost",
            "cpuAddrSize": 64,
            "numCores": cores,
            "cpuArch": std::env::consts::ARCH,
        },
        "os": {"type": std::env::consts::OS, "name": "eltbench"},
        "extra": {},
    })
}

/// Answers the parameters drivers and shells ask for; unknown ones are an error.
pub fn get_parameter(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let known = |name: &str| -> Option<Bson> {
        match name {
            "featureCompatibilityVersion" => Some(Bson::Document(doc! {"version": "6.0"})),
            "authenticationMechanisms" => Some(Bson::from(Mechanism::NAMES.to_vec())),
            "maxBSONDepth" => Some(Bson::Int32(100)),
            _ => None,
        }
    };
    let mut reply = Document::new();
    for (name, _) in ctx.body.iter().skip(1).filter(|(n, _)| !n.starts_with('$')) {
        if let Some(value) = known(name) {
            reply.insert(name.clone(), value);
        }
    }
    if reply.is_empty() {
        return Err(CommandError::new(
            72,
            "InvalidOptions",
            "no option found to get",
        ));
    }
    ok(reply)
}

pub fn whats_my_uri(_: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    ok(doc! {"you": "127.0.0.1"})
}

pub fn connection_status(ctx: &mut Ctx<'_>) -> Result<RawDocumentBuf, CommandError> {
    let users: Vec<Document> = match (&ctx.shared.user, ctx.session.authenticated) {
        (Some(user), true) => vec![doc! {"user": &user.username, "db": &user.source}],
        _ => Vec::new(),
    };
    ok(doc! {"authInfo": {"authenticatedUsers": users, "authenticatedUserRoles": []}})
}
