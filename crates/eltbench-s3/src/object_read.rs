//! Object reads: GetObject (whole or a byte range) and HeadObject, streamed from the
//! object's file with its MD5 ETag.
//!
//! Read-only: this module must never create, change or remove a file.

use std::io::{ErrorKind, SeekFrom};
use std::path::PathBuf;

use s3s::dto::{
    ETag, GetObjectInput, GetObjectOutput, HeadObjectInput, HeadObjectOutput, Range, StreamingBlob,
    Timestamp,
};
use s3s::{S3Response, S3Result, s3_error};
use tokio::io::{AsyncReadExt, AsyncSeekExt};

use crate::backend::{DiskS3, internal, no_such_key, to_i64};
use crate::etag::Stamp;

/// Read size for object bodies; large enough that hyper, not the file, sets the pace.
const READ_CHUNK: usize = 256 * 1024;

/// Content types by file extension, for objects written straight to disk (S3's own
/// default for an unknown type is `binary/octet-stream`).
const CONTENT_TYPES: &[(&str, &str)] = &[
    ("csv", "text/csv"),
    ("json", "application/json"),
    ("txt", "text/plain"),
];
const DEFAULT_CONTENT_TYPE: &str = "binary/octet-stream";

/// What GetObject and HeadObject report about a stored object.
struct Found {
    path: PathBuf,
    stamp: Stamp,
    etag: String,
}

async fn find(s3: &DiskS3, bucket: &str, key: &str) -> S3Result<Found> {
    let path = s3.object_file(bucket, key).await?;
    let meta = match tokio::fs::metadata(&path).await {
        Ok(meta) if meta.is_file() => meta,
        Ok(_) => return Err(no_such_key(key)),
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Err(no_such_key(key));
        }
        Err(e) => return Err(internal(&path, e)),
    };
    let stamp = Stamp::of(&meta).map_err(|e| internal(&path, e))?;
    let etag = s3
        .etags
        .etag(&path, stamp.clone())
        .await
        .map_err(|e| internal(&path, e))?;
    Ok(Found { path, stamp, etag })
}

fn content_type(key: &str) -> String {
    let ext = key
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase());
    let found = CONTENT_TYPES
        .iter()
        .find(|(e, _)| Some(*e) == ext.as_deref());
    found.map_or(DEFAULT_CONTENT_TYPE, |(_, ct)| ct).to_owned()
}

pub(crate) async fn head_object(
    s3: &DiskS3,
    input: HeadObjectInput,
) -> S3Result<S3Response<HeadObjectOutput>> {
    let found = find(s3, &input.bucket, &input.key).await?;
    Ok(S3Response::new(HeadObjectOutput {
        content_length: Some(to_i64(found.stamp.len)),
        content_type: Some(content_type(&input.key)),
        e_tag: Some(ETag::Strong(found.etag)),
        last_modified: Some(Timestamp::from(found.stamp.modified)),
        accept_ranges: Some("bytes".to_owned()),
        ..Default::default()
    }))
}

pub(crate) async fn get_object(
    s3: &DiskS3,
    input: GetObjectInput,
) -> S3Result<S3Response<GetObjectOutput>> {
    let found = find(s3, &input.bucket, &input.key).await?;
    let full = found.stamp.len;
    let span = match &input.range {
        None => 0..full,
        Some(range) => range.check(full).map_err(|_| {
            s3_error!(
                InvalidRange,
                "The requested range is not satisfiable: {}",
                describe(range)
            )
        })?,
    };
    let mut file = tokio::fs::File::open(&found.path)
        .await
        .map_err(|e| internal(&found.path, e))?;
    file.seek(SeekFrom::Start(span.start))
        .await
        .map_err(|e| internal(&found.path, e))?;
    let len = span.end - span.start;
    let body = tokio_util::io::ReaderStream::with_capacity(file.take(len), READ_CHUNK);
    let content_range = input
        .range
        .is_some()
        .then(|| format!("bytes {}-{}/{full}", span.start, span.end.saturating_sub(1)));
    Ok(S3Response::new(GetObjectOutput {
        body: Some(StreamingBlob::wrap(body)),
        content_length: Some(to_i64(len)),
        content_range,
        content_type: Some(content_type(&input.key)),
        e_tag: Some(ETag::Strong(found.etag)),
        last_modified: Some(Timestamp::from(found.stamp.modified)),
        accept_ranges: Some("bytes".to_owned()),
        ..Default::default()
    }))
}

fn describe(range: &Range) -> String {
    match range {
        Range::Int {
            first,
            last: Some(last),
        } => format!("bytes={first}-{last}"),
        Range::Int { first, last: None } => format!("bytes={first}-"),
        Range::Suffix { length } => format!("bytes=-{length}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_follows_extension() {
        assert_eq!(content_type("a/b.CSV"), "text/csv");
        assert_eq!(content_type("CBSA.jsonl"), DEFAULT_CONTENT_TYPE);
        assert_eq!(content_type("noext"), DEFAULT_CONTENT_TYPE);
    }

    #[test]
    fn ranges_are_described_like_the_header() {
        assert_eq!(
            describe(&Range::Int {
                first: 2,
                last: Some(5)
            }),
            "bytes=2-5"
        );
        assert_eq!(describe(&Range::Suffix { length: 3 }), "bytes=-3");
    }
}
