//! The stage-2 oracle's dbt step with the real dbt-core + dbt-duckdb: gold
//! models copied from `<suite>/gold/<db>/models/` into a fresh project read
//! the loaded tables through `source('airbyte_schema', ...)` and land in
//! `<db>.airbyte_schema`; a broken gold model is reported with its file.

use std::path::{Path, PathBuf};

use eltbench_dbt::DbtToolchain;
use eltbench_harness::oracle::{OracleError, run_gold_models};
use eltbench_task::Suite;

const CONFIG: &str = "\
Airbyte:
  config:
    files_definition_id: 778daa7c-feaf-4db6-96f3-70fd645acc77
    namespace_definition: destination
    server_url: http://airbyte-abctl-control-plane:80/api/public/v1/
flat_files:
- format: csv
  path: https://example.org/files/orders.csv
  sync_mode: full_refresh_append
  table: orders
snowflake:
  config:
    database: shop
    password: Snowflake@123
    role: AIRBYTE_ROLE
    schema: AIRBYTE_SCHEMA
    username: AIRBYTE_USER
    warehouse: AIRBYTE_WAREHOUSE
";

const DATA_MODEL: &str = "\
models:
  - name: customer_totals
    description: One row per customer with the sum of their orders.
    columns:
      - name: customer_id
        description: The customer.
      - name: total
        description: Sum of the order amounts.
";

fn toolchain() -> DbtToolchain {
    let home = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/eltbench-home");
    let mut progress = |line: &str| eprintln!("gold_models test: {line}");
    DbtToolchain::ensure_with(&home, &mut progress)
        .unwrap_or_else(|e| panic!("cannot install dbt (needs python3 with venv and PyPI): {e}"))
}

/// A one-task suite `shop` with the gold model `customer_totals` = `sql`.
fn suite(root: &Path, sql: &str) -> Suite {
    let task = root.join("tasks/shop");
    std::fs::create_dir_all(task.join("schemas")).unwrap();
    std::fs::write(task.join("config.yaml"), CONFIG).unwrap();
    std::fs::write(task.join("data_model.yaml"), DATA_MODEL).unwrap();
    std::fs::write(
        task.join("schemas/orders.csv"),
        "column_name,column_description\nid,x\ncustomer_id,x\namount,x\n",
    )
    .unwrap();
    std::fs::write(
        root.join("source_row_counts.json"),
        r#"{"shop":{"orders":3}}"#,
    )
    .unwrap();
    std::fs::write(root.join("model_eval_keys.json"), "{}").unwrap();
    let gold = root.join("gold/shop/models");
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::write(gold.join("customer_totals.sql"), sql).unwrap();
    Suite::load(root).unwrap_or_else(|e| panic!("{e}"))
}

/// `shop.duckdb` with `airbyte_schema.orders` loaded.
fn warehouse(dir: &Path) -> PathBuf {
    let path = dir.join("shop.duckdb");
    let conn = duckdb::Connection::open(&path).unwrap();
    conn.execute_batch(
        "CREATE SCHEMA airbyte_schema;
         CREATE TABLE airbyte_schema.orders (id BIGINT, customer_id BIGINT, amount DOUBLE);
         INSERT INTO airbyte_schema.orders VALUES (1, 7, 10.5), (2, 7, 4.5), (3, 9, 1.0);",
    )
    .unwrap();
    path
}

#[test]
fn gold_models_build_in_the_warehouse() {
    let dbt = toolchain();
    let tmp = tempfile::tempdir().unwrap();
    let suite = suite(
        &tmp.path().join("suite"),
        "{{ config(materialized='table') }}\n\
         select customer_id, sum(amount) as total\n\
         from {{ source('airbyte_schema', 'orders') }} group by customer_id\n",
    );
    let wh = warehouse(tmp.path());
    let outcome = run_gold_models(&suite, "shop", &wh, &tmp.path().join("dbt"), &dbt).unwrap();
    assert!(outcome.succeeded());
    assert!(outcome.node("customer_totals").is_some(), "{outcome:?}");
    let conn = duckdb::Connection::open(&wh).unwrap();
    let mut stmt = conn
        .prepare("SELECT customer_id, total FROM shop.airbyte_schema.customer_totals ORDER BY 1")
        .unwrap();
    let rows: Vec<(i64, f64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows, [(7, 15.0), (9, 1.0)]);
}

#[test]
fn broken_gold_model_names_its_file() {
    let dbt = toolchain();
    let tmp = tempfile::tempdir().unwrap();
    let suite = suite(
        &tmp.path().join("suite"),
        "select no_such_column from {{ source('airbyte_schema', 'orders') }}\n",
    );
    let wh = warehouse(tmp.path());
    let err = run_gold_models(&suite, "shop", &wh, &tmp.path().join("dbt"), &dbt).unwrap_err();
    assert!(matches!(err, OracleError::GoldModel { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("gold/shop/models/customer_totals.sql"),
        "{text}"
    );
    assert!(text.contains("no_such_column"), "{text}");
}

#[test]
fn missing_gold_directory_is_an_error() {
    let dbt = toolchain();
    let tmp = tempfile::tempdir().unwrap();
    let suite = suite(&tmp.path().join("suite"), "select 1 as x\n");
    std::fs::remove_dir_all(tmp.path().join("suite/gold")).unwrap();
    let wh = warehouse(tmp.path());
    let err = run_gold_models(&suite, "shop", &wh, &tmp.path().join("dbt"), &dbt).unwrap_err();
    assert!(matches!(err, OracleError::NoGoldModels { .. }), "{err}");
}
