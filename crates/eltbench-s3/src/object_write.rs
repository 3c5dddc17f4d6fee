//! Object writes: PutObject and DeleteObject, one file per object.
//!
//! Uploads are written to the root's uploads directory and renamed into place, so a
//! reader never sees half an object; this module must never write inside a bucket
//! directory except by that rename.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use futures::StreamExt;
use s3s::crypto::{Checksum, Md5};
use s3s::dto::{
    DeleteObjectInput, DeleteObjectOutput, ETag, PutObjectInput, PutObjectOutput, StreamingBlob,
};
use s3s::{S3Response, S3Result, s3_error};
use tokio::io::AsyncWriteExt;

use crate::backend::{DiskS3, internal, to_i64};
use crate::etag::{self, Stamp};
use crate::layout::UPLOADS_DIR;

pub(crate) async fn put_object(
    s3: &DiskS3,
    input: PutObjectInput,
) -> S3Result<S3Response<PutObjectOutput>> {
    let path = s3.object_file(&input.bucket, &input.key).await?;
    let staged = Staged(staging_path(s3).await?);
    let (size, etag) = write_body(&staged.0, input.body).await?;
    move_into_place(&staged.0, &path).await?;
    let meta = tokio::fs::metadata(&path)
        .await
        .map_err(|e| internal(&path, e))?;
    let stamp = Stamp::of(&meta).map_err(|e| internal(&path, e))?;
    s3.etags.remember(&path, stamp, etag.clone());
    Ok(S3Response::new(PutObjectOutput {
        e_tag: Some(ETag::Strong(etag)),
        size: Some(to_i64(size)),
        ..Default::default()
    }))
}

/// A staging file, removed when dropped unless it was renamed into place: an upload that
/// fails or whose client goes away leaves nothing behind.
struct Staged(PathBuf);

impl Drop for Staged {
    fn drop(&mut self) {
        // After a successful rename there is nothing to remove; any other failure has no
        // one to report to, and the uploads directory is never listed as a bucket.
        let _ = std::fs::remove_file(&self.0);
    }
}

async fn staging_path(s3: &DiskS3) -> S3Result<PathBuf> {
    let dir = s3.root.join(UPLOADS_DIR);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(|e| internal(&dir, e))?;
    let n = s3.next_upload.fetch_add(1, Ordering::Relaxed);
    Ok(dir.join(format!("{}-{n}.part", std::process::id())))
}

/// Streams `body` into `staged`; returns its size and MD5 ETag.
async fn write_body(staged: &Path, body: Option<StreamingBlob>) -> S3Result<(u64, String)> {
    let mut file = tokio::fs::File::create(staged)
        .await
        .map_err(|e| internal(staged, e))?;
    let mut md5 = Md5::new();
    let mut size = 0u64;
    if let Some(mut body) = body {
        while let Some(chunk) = body.next().await {
            let chunk =
                chunk.map_err(|e| s3_error!(IncompleteBody, "reading the request body: {e}"))?;
            md5.update(&chunk);
            size += chunk.len() as u64;
            file.write_all(&chunk)
                .await
                .map_err(|e| internal(staged, e))?;
        }
    }
    file.flush().await.map_err(|e| internal(staged, e))?;
    Ok((size, etag::hex(&md5.finalize())))
}

async fn move_into_place(staged: &Path, path: &Path) -> S3Result<()> {
    if let Some(parent) = path.parent() {
        tokio::fs::create_dir_all(parent)
            .await
            .map_err(|e| key_conflict(parent, e))?;
    }
    tokio::fs::rename(staged, path)
        .await
        .map_err(|e| key_conflict(path, e))
}

/// A key whose file or directory collides with another key (`a` beside `a/b`).
fn key_conflict(path: &Path, err: std::io::Error) -> s3s::S3Error {
    match err.kind() {
        ErrorKind::NotADirectory
        | ErrorKind::IsADirectory
        | ErrorKind::AlreadyExists
        | ErrorKind::DirectoryNotEmpty => {
            s3_error!(
                InvalidArgument,
                "{} collides with another object: this endpoint keeps keys as files, so `a` and `a/b` cannot both exist",
                path.display()
            )
        }
        _ => internal(path, err),
    }
}

pub(crate) async fn delete_object(
    s3: &DiskS3,
    input: DeleteObjectInput,
) -> S3Result<S3Response<DeleteObjectOutput>> {
    let path = s3.object_file(&input.bucket, &input.key).await?;
    match tokio::fs::remove_file(&path).await {
        Ok(()) => {}
        // S3 answers a delete of a missing key with success.
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::NotFound | ErrorKind::NotADirectory | ErrorKind::IsADirectory
            ) => {}
        Err(e) => return Err(internal(&path, e)),
    }
    s3.etags.forget(&path);
    prune_empty_dirs(&path, &s3.root.join(&input.bucket)).await;
    Ok(S3Response::new(DeleteObjectOutput::default()))
}

/// Removes the now-empty directories between a deleted file and its bucket directory.
async fn prune_empty_dirs(deleted: &Path, bucket_dir: &Path) {
    let mut dir = deleted.parent();
    while let Some(d) = dir.filter(|d| d.starts_with(bucket_dir) && *d != bucket_dir) {
        if tokio::fs::remove_dir(d).await.is_err() {
            return;
        }
        dir = d.parent();
    }
}
