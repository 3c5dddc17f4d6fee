//! The tiny fixture suite `tests/fixtures/mini-suite`: two tasks, partial
//! data, one ground-truth file with a BOM, a quoted comma and a quoted
//! newline, and two handled quirks (a case difference, a null eval key).

use std::path::PathBuf;

use eltbench_task::{FileFormat, SourceKind, Suite};

fn load() -> Suite {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mini-suite");
    Suite::load(&root).unwrap()
}

#[test]
fn tasks_sources_and_models_are_read() {
    let suite = load();
    let dbs: Vec<_> = suite.tasks().map(|t| t.db.as_str()).collect();
    assert_eq!(dbs, ["blog", "shop"]);
    let blog = suite.task("blog").unwrap();
    let tables: Vec<_> = blog
        .source_tables()
        .into_iter()
        .map(|t| (t.kind, t.name))
        .collect();
    assert_eq!(
        tables,
        [
            (SourceKind::Mongodb, "posts".to_owned()),
            (SourceKind::CustomApi, "authors".to_owned()),
            (SourceKind::AwsS3, "tags".to_owned()),
        ]
    );
    let s3 = blog.config.aws_s3.as_ref().unwrap();
    assert_eq!(s3.data[0].format(), Some(FileFormat::Parquet));
    assert_eq!(
        s3.data[0].bucket_and_key(),
        Some(("blog-bucket", "tags.parquet"))
    );
    assert_eq!(blog.models.len(), 2);
    let shop = suite.task("shop").unwrap();
    assert_eq!(shop.schema("customers").unwrap().columns.len(), 2);
    assert_eq!(
        shop.schemas["orders"].columns[2].description,
        "The total, in cents"
    );
}

#[test]
fn ground_truth_is_parsed_with_nulls_and_quoted_newlines() {
    let suite = load();
    let gt = suite.ground_truth("shop", "shop__orders").unwrap().unwrap();
    assert_eq!(gt.header, ["order_id", "customer_name", "total"]);
    assert_eq!(
        gt.rows[0],
        [
            Some("1".into()),
            Some("Ada, the first".into()),
            Some("1250".into())
        ]
    );
    assert_eq!(
        gt.rows[1],
        [Some("2".into()), Some("Bob\nJr.".into()), None]
    );
    assert_eq!(suite.ground_truth("blog", "blog__authors").unwrap(), None);
    let meta = suite.gt_meta("shop", "shop__orders").unwrap();
    assert_eq!(meta.columns_left_empty, ["total"]);
    assert_eq!(meta.note.as_deref(), Some("tiny fixture"));
}

#[test]
fn data_paths_exist_only_for_present_files() {
    let suite = load();
    assert!(suite.data_path("shop", "orders").is_some());
    assert!(suite.data_path("shop", "ORDERS").is_some());
    assert!(suite.data_path("shop", "customers").is_none());
    assert!(suite.data_path("blog", "posts").is_none());
}

#[test]
fn validation_reports_exactly_the_three_quirks() {
    let suite = load();
    let problems = suite.validate();
    assert!(problems.iter().all(|p| !p.is_error()), "{problems:#?}");
    let messages: Vec<_> = problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(messages.len(), 3, "{messages:#?}");
    assert!(messages[0].starts_with("no data file for table `customers`"));
    assert!(messages[1].starts_with("`blog.blog__tags`: no table or ORDER BY key"));
    assert!(messages[2].starts_with("table `customers` has schema file `schemas/Customers.csv`"));
}
