//! The S3 operations eltbench serves, on the directory layout of [`crate::layout`]:
//! this file wires s3s's `S3` trait to the operation modules and holds what they share.
//!
//! Every operation not listed here answers `NotImplemented` (s3s's default); this module
//! must never serve a path outside the root.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;

use s3s::dto::{
    CreateBucketInput, CreateBucketOutput, DeleteBucketInput, DeleteBucketOutput,
    DeleteObjectInput, DeleteObjectOutput, GetBucketLocationInput, GetBucketLocationOutput,
    GetObjectInput, GetObjectOutput, HeadBucketInput, HeadBucketOutput, HeadObjectInput,
    HeadObjectOutput, ListBucketsInput, ListBucketsOutput, ListObjectsInput, ListObjectsOutput,
    ListObjectsV2Input, ListObjectsV2Output, PutObjectInput, PutObjectOutput,
};
use s3s::{S3, S3Request, S3Response, S3Result, s3_error};

use crate::etag::EtagCache;
use crate::{bucket_ops, layout, list_ops, object_read, object_write};

/// An S3 service over `root`, one directory per bucket.
#[derive(Debug)]
pub(crate) struct DiskS3 {
    pub root: PathBuf,
    pub region: String,
    pub etags: EtagCache,
    /// Numbers the staging files of uploads in flight.
    pub next_upload: AtomicU64,
}

impl DiskS3 {
    pub(crate) fn new(root: PathBuf, region: String) -> Self {
        Self {
            root,
            region,
            etags: EtagCache::default(),
            next_upload: AtomicU64::new(0),
        }
    }

    /// The directory of an existing bucket, else `NoSuchBucket`.
    pub(crate) async fn existing_bucket(&self, bucket: &str) -> S3Result<PathBuf> {
        let dir =
            layout::bucket_dir(&self.root, bucket).map_err(|e| s3_error!(e, InvalidBucketName))?;
        match tokio::fs::metadata(&dir).await {
            Ok(meta) if meta.is_dir() => Ok(dir),
            _ => Err(no_such_bucket(bucket)),
        }
    }

    /// The file of `key` in an existing bucket (the file itself may not exist).
    pub(crate) async fn object_file(&self, bucket: &str, key: &str) -> S3Result<PathBuf> {
        self.existing_bucket(bucket).await?;
        layout::object_path(&self.root, bucket, key)
            .map_err(|e| s3_error!(e, InvalidArgument, "{e}"))
    }
}

pub(crate) fn no_such_bucket(bucket: &str) -> s3s::S3Error {
    s3_error!(
        NoSuchBucket,
        "The specified bucket does not exist: {bucket}"
    )
}

pub(crate) fn no_such_key(key: &str) -> s3s::S3Error {
    s3_error!(NoSuchKey, "The specified key does not exist: {key}")
}

/// A size or length for an S3 integer field.
pub(crate) fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// An unexpected I/O failure on `path`, as S3's `InternalError`.
pub(crate) fn internal(path: &Path, err: io::Error) -> s3s::S3Error {
    s3_error!(InternalError, "{}: {err}", path.display())
}

#[async_trait::async_trait]
impl S3 for DiskS3 {
    async fn create_bucket(
        &self,
        req: S3Request<CreateBucketInput>,
    ) -> S3Result<S3Response<CreateBucketOutput>> {
        bucket_ops::create_bucket(self, req.input).await
    }

    async fn delete_bucket(
        &self,
        req: S3Request<DeleteBucketInput>,
    ) -> S3Result<S3Response<DeleteBucketOutput>> {
        bucket_ops::delete_bucket(self, req.input).await
    }

    async fn head_bucket(
        &self,
        req: S3Request<HeadBucketInput>,
    ) -> S3Result<S3Response<HeadBucketOutput>> {
        bucket_ops::head_bucket(self, req.input).await
    }

    async fn list_buckets(
        &self,
        _req: S3Request<ListBucketsInput>,
    ) -> S3Result<S3Response<ListBucketsOutput>> {
        bucket_ops::list_buckets(self).await
    }

    async fn get_bucket_location(
        &self,
        req: S3Request<GetBucketLocationInput>,
    ) -> S3Result<S3Response<GetBucketLocationOutput>> {
        bucket_ops::get_bucket_location(self, req.input).await
    }

    async fn list_objects_v2(
        &self,
        req: S3Request<ListObjectsV2Input>,
    ) -> S3Result<S3Response<ListObjectsV2Output>> {
        list_ops::list_objects_v2(self, req.input).await
    }

    async fn list_objects(
        &self,
        req: S3Request<ListObjectsInput>,
    ) -> S3Result<S3Response<ListObjectsOutput>> {
        list_ops::list_objects(self, req.input).await
    }

    async fn get_object(
        &self,
        req: S3Request<GetObjectInput>,
    ) -> S3Result<S3Response<GetObjectOutput>> {
        object_read::get_object(self, req.input).await
    }

    async fn head_object(
        &self,
        req: S3Request<HeadObjectInput>,
    ) -> S3Result<S3Response<HeadObjectOutput>> {
        object_read::head_object(self, req.input).await
    }

    async fn put_object(
        &self,
        req: S3Request<PutObjectInput>,
    ) -> S3Result<S3Response<PutObjectOutput>> {
        object_write::put_object(self, req.input).await
    }

    async fn delete_object(
        &self,
        req: S3Request<DeleteObjectInput>,
    ) -> S3Result<S3Response<DeleteObjectOutput>> {
        object_write::delete_object(self, req.input).await
    }
}
