//! `eltbench-s3`: an S3-compatible endpoint served in-process on loopback, standing in
//! for the LocalStack S3 that ELT-Bench's S3 sources read from.
//!
//! Objects live on disk, one directory per bucket under a root, one file per object, so
//! the sources layer can write csv/jsonl/parquet files there directly
//! ([`put_object`]) before or while the endpoint serves them. Requests are SigV4-checked
//! against one static key pair; path-style and virtual-host-style addressing both work.
//! Served: CreateBucket, DeleteBucket, HeadBucket, ListBuckets, GetBucketLocation,
//! ListObjects(V2), GetObject (with Range), HeadObject, PutObject, DeleteObject. Anything
//! else (multipart uploads, versioning, ACLs, user metadata) answers `NotImplemented`
//! or is not kept.
//!
//! The S3 protocol itself (routing, SigV4, XML bodies and errors) comes from `s3s`; this
//! crate must never implement signature checking of its own.

mod auth;
mod backend;
mod bucket_ops;
mod error;
mod etag;
mod host;
mod layout;
mod list;
mod list_ops;
mod materialise;
mod object_read;
mod object_write;
mod server;
mod walk;

pub use auth::Credentials;
pub use error::S3Error;
pub use host::DEFAULT_BASE_DOMAIN;
pub use materialise::{create_bucket, put_object};
pub use server::{S3Config, S3Server};
