//! Errors: [`MongoError`] for starting the endpoint, [`CommandError`] for one command's
//! failure, shaped exactly like MongoDB's `{ok: 0, errmsg, code, codeName}` reply because
//! drivers and agents react to those codes. Never used for connection-level failures
//! (those live in `wire`).

use std::net::SocketAddr;

use bson::{Document, doc};

/// Why the endpoint could not start.
#[derive(Debug, thiserror::Error)]
pub enum MongoError {
    #[error("cannot bind the MongoDB endpoint to {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot start the MongoDB endpoint thread for {addr}: {source}")]
    Thread {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot derive SCRAM keys for user {user:?}: {reason}")]
    Credentials { user: String, reason: String },
}

/// A failed command, answered to the client as MongoDB would answer it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code_name} ({code}): {errmsg}")]
pub struct CommandError {
    pub code: i32,
    pub code_name: &'static str,
    pub errmsg: String,
}

impl CommandError {
    pub fn new(code: i32, code_name: &'static str, errmsg: impl Into<String>) -> Self {
        Self {
            code,
            code_name,
            errmsg: errmsg.into(),
        }
    }

    pub fn bad_value(errmsg: impl Into<String>) -> Self {
        Self::new(2, "BadValue", errmsg)
    }

    pub fn failed_to_parse(errmsg: impl Into<String>) -> Self {
        Self::new(9, "FailedToParse", errmsg)
    }

    pub fn type_mismatch(errmsg: impl Into<String>) -> Self {
        Self::new(14, "TypeMismatch", errmsg)
    }

    pub fn command_not_found(name: &str) -> Self {
        Self::new(59, "CommandNotFound", format!("no such command: '{name}'"))
    }

    pub fn authentication_failed() -> Self {
        Self::new(18, "AuthenticationFailed", "Authentication failed.")
    }

    pub fn unauthorized(command: &str) -> Self {
        Self::new(
            13,
            "Unauthorized",
            format!("Command {command} requires authentication"),
        )
    }

    pub fn cursor_not_found(id: i64) -> Self {
        Self::new(43, "CursorNotFound", format!("cursor id {id} not found"))
    }

    pub fn invalid_namespace(errmsg: impl Into<String>) -> Self {
        Self::new(73, "InvalidNamespace", errmsg)
    }

    pub fn internal(errmsg: impl Into<String>) -> Self {
        Self::new(1, "InternalError", errmsg)
    }

    /// The reply document a client receives for this error.
    pub fn to_document(&self) -> Document {
        doc! {
            "ok": 0.0,
            "errmsg": &self.errmsg,
            "code": self.code,
            "codeName": self.code_name,
        }
    }
}
