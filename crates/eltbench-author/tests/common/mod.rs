//! A tiny shop domain written by the tests: five CSV tables, one gold model
//! (`customer_totals`) with its ground truth computed here from the same rows.

#![allow(dead_code)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

pub const DB: &str = "tiny_shop";

pub const CUSTOMERS: &str = "id,name,region_id\n1,Ann,1\n2,Bob,2\n3,Cid,1\n4,Dee,\n";
pub const REGIONS: &str = "id,name\n1,North\n2,South\n";
pub const ORDERS: &str = "id,customer_id,amount,ordered_at\n\
10,1,12.5,2024-01-02 10:00:00\n11,1,7.25,2024-01-05 09:30:00\n\
12,2,100,2024-02-01 12:00:00\n13,3,3,2024-02-03 08:00:00\n14,2,0.5,2024-03-01 18:45:00\n";
pub const PRODUCTS: &str = "id,label,price\n1,pen,1.5\n2,ink,4\n3,pad,2.75\n";
pub const PAYMENTS: &str = "id,order_id,paid\n100,10,true\n101,12,false\n102,13,true\n";

/// Writes the five CSV files into `dir`.
pub fn write_domain(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, text) in [
        ("customers", CUSTOMERS),
        ("regions", REGIONS),
        ("orders", ORDERS),
        ("products", PRODUCTS),
        ("payments", PAYMENTS),
    ] {
        std::fs::write(dir.join(format!("{name}.csv")), text).unwrap();
    }
}

pub const MODEL: &str = "customer_totals";

pub const DATA_MODEL: &str = "models:
  - name: customer_totals
    description: One row per customer with their number of orders and total amount.
    columns:
      - name: customer_id
        description: The customer.
      - name: customer_name
        description: The customer's name.
      - name: region_name
        description: The customer's region, empty when unknown.
      - name: order_count
        description: Orders the customer placed.
      - name: total_amount
        description: Sum of their order amounts, 0 without orders.
";

pub const GOLD_SQL: &str =
    "select c.id as customer_id, c.name as customer_name, r.name as region_name,
  count(o.id) as order_count, coalesce(sum(o.amount), 0) as total_amount
from {{ source('airbyte_schema', 'customers') }} c
left join airbyte_schema.regions r on r.id = c.region_id
left join airbyte_schema.orders o on o.customer_id = c.id
group by c.id, c.name, r.name
";

/// The ground truth of `customer_totals`, computed by hand from the rows above.
pub const GT: &str = "customer_id,customer_name,region_name,order_count,total_amount
1,Ann,North,2,19.75
2,Bob,South,2,100.5
3,Cid,North,1,3.0
4,Dee,,0,0.0
";

/// Fills the author's part of the task: model, eval key, gold and gt.
pub fn fill_task(suite: &Path) {
    let task = suite.join("tasks").join(DB);
    std::fs::write(task.join("data_model.yaml"), DATA_MODEL).unwrap();
    let keys_path = suite.join("model_eval_keys.json");
    let mut keys: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&keys_path).unwrap()).unwrap();
    keys[DB] = serde_json::json!({
        MODEL: {"order_by": ["customer_id"], "table": format!("{DB}.airbyte_schema.{MODEL}")}
    });
    std::fs::write(&keys_path, serde_json::to_string_pretty(&keys).unwrap()).unwrap();
    let models = suite.join("gold").join(DB).join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::write(models.join(format!("{MODEL}.sql")), GOLD_SQL).unwrap();
    let gt = suite.join("gt").join(DB);
    std::fs::create_dir_all(&gt).unwrap();
    std::fs::write(gt.join(format!("{MODEL}.csv")), GT).unwrap();
    std::fs::create_dir_all(suite.join("verify")).unwrap();
    std::fs::write(suite.join("verify").join(format!("{DB}.yaml")), CHECKS).unwrap();
}

/// The testing queries of the model (execution-based verification).
pub const CHECKS: &str = "checks:
  - model: customer_totals
    name: every order amount is counted once
    kind: aggregate
    source_sql: SELECT sum(amount) FROM airbyte_schema.orders
    model_sql: SELECT sum(total_amount) FROM airbyte_schema.customer_totals
  - model: customer_totals
    name: Bob is looked up both ways
    kind: lookup
    source_sql: SELECT count(*) FROM airbyte_schema.orders o JOIN airbyte_schema.customers c ON c.id = o.customer_id WHERE c.name = 'Bob'
    model_sql: SELECT order_count FROM airbyte_schema.customer_totals WHERE customer_name = 'Bob'
";

/// A temp dir the `postgres` user can traverse.
pub fn open_tempdir() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    tmp
}

/// Every error-level problem of the suite, as text.
pub fn errors(suite: &eltbench_task::Suite) -> Vec<String> {
    suite
        .validate()
        .iter()
        .filter(|p| p.is_error())
        .map(ToString::to_string)
        .collect()
}

/// dbt-core + dbt-duckdb, installed once under target/ (needs PyPI the first time).
pub fn toolchain() -> eltbench_dbt::DbtToolchain {
    let home = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/eltbench-home");
    let mut progress = |line: &str| eprintln!("dbt toolchain: {line}");
    eltbench_dbt::DbtToolchain::ensure_with(&home, &mut progress)
        .unwrap_or_else(|e| panic!("cannot install dbt (needs python3 with venv and PyPI): {e}"))
}

/// Scaffolds the tiny shop task into `suite` from CSVs written beside it.
pub fn scaffold(suite: &Path) {
    let csvs = suite.parent().unwrap().join("csvs");
    write_domain(&csvs);
    let task = eltbench_author::NewTask {
        db: DB.into(),
        tables: eltbench_author::read_tables(&csvs).unwrap(),
        kinds: eltbench_author::KIND_ORDER.to_vec(),
        force: false,
    };
    let report = eltbench_author::new_task(suite, &task).unwrap();
    assert_eq!(report.tables.len(), 5);
}

/// Models of a verification that did not match.
pub fn unmatched(v: &eltbench_harness::oracle::Verification) -> Vec<String> {
    v.score
        .models
        .iter()
        .filter(|(_, m)| m.status != eltbench_score::ModelStatus::Matched)
        .map(|(name, m)| format!("{name}: {m:?}"))
        .collect()
}
