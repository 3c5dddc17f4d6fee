//! `eltbench score` and `eltbench warehouse` end to end, on a tiny suite
//! written by the test: two tasks (`shop` with data and ground truth,
//! `depot` without a warehouse), reference warehouses built by the CLI and
//! then damaged one way per model.

use std::path::{Path, PathBuf};
use std::process::Output;

use eltbench_warehouse::{Access, DuckDbWarehouse};

const SHOP_CONFIG: &str = "\
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
    - customers
    - orders
";

const SHOP_MODELS: &str = "\
models:
  - name: shop__customer_totals
    description: One row per customer.
    columns:
      - name: customer_id
        description: Customer.
      - name: balance
        description: Account balance (may be negative).
      - name: orders
        description: Number of orders.
  - name: shop__daily
    description: One row per day.
    columns:
      - name: day
        description: Day.
      - name: amount
        description: Amount ordered that day.
  - name: shop__first_orders
    description: Each customer's first order.
    columns:
      - name: customer_id
        description: Customer.
      - name: first_day
        description: Day of the first order.
  - name: shop__returns
    description: Returned orders.
    columns:
      - name: order_id
        description: Order.
";

const DEPOT_CONFIG: &str = "\
postgres:
  config:
    database: depot
    host: elt-postgres
    password: testelt
    port: 5432
    schema: public
    sync_mode: full_refresh_append
    user: postgres
    tables:
    - items
";

const DEPOT_MODELS: &str = "\
models:
  - name: depot__stock
    description: Stock per item.
    columns:
      - name: item_id
        description: Item.
";

const EVAL_KEYS: &str = r#"{
  "depot": {"depot__stock": {"table": "depot.airbyte_schema.depot__stock", "order_by": ["item_id"]}},
  "shop": {
    "shop__customer_totals": {"table": "shop.airbyte_schema.shop__customer_totals", "order_by": ["customer_id"]},
    "shop__daily": {"table": "shop.airbyte_schema.shop__daily", "order_by": ["day"]},
    "shop__first_orders": {"table": "shop.airbyte_schema.shop__first_orders", "order_by": ["customer_id"]},
    "shop__returns": {"table": "shop.airbyte_schema.shop__returns", "order_by": ["order_id"]}
  }
}"#;

