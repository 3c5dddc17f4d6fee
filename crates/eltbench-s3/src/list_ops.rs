//! ListObjectsV2 and ListObjects (v1) over a bucket directory: reads the entries, pages
//! them with [`crate::list`], and shapes S3's response (ETags, `encoding-type=url`).
//!
//! This module must never return a key that is not under the requested prefix.

use s3s::dto::{
    CommonPrefix, ETag, EncodingType, ListObjectsInput, ListObjectsOutput, ListObjectsV2Input,
    ListObjectsV2Output, Object, ObjectStorageClass, Timestamp,
};
use s3s::{S3Response, S3Result, s3_error};

use crate::backend::{DiskS3, internal, to_i64};
use crate::etag::Stamp;
use crate::list::{self, ListPage, ListRequest};
use crate::walk;

pub(crate) async fn list_objects_v2(
    s3: &DiskS3,
    input: ListObjectsV2Input,
) -> S3Result<S3Response<ListObjectsV2Output>> {
    let prefix = input.prefix.clone().unwrap_or_default();
    let after = input
        .continuation_token
        .as_deref()
        .or(input.start_after.as_deref());
    let req = ListRequest {
        prefix: &prefix,
        delimiter: input.delimiter.as_deref(),
        after,
        max_keys: max_keys(input.max_keys),
    };
    let page = read_page(s3, &input.bucket, &req).await?;
    let url = Encoder::new(input.encoding_type.as_ref());
    let key_count = page.objects.len() + page.common_prefixes.len();
    Ok(S3Response::new(ListObjectsV2Output {
        name: Some(input.bucket.clone()),
        prefix: Some(url.encode(&prefix)),
        delimiter: input.delimiter.as_deref().map(|d| url.encode(d)),
        start_after: input.start_after.as_deref().map(|s| url.encode(s)),
        max_keys: Some(i32::try_from(req.max_keys).unwrap_or(i32::MAX)),
        key_count: Some(i32::try_from(key_count).unwrap_or(i32::MAX)),
        is_truncated: Some(page.next_after.is_some()),
        continuation_token: input.continuation_token.clone(),
        next_continuation_token: page.next_after.clone(),
        contents: Some(objects(s3, &page, &url).await?),
        common_prefixes: Some(common_prefixes(&page, &url)),
        encoding_type: input.encoding_type,
        ..Default::default()
    }))
}

pub(crate) async fn list_objects(
    s3: &DiskS3,
    input: ListObjectsInput,
) -> S3Result<S3Response<ListObjectsOutput>> {
    let prefix = input.prefix.clone().unwrap_or_default();
    let req = ListRequest {
        prefix: &prefix,
        delimiter: input.delimiter.as_deref(),
        after: input.marker.as_deref(),
        max_keys: max_keys(input.max_keys),
    };
    let page = read_page(s3, &input.bucket, &req).await?;
    let url = Encoder::new(input.encoding_type.as_ref());
    Ok(S3Response::new(ListObjectsOutput {
        name: Some(input.bucket.clone()),
        prefix: Some(url.encode(&prefix)),
        delimiter: input.delimiter.as_deref().map(|d| url.encode(d)),
        marker: input.marker.as_deref().map(|m| url.encode(m)),
        max_keys: Some(i32::try_from(req.max_keys).unwrap_or(i32::MAX)),
        is_truncated: Some(page.next_after.is_some()),
        next_marker: page.next_after.as_deref().map(|m| url.encode(m)),
        contents: Some(objects(s3, &page, &url).await?),
        common_prefixes: Some(common_prefixes(&page, &url)),
        encoding_type: input.encoding_type,
        ..Default::default()
    }))
}

/// `max-keys` as asked, within S3's 0..=1000.
fn max_keys(asked: Option<i32>) -> usize {
    asked.map_or(list::MAX_KEYS, |n| {
        usize::try_from(n).unwrap_or(0).min(list::MAX_KEYS)
    })
}

async fn read_page(s3: &DiskS3, bucket: &str, req: &ListRequest<'_>) -> S3Result<ListPage> {
    let dir = s3.existing_bucket(bucket).await?;
    let (walk_dir, prefix) = (dir.clone(), req.prefix.to_owned());
    let entries = tokio::task::spawn_blocking(move || walk::bucket_entries(&walk_dir, &prefix))
        .await
        .map_err(|e| s3_error!(InternalError, "listing {bucket}: {e}"))?
        .map_err(|e| internal(&dir, e))?;
    Ok(list::page(&entries, req))
}

async fn objects(s3: &DiskS3, page: &ListPage, url: &Encoder) -> S3Result<Vec<Object>> {
    let mut out = Vec::with_capacity(page.objects.len());
    for entry in &page.objects {
        let stamp = Stamp {
            len: entry.size,
            modified: entry.modified,
        };
        let etag = s3
            .etags
            .etag(&entry.path, stamp)
            .await
            .map_err(|e| internal(&entry.path, e))?;
        out.push(Object {
            key: Some(url.encode(&entry.key)),
            size: Some(to_i64(entry.size)),
            last_modified: Some(Timestamp::from(entry.modified)),
            e_tag: Some(ETag::Strong(etag)),
            storage_class: Some(ObjectStorageClass::from_static(
                ObjectStorageClass::STANDARD,
            )),
            ..Default::default()
        });
    }
    Ok(out)
}

fn common_prefixes(page: &ListPage, url: &Encoder) -> Vec<CommonPrefix> {
    let prefix = |p: &String| CommonPrefix {
        prefix: Some(url.encode(p)),
    };
    page.common_prefixes.iter().map(prefix).collect()
}

/// Applies `encoding-type=url` when the client asked for it (boto3 always does).
struct Encoder {
    url: bool,
}

impl Encoder {
    fn new(encoding: Option<&EncodingType>) -> Self {
        Self {
            url: encoding.is_some_and(|e| e.as_str() == EncodingType::URL),
        }
    }

    /// Percent-encodes all but unreserved characters and `/`, as S3 does.
    fn encode(&self, s: &str) -> String {
        if !self.url {
            return s.to_owned();
        }
        let mut out = String::with_capacity(s.len());
        for b in s.bytes() {
            if b.is_ascii_alphanumeric() || b"-_.~/".contains(&b) {
                out.push(char::from(b));
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_encoding_only_when_asked() {
        let on = Encoder::new(Some(&EncodingType::from_static(EncodingType::URL)));
        assert_eq!(on.encode("dir/a b+c.csv"), "dir/a%20b%2Bc.csv");
        assert_eq!(Encoder::new(None).encode("a b"), "a b");
    }

    #[test]
    fn max_keys_is_clamped() {
        assert_eq!(max_keys(None), 1000);
        assert_eq!(max_keys(Some(5000)), 1000);
        assert_eq!(max_keys(Some(-1)), 0);
        assert_eq!(max_keys(Some(2)), 2);
    }
}
