"""Drives the eltbench S3 endpoint with boto3 and prints what it saw as one JSON object.

Usage: boto3_client.py ENDPOINT BUCKET STYLE   (STYLE: path | virtual)
Credentials come from S3_ACCESS_KEY / S3_SECRET_KEY, the region from S3_REGION.
The Rust test (tests/boto3.rs) checks the output; this script asserts nothing itself.
"""

import json
import os
import socket
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

ENDPOINT, BUCKET, STYLE = sys.argv[1:4]
REGION = os.environ["S3_REGION"]
ACCESS_KEY = os.environ["S3_ACCESS_KEY"]
SECRET_KEY = os.environ["S3_SECRET_KEY"]
KEYS = ["CBSA.jsonl", "geo/a b.csv", "geo/b.csv", "other/c.csv"]

# `bucket.localhost` does not resolve on every machine; the endpoint is on loopback.
_getaddrinfo = socket.getaddrinfo
BUCKET_HOSTS = set()


def _loopback_getaddrinfo(host, *args, **kwargs):
    if isinstance(host, str) and host.endswith(".localhost"):
        BUCKET_HOSTS.add(host)
        host = "127.0.0.1"
    return _getaddrinfo(host, *args, **kwargs)


socket.getaddrinfo = _loopback_getaddrinfo


def client(access_key, secret_key):
    config = Config(s3={"addressing_style": STYLE}, retries={"max_attempts": 1})
    return boto3.client(
        "s3",
        endpoint_url=ENDPOINT,
        aws_access_key_id=access_key,
        aws_secret_access_key=secret_key,
        region_name=REGION,
        config=config,
    )


def body_of(key):
    return f"id,name\n1,{key}\n2,second row of {key}\n".encode()


def error_code(call):
    try:
        call()
    except ClientError as e:
        return e.response["Error"]["Code"]
    return None


def listing(s3, **kwargs):
    out = s3.list_objects_v2(Bucket=BUCKET, **kwargs)
    return {
        "keys": [o["Key"] for o in out.get("Contents", [])],
        "prefixes": [p["Prefix"] for p in out.get("CommonPrefixes", [])],
    }


def paged_keys(s3):
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET, PaginationConfig={"PageSize": 1})
    return [o["Key"] for page in pages for o in page.get("Contents", [])]


def main():
    s3 = client(ACCESS_KEY, SECRET_KEY)
    s3.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": REGION})
    put_etags = {key: s3.put_object(Bucket=BUCKET, Key=key, Body=body_of(key))["ETag"] for key in KEYS}
    head = s3.head_object(Bucket=BUCKET, Key="geo/a b.csv")
    ranged = s3.get_object(Bucket=BUCKET, Key="geo/a b.csv", Range="bytes=2-5")
    out = {
        "buckets": [b["Name"] for b in s3.list_buckets()["Buckets"]],
        "location": s3.get_bucket_location(Bucket=BUCKET).get("LocationConstraint"),
        "put_etags": put_etags,
        "prefix_geo": listing(s3, Prefix="geo/"),
        "v1_prefix_geo": [o["Key"] for o in s3.list_objects(Bucket=BUCKET, Prefix="geo/").get("Contents", [])],
        "delimited": listing(s3, Delimiter="/"),
        "paged": paged_keys(s3),
        "body": s3.get_object(Bucket=BUCKET, Key="geo/a b.csv")["Body"].read().decode(),
        "range_body": ranged["Body"].read().decode(),
        "range_header": ranged.get("ContentRange"),
        "head": {"length": head["ContentLength"], "etag": head["ETag"]},
        "errors": {
            "missing_key": error_code(lambda: s3.get_object(Bucket=BUCKET, Key="nope.csv")),
            "missing_bucket": error_code(lambda: s3.list_objects_v2(Bucket="no-such-bucket")),
            "wrong_access_key": error_code(lambda: client("not-" + ACCESS_KEY, SECRET_KEY).list_buckets()),
            "wrong_secret": error_code(
                lambda: client(ACCESS_KEY, "wrong-secret").get_object(Bucket=BUCKET, Key="geo/b.csv")
            ),
        },
    }
    s3.delete_object(Bucket=BUCKET, Key="other/c.csv")
    out["after_delete"] = listing(s3)["keys"]
    out["bucket_hosts"] = sorted(BUCKET_HOSTS)
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
