//! Bucket operations: CreateBucket, DeleteBucket, HeadBucket, ListBuckets,
//! GetBucketLocation. A bucket is a directory directly under the root.
//!
//! This module must never list or touch a root entry that is not a valid bucket name
//! (the uploads directory, stray files).

use std::path::Path;

use s3s::dto::{
    Bucket, BucketLocationConstraint, CreateBucketInput, CreateBucketOutput, DeleteBucketInput,
    DeleteBucketOutput, GetBucketLocationInput, GetBucketLocationOutput, HeadBucketInput,
    HeadBucketOutput, ListBucketsOutput, Timestamp,
};
use s3s::{S3Response, S3Result, s3_error};

use crate::backend::{DiskS3, internal};
use crate::layout;

pub(crate) async fn create_bucket(
    s3: &DiskS3,
    input: CreateBucketInput,
) -> S3Result<S3Response<CreateBucketOutput>> {
    let dir = layout::bucket_dir(&s3.root, &input.bucket)
        .map_err(|e| s3_error!(e, InvalidBucketName, "{e}"))?;
    match tokio::fs::create_dir(&dir).await {
        Ok(()) => Ok(S3Response::new(CreateBucketOutput {
            location: Some(format!("/{}", input.bucket)),
        })),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(s3_error!(
            BucketAlreadyOwnedByYou,
            "Your previous request to create the named bucket succeeded and you already own it."
        )),
        Err(e) => Err(internal(&dir, e)),
    }
}

pub(crate) async fn delete_bucket(
    s3: &DiskS3,
    input: DeleteBucketInput,
) -> S3Result<S3Response<DeleteBucketOutput>> {
    let dir = s3.existing_bucket(&input.bucket).await?;
    let mut entries = tokio::fs::read_dir(&dir)
        .await
        .map_err(|e| internal(&dir, e))?;
    if entries
        .next_entry()
        .await
        .map_err(|e| internal(&dir, e))?
        .is_some()
    {
        return Err(s3_error!(
            BucketNotEmpty,
            "The bucket you tried to delete is not empty"
        ));
    }
    tokio::fs::remove_dir(&dir)
        .await
        .map_err(|e| internal(&dir, e))?;
    Ok(S3Response::new(DeleteBucketOutput::default()))
}

pub(crate) async fn head_bucket(
    s3: &DiskS3,
    input: HeadBucketInput,
) -> S3Result<S3Response<HeadBucketOutput>> {
    s3.existing_bucket(&input.bucket).await?;
    Ok(S3Response::new(HeadBucketOutput {
        bucket_region: Some(s3.region.clone()),
        ..Default::default()
    }))
}

pub(crate) async fn get_bucket_location(
    s3: &DiskS3,
    input: GetBucketLocationInput,
) -> S3Result<S3Response<GetBucketLocationOutput>> {
    s3.existing_bucket(&input.bucket).await?;
    // S3 reports us-east-1 as an empty location constraint.
    let location_constraint =
        (s3.region != "us-east-1").then(|| BucketLocationConstraint::from(s3.region.clone()));
    Ok(S3Response::new(GetBucketLocationOutput {
        location_constraint,
    }))
}

pub(crate) async fn list_buckets(s3: &DiskS3) -> S3Result<S3Response<ListBucketsOutput>> {
    let (root, region) = (s3.root.clone(), s3.region.clone());
    let buckets = tokio::task::spawn_blocking(move || read_buckets(&root, &region))
        .await
        .map_err(|e| s3_error!(InternalError, "listing buckets: {e}"))?
        .map_err(|e| internal(&s3.root, e))?;
    Ok(S3Response::new(ListBucketsOutput {
        buckets: Some(buckets),
        ..Default::default()
    }))
}

/// The bucket directories under `root`, sorted by name.
fn read_buckets(root: &Path, region: &str) -> std::io::Result<Vec<Bucket>> {
    let mut buckets = Vec::new();
    for item in std::fs::read_dir(root)? {
        let item = item?;
        let Some(name) = item.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        let meta = item.metadata()?;
        if !meta.is_dir() || layout::bucket_name_problem(&name).is_some() {
            continue;
        }
        let created = meta.created().or_else(|_| meta.modified())?;
        buckets.push(Bucket {
            name: Some(name),
            creation_date: Some(Timestamp::from(created)),
            bucket_region: (!region.is_empty()).then(|| region.to_owned()),
        });
    }
    buckets.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(buckets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_valid_bucket_directories_are_buckets() {
        let root = tempfile::tempdir().unwrap();
        for dir in ["zeta", "alpha", ".uploads", "Bad_Name"] {
            std::fs::create_dir(root.path().join(dir)).unwrap();
        }
        std::fs::write(root.path().join("file.txt"), b"x").unwrap();
        let names: Vec<String> = read_buckets(root.path(), "")
            .unwrap()
            .into_iter()
            .filter_map(|b| b.name)
            .collect();
        assert_eq!(names, ["alpha", "zeta"]);
    }
}
