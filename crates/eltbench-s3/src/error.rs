//! Errors of this crate's own API: starting the server and materialising objects on disk.
//!
//! Errors a client sees over HTTP are S3 error codes (`s3s::S3Error`) built in the
//! operation modules; this enum must never be sent over the wire.

use std::net::SocketAddr;
use std::path::PathBuf;

/// What went wrong while starting the endpoint or writing objects under its root.
#[derive(Debug, thiserror::Error)]
pub enum S3Error {
    #[error("cannot bind the S3 endpoint to {addr}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },

    #[error("S3 root directory {path} is not usable")]
    Root {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("invalid bucket name {bucket:?}: {reason}")]
    InvalidBucket {
        bucket: String,
        reason: &'static str,
    },

    #[error("invalid object key {key:?} in bucket {bucket:?}: {reason}")]
    InvalidKey {
        bucket: String,
        key: String,
        reason: &'static str,
    },

    #[error("invalid base domain {domain:?} for virtual-host-style addressing: {reason}")]
    InvalidDomain {
        domain: String,
        reason: &'static str,
    },

    #[error("cannot write {path}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}