/// Writes the suite under `root`.
fn write_suite(root: &Path) {
    let files: &[(&str, &str)] = &[
        ("tasks/shop/config.yaml", SHOP_CONFIG),
        ("tasks/shop/data_model.yaml", SHOP_MODELS),
        (
            "tasks/shop/schemas/customers.csv",
            "column_name,column_description\ncustomer_id,Id.\nname,Name.\nbalance,Balance.\n",
        ),
        (
            "tasks/shop/schemas/orders.csv",
            "column_name,column_description\norder_id,Id.\ncustomer_id,Customer.\nday,Day.\namount,Amount.\n",
        ),
        ("tasks/depot/config.yaml", DEPOT_CONFIG),
        ("tasks/depot/data_model.yaml", DEPOT_MODELS),
        (
            "tasks/depot/schemas/items.csv",
            "column_name,column_description\nitem_id,Id.\n",
        ),
        (
            "source_row_counts.json",
            r#"{"depot": {"items": 2}, "shop": {"customers": 3, "orders": 4}}"#,
        ),
        ("model_eval_keys.json", EVAL_KEYS),
        (
            "data/shop/customers.csv",
            "customer_id,name,balance\n1,Ann,10.5\n2,Bob,-5\n3,Cy,0\n",
        ),
        (
            "data/shop/orders.csv",
            "order_id,customer_id,day,amount\n10,1,2024-01-05,3.5\n11,1,2024-01-06,1\n12,2,2024-01-05,2\n13,3,2024-01-07,4\n",
        ),
        (
            "gt/_meta.json",
            r#"{"shop": {"_computed": {"by": "hand"}, "shop__daily": {"depends_on_run_date": true}}}"#,
        ),
        (
            "gt/shop/shop__customer_totals.csv",
            "customer_id,balance,orders\n1,10.5,2\n2,-5,1\n3,0,1\n",
        ),
        (
            "gt/shop/shop__daily.csv",
            "day,amount\n2024-01-05,5.5\n2024-01-06,1\n2024-01-07,4\n",
        ),
        (
            "gt/shop/shop__first_orders.csv",
            "customer_id,first_day\n1,2024-01-05\n2,2024-01-05\n3,2024-01-07\n",
        ),
        ("gt/shop/shop__returns.csv", "order_id\n11\n"),
    ];
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

struct Bed {
    dir: tempfile::TempDir,
}

impl Bed {
    /// A suite and reference warehouses built by `eltbench warehouse reference`.
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        write_suite(&dir.path().join("suite"));
        let bed = Self { dir };
        let out = bed.run(&[
            "warehouse",
            "reference",
            "--suite",
            &bed.suite(),
            "--out",
            &bed.warehouses(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        bed
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn suite(&self) -> String {
        self.path("suite").display().to_string()
    }

    fn warehouses(&self) -> String {
        self.path("wh").display().to_string()
    }

    fn run(&self, args: &[&str]) -> Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_eltbench"))
            .args(args)
            .env_remove("ELTBENCH_SUITE")
            .output()
            .unwrap()
    }

    fn score(&self, extra: &[&str]) -> Output {
        let (suite, warehouses) = (self.suite(), self.warehouses());
        let mut args = vec!["score", "--suite", &suite, "--warehouse-dir", &warehouses];
        args.extend_from_slice(extra);
        self.run(&args)
    }

    /// Damages the `shop` warehouse: one model per failure category.
    fn damage_shop(&self) {
        let wh =
            DuckDbWarehouse::open(&self.path("wh/shop.duckdb"), "shop", Access::ReadWrite).unwrap();
        wh.execute_batch(
            "DROP TABLE airbyte_schema.shop__returns; \
             CREATE SCHEMA analytics; \
             CREATE TABLE analytics.shop__daily AS SELECT * FROM airbyte_schema.shop__daily; \
             DROP TABLE airbyte_schema.shop__daily; \
             UPDATE airbyte_schema.shop__first_orders SET first_day = DATE '2024-01-06' WHERE customer_id = 2;",
        )
        .unwrap();
    }

    /// Output with the temporary directory replaced by `[TMP]`.
    fn redact(&self, text: &[u8]) -> String {
        String::from_utf8_lossy(text).replace(&self.dir.path().display().to_string(), "[TMP]")
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            stdout(out),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn reference_warehouses_score_100_percent() {
    let bed = Bed::new();
    assert!(bed.path("wh/shop.duckdb").is_file());
    assert!(
        !bed.path("wh/depot.duckdb").exists(),
        "depot has no data: no reference"
    );
    let out = bed.score(&[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("SRDEL  100.0%  (1 of 1 tasks)"), "{text}");
    assert!(
        text.contains("SRDT   100.0%  (3 of 3 date-independent models)"),
        "{text}"
    );
    assert!(
        text.contains("run-date-dependent models (counted apart): 100.0% (1 of 1)"),
        "{text}"
    );
    assert!(text.contains("rule: fixed"), "{text}");
}

#[test]
fn original_rule_fails_the_identical_negative_balance() {
    let bed = Bed::new();
    let report = json(&bed.score(&["--json", "--compat", "original"]));
    let model = &report["tasks"][0]["models"]["shop__customer_totals"];
    assert_eq!(model["status"], "unmatched");
    assert_eq!(model["error"]["columns"], serde_json::json!(["balance"]));
    let diff = &model["comparison"]["unmatched_columns"][0]["first_diff"];
    assert_eq!(
        (&diff["expected"], &diff["actual"]),
        (&"-5".into(), &"-5.0".into())
    );
    assert_eq!(report["summary"]["srdt"]["passed"], 2);
}

#[test]
fn score_json_names_every_failure() {
    let bed = Bed::new();
    bed.damage_shop();
    let out = bed.score(&["--all", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    insta::assert_snapshot!("score_all_json", bed.redact(&out.stdout));
}

#[test]
fn verbose_text_shows_the_first_differing_row() {
    let bed = Bed::new();
    bed.damage_shop();
    let text = stdout(&bed.score(&["-v"]));
    for expected in [
        "shop__returns: not_built",
        "shop__daily: wrong_schema [run-date-dependent]",
        "shop__first_orders: wrong_values",
        "first_day: 1 row(s) differ; first at row 1 (customer_id=2): expected 2024-01-05, got 2024-01-06",
        "SRDT    33.3%  (1 of 3 date-independent models)",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn a_locked_warehouse_scores_zero_with_the_reason() {
    let bed = Bed::new();
    let _writer =
        DuckDbWarehouse::open(&bed.path("wh/shop.duckdb"), "shop", Access::ReadWrite).unwrap();
    let out = bed.score(&["--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = json(&out);
    let task = &report["tasks"][0];
    assert_eq!(task["warehouse"]["state"], "unavailable");
    assert!(
        task["warehouse"]["reason"]
            .as_str()
            .unwrap()
            .contains("lock"),
        "{task}"
    );
    assert_eq!(report["summary"]["srdel"]["rate"], 0.0);
    assert_eq!(
        task["models"]["shop__customer_totals"]["status"],
        "not_scored_stage1_failed"
    );
}

#[test]
fn bad_input_exits_2() {
    let bed = Bed::new();
    let out = bed.score(&["--tasks", "shopp"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no task `shopp`") && err.contains("shop"),
        "{err}"
    );

    let out = bed.run(&[
        "score",
        "--suite",
        &bed.path("nowhere").display().to_string(),
        "--warehouse-dir",
        ".",
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let empty = bed.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = bed.run(&[
        "score",
        "--suite",
        &bed.suite(),
        "--warehouse-dir",
        &empty.display().to_string(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn warehouse_tables_lists_relations_with_kind_and_rows() {
    let bed = Bed::new();
    let file = bed.path("wh/shop.duckdb").display().to_string();
    let out = bed.run(&["warehouse", "tables", &file, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let relations = json(&out);
    let orders = relations
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "orders")
        .unwrap();
    assert_eq!(orders["schema"], "airbyte_schema");
    assert_eq!(orders["kind"], "table");
    assert_eq!(orders["rows"], 4);
    assert_eq!(relations.as_array().unwrap().len(), 6);
    let text = stdout(&bed.run(&["warehouse", "tables", &file]));
    assert!(text.contains("airbyte_schema.shop__daily"), "{text}");
}
