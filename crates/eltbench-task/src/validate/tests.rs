//! Validation of tiny suites built in a temporary directory.

use std::path::Path;

use crate::Suite;

const CONFIG: &str = "\
Airbyte:
  config:
    postgres_definition_id: p
    files_definition_id: f
postgres:
  config:
    database: shop
    host: elt-postgres
    password: testelt
    port: 5432
    schema: public
    sync_mode: full_refresh_append
    user: postgres
    tables:
    - orders
    - Users
flat_files:
- format: csv
  path: https://example.org/items.csv
  sync_mode: full_refresh_append
  table: items
";

const MODELS: &str = "\
models:
  - name: shop__orders
    description: Each record is an order.
    columns:
      - name: order_id
        description: The order.
      - name: total
        description: The total.
";

const SCHEMA: &str = "column_name,column_description\nid,The id\n";

/// Writes a valid one-task suite `shop` and returns its root.
fn suite_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "tasks/shop/config.yaml", CONFIG);
    write(dir.path(), "tasks/shop/data_model.yaml", MODELS);
    for table in ["orders", "users", "items"] {
        write(
            dir.path(),
            &format!("tasks/shop/schemas/{table}.csv"),
            SCHEMA,
        );
    }
    write(
        dir.path(),
        "source_row_counts.json",
        "{\"shop\": {\"orders\": 3, \"users\": 2, \"items\": 5}}",
    );
    let keys = "{\"shop\": {\"shop__orders\": {\"table\": \"shop.airbyte_schema.shop__orders\", \"order_by\": [\"ORDER_ID\"]}}}";
    write(dir.path(), "model_eval_keys.json", keys);
    dir
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The problems as displayed, with the root stripped.
fn problems(root: &Path) -> Vec<String> {
    let suite = Suite::load_lenient(root).unwrap();
    let prefix = format!("{}/", root.display());
    suite
        .validate()
        .iter()
        .map(|p| p.to_string().replace(&prefix, ""))
        .collect()
}

#[test]
fn a_valid_suite_has_only_the_case_warning() {
    let dir = suite_dir();
    assert_eq!(
        problems(dir.path()),
        [
            "source_row_counts.json:1: warning: `shop.users`: the table is `Users` in config.yaml (case differs; matched case-insensitively)",
            "tasks/shop/config.yaml:16: warning: table `Users` has schema file `schemas/users.csv` (case differs; matched case-insensitively)",
        ]
    );
    let suite = Suite::load(dir.path()).unwrap();
    assert_eq!(suite.expected_rows_for("shop", "USERS"), Some(2));
    assert_eq!(
        suite
            .eval_key("shop", "shop__orders")
            .unwrap()
            .order_by
            .as_ref()
            .unwrap(),
        &["ORDER_ID"]
    );
}

#[test]
fn broken_yaml_names_file_and_line_and_load_fails() {
    let dir = suite_dir();
    write(
        dir.path(),
        "tasks/shop/data_model.yaml",
        "models:\n  - name: a: b\n",
    );
    let found = problems(dir.path());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("tasks/shop/data_model.yaml:2: error: invalid YAML"),
        "{found:?}"
    );
    let err = Suite::load(dir.path()).unwrap_err();
    assert!(err.is_bad_input());
    assert!(
        err.to_string().contains("data_model.yaml:2: invalid YAML"),
        "{err}"
    );
}

#[test]
fn a_missing_schema_and_an_orphan_schema_are_reported() {
    let dir = suite_dir();
    std::fs::rename(
        dir.path().join("tasks/shop/schemas/items.csv"),
        dir.path().join("tasks/shop/schemas/item.csv"),
    )
    .unwrap();
    let found = problems(dir.path());
    assert!(found.contains(&"tasks/shop/config.yaml:21: error: table `items` has no schema file `schemas/items.csv`".to_owned()), "{found:?}");
    assert!(found.contains(&"tasks/shop/schemas/item.csv: warning: no source in config.yaml lists table `item`; schema ignored".to_owned()), "{found:?}");
}

#[test]
fn unknown_source_kinds_are_errors_not_crashes() {
    let dir = suite_dir();
    write(
        dir.path(),
        "tasks/shop/config.yaml",
        &format!("{CONFIG}oracle:\n  config: {{}}\n"),
    );
    let found = problems(dir.path());
    assert!(
        found.iter().any(
            |p| p.starts_with("tasks/shop/config.yaml:22: error: unknown source kind `oracle`")
        ),
        "{found:?}"
    );
}

#[test]
fn duplicate_tables_across_and_within_sources() {
    let dir = suite_dir();
    let config = CONFIG.replace("    - Users\n", "    - Users\n    - users\n    - orders\n");
    write(dir.path(), "tasks/shop/config.yaml", &config);
    let found = problems(dir.path());
    let duplicates: Vec<_> = found
        .iter()
        .filter(|p| p.contains("duplicate table"))
        .collect();
    assert_eq!(
        duplicates,
        [
            "tasks/shop/config.yaml:17: error: duplicate table `users` (postgres); already listed as `Users` (postgres) at line 16",
            "tasks/shop/config.yaml:18: error: duplicate table `orders` (postgres); already listed as `orders` (postgres) at line 15",
        ]
    );
}

