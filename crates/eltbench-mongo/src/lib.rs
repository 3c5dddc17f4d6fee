//! eltbench's own MongoDB endpoint: an in-memory [`Store`] served over the MongoDB wire
//! protocol (OP_MSG, plus legacy OP_QUERY for the first handshake) so that real drivers
//! (the official Rust driver, pymongo, mongosh) can read a task's MongoDB sources when no
//! `mongod` is installed.
//!
//! It implements the subset of commands that extract-load readers and drivers use
//! (handshake, catalog, find/getMore cursors, count, a small aggregate, insert, delete,
//! drop) and answers everything else with MongoDB's own `CommandNotFound` error. It must
//! never persist data, never listen on anything but the address it is given, and never
//! crash on bad input: a malformed message closes only that connection.

mod aggregate;
mod commands;
mod compare;
mod cursor;
mod error;
mod expr;
mod filter;
mod group;
mod projection;
mod scram;
mod server;
mod sort;
mod store;
mod wire;

pub use bson;
pub use error::MongoError;
pub use scram::Credentials;
pub use server::MongoServer;
pub use store::Store;

/// The wire version this endpoint reports: MongoDB 6.0. The official Rust driver 3.x and
/// pymongo 4.x both need at least 9 (MongoDB 4.4) and accept up to 29.
pub const MAX_WIRE_VERSION: i32 = 17;

/// The server version reported by `buildInfo`, matching [`MAX_WIRE_VERSION`].
pub const SERVER_VERSION: &str = "6.0.0";