#[test]
fn row_counts_and_eval_keys_are_cross_checked() {
    let dir = suite_dir();
    write(
        dir.path(),
        "source_row_counts.json",
        "{\"shop\": {\n\"orders\": 3,\n\"users\": 2,\n\"gone\": 1},\n\"other\": {}}",
    );
    let keys = "{\"shop\": {\n\"shop__orders\": {\"table\": \"shop.s.shop__orders\", \"order_by\": [\"nope\"]},\n\"ghost\": {\"table\": null, \"order_by\": null}}}";
    write(dir.path(), "model_eval_keys.json", keys);
    let found = problems(dir.path());
    for expected in [
        "tasks/shop/config.yaml:21: error: table `items` has no row count in source_row_counts.json",
        "source_row_counts.json:4: warning: `shop.gone`: the task has no table `gone`; ignored",
        "source_row_counts.json:5: warning: `other` is not a task of this suite; ignored",
        "model_eval_keys.json:2: error: `shop.shop__orders`: ORDER BY column `nope` is not a column of the model",
        "model_eval_keys.json:3: warning: `shop.ghost`: the task has no model `ghost`; ignored",
    ] {
        assert!(
            found.contains(&expected.to_owned()),
            "missing {expected:?} in {found:#?}"
        );
    }
}

#[test]
fn model_problems_name_the_model_line() {
    let dir = suite_dir();
    let models = format!(
        "{MODELS}      - name: Total\n  - name: empty\n  - name: shop__orders\n    columns:\n      - name: a\n"
    );
    write(dir.path(), "tasks/shop/data_model.yaml", &models);
    let found = problems(dir.path());
    for expected in [
        "tasks/shop/data_model.yaml:9: error: model `shop__orders`: duplicate column `Total`",
        "tasks/shop/data_model.yaml:10: error: model `empty` has no columns",
        "tasks/shop/data_model.yaml:10: error: model `empty` has no eval key in model_eval_keys.json",
        "tasks/shop/data_model.yaml:11: error: duplicate model `shop__orders`",
    ] {
        assert!(
            found.contains(&expected.to_owned()),
            "missing {expected:?} in {found:#?}"
        );
    }
}

#[test]
fn a_bad_schema_header_and_a_bad_s3_path_are_errors() {
    let dir = suite_dir();
    write(
        dir.path(),
        "tasks/shop/schemas/orders.csv",
        "name,description\nid,x\n",
    );
    let s3 = "aws_s3:\n  AWS_ACCESS_KEY_ID: k\n  AWS_SECRET_ACCESS_KEY: s\n  data:\n  - path: bucket/x.csv\n    sync_mode: full_refresh_append\n    table: x\n";
    write(
        dir.path(),
        "tasks/shop/config.yaml",
        &format!("{CONFIG}{s3}"),
    );
    write(dir.path(), "tasks/shop/schemas/x.csv", SCHEMA);
    let found = problems(dir.path());
    for expected in [
        "tasks/shop/schemas/orders.csv:1: error: schema header is `name,description`, expected `column_name,column_description`",
        "tasks/shop/config.yaml:28: error: S3 path `bucket/x.csv` is not `s3://bucket/key`",
        "tasks/shop/config.yaml:22: warning: `aws_s3` source but `Airbyte.config` has no `s3_definition_id`",
    ] {
        assert!(
            found.contains(&expected.to_owned()),
            "missing {expected:?} in {found:#?}"
        );
    }
}

#[test]
fn a_directory_without_tasks_is_not_a_suite() {
    let dir = tempfile::tempdir().unwrap();
    let err = Suite::load(dir.path()).unwrap_err();
    assert!(err.is_bad_input());
    assert!(
        err.to_string()
            .ends_with("not an ELT-Bench suite: it has no `tasks/` directory"),
        "{err}"
    );
    let err = Suite::load(&dir.path().join("nope")).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("not an ELT-Bench suite: no such directory"),
        "{err}"
    );
}

#[test]
fn a_ragged_ground_truth_row_is_an_error_on_its_line() {
    let dir = suite_dir();
    write(
        dir.path(),
        "gt/shop/shop__orders.csv",
        "order_id,total\n1,2\n\"a\nb\",3\n4\n",
    );
    let found = problems(dir.path());
    assert!(
        found.contains(
            &"gt/shop/shop__orders.csv:5: error: row has 1 fields, the header has 2".to_owned()
        ),
        "{found:#?}"
    );
    let suite = Suite::load(dir.path()).unwrap();
    let err = suite.ground_truth("shop", "shop__orders").unwrap_err();
    assert!(
        err.to_string()
            .ends_with("gt/shop/shop__orders.csv:5: row has 1 fields, the header has 2"),
        "{err}"
    );
}

#[test]
fn a_ground_truth_header_must_hold_the_model_columns() {
    let dir = suite_dir();
    write(
        dir.path(),
        "gt/shop/shop__orders.csv",
        "ORDER_ID,extra\n1,2\n",
    );
    let found = problems(dir.path());
    assert!(found.contains(&"gt/shop/shop__orders.csv:1: error: header lacks column(s) `total` of model `shop__orders`".to_owned()), "{found:#?}");
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("gt/shop/shop__orders.csv:1: warning: column(s) `extra`")),
        "{found:#?}"
    );
}
