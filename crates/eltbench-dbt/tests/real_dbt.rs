//! Real dbt-core 1.11 + dbt-duckdb on a warehouse file written by the Rust side
//! (libduckdb 1.5.5), read back by the Rust side after `dbt run`: the DuckDB
//! file format round-trips, models land in `<db>.airbyte_schema.<model>`, and
//! failing runs are classified from `run_results.json` and dbt's log.

mod common;

use std::time::{Duration, Instant};

use common::{Workspace, home, toolchain};
use eltbench_dbt::{DbtToolchain, ErrorKind, NodeStatus, run_dbt};

const STG_ORDERS: &str = "select id, customer_id, amount, ordered_at\n\
                          from {{ source('airbyte_schema', 'orders') }}\n";

/// A table with window functions; `schema='airbyte_schema'` must not become
/// `airbyte_schema_airbyte_schema`.
const CUSTOMER_ORDERS: &str = "{{ config(materialized='table', schema='airbyte_schema') }}\n\
select o.customer_id, c.name, o.id as order_id,\n\
       row_number() over (partition by o.customer_id order by o.amount desc) as amount_rank,\n\
       sum(o.amount) over (partition by o.customer_id) as customer_total\n\
from {{ ref('stg_orders') }} o\n\
join {{ source('airbyte_schema', 'customers') }} c on c.id = o.customer_id\n";

fn relations(conn: &duckdb::Connection, db: &str) -> Vec<(String, String, String)> {
    let mut stmt = conn
        .prepare(
            "SELECT table_schema, table_name, table_type FROM information_schema.tables \
             WHERE table_catalog = ? ORDER BY 1, 2",
        )
        .unwrap();
    stmt.query_map([db], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn models_land_in_db_airbyte_schema_and_read_back_from_rust() {
    let dbt = toolchain();
    let ws = Workspace::new("shop");
    ws.model("stg_orders", STG_ORDERS);
    ws.model("customer_orders", CUSTOMER_ORDERS);

    let outcome = run_dbt(&dbt, &ws.project(), &["run"]).unwrap();
    assert!(
        outcome.succeeded(),
        "{}\n{}",
        outcome.stdout,
        outcome.stderr
    );
    assert_eq!(outcome.exit_code, Some(0));
    let built: Vec<(&str, &NodeStatus)> = outcome
        .results
        .iter()
        .map(|r| (r.name.as_str(), &r.status))
        .collect();
    assert_eq!(
        built,
        [
            ("customer_orders", &NodeStatus::Success),
            ("stg_orders", &NodeStatus::Success)
        ]
    );
    assert_eq!(
        outcome
            .node("customer_orders")
            .and_then(|n| n.relation_name.as_deref()),
        Some("\"shop\".\"airbyte_schema\".\"customer_orders\"")
    );

    let conn = ws.open();
    let s = |v: &str| v.to_owned();
    assert_eq!(
        relations(&conn, "shop"),
        [
            (s("airbyte_schema"), s("customer_orders"), s("BASE TABLE")),
            (s("airbyte_schema"), s("customers"), s("BASE TABLE")),
            (s("airbyte_schema"), s("orders"), s("BASE TABLE")),
            (s("airbyte_schema"), s("stg_orders"), s("VIEW")),
        ]
    );
    let mut stmt = conn
        .prepare(
            "SELECT customer_id, name, order_id, amount_rank, customer_total \
             FROM shop.airbyte_schema.customer_orders ORDER BY customer_id, amount_rank",
        )
        .unwrap();
    let rows: Vec<(i64, String, i64, i64, f64)> = stmt
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        rows,
        [
            (1, s("Ada"), 13, 1, 87.5),
            (1, s("Ada"), 10, 2, 87.5),
            (1, s("Ada"), 11, 3, 87.5),
            (2, s("Grace"), 12, 1, 104.0),
            (2, s("Grace"), 14, 2, 104.0),
        ]
    );
    // The view dbt created resolves on the Rust side too.
    let view_rows: i64 = conn
        .query_row(
            "SELECT count(*) FROM shop.airbyte_schema.stg_orders",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(view_rows, 5);
}

#[test]
fn sql_error_is_a_database_error() {
    let dbt = toolchain();
    let ws = Workspace::new("broken_sql");
    ws.model("stg_orders", STG_ORDERS);
    ws.model(
        "bad",
        "select no_such_column from {{ ref('stg_orders') }}\n",
    );
    ws.model("after_bad", "select * from {{ ref('bad') }}\n");

    let outcome = run_dbt(&dbt, &ws.project(), &["run"]).unwrap();
    assert_eq!(outcome.exit_code, Some(1), "{}", outcome.stdout);
    assert!(outcome.run_results_written);
    let failure = outcome.failure.clone().unwrap();
    assert_eq!(failure.kind, ErrorKind::Database);
    assert_eq!(failure.node.as_deref(), Some("bad"));
    assert!(
        failure.message.contains("no_such_column"),
        "{}",
        failure.message
    );
    let status = |name: &str| outcome.node(name).map(|n| n.status.clone());
    assert_eq!(status("stg_orders"), Some(NodeStatus::Success));
    assert_eq!(status("bad"), Some(NodeStatus::Error));
    assert_eq!(status("after_bad"), Some(NodeStatus::Skipped));
}

#[test]
fn jinja_errors_are_compilation_errors() {
    let dbt = toolchain();
    // A Jinja syntax error stops dbt while parsing: exit 2, no run_results.json.
    let ws = Workspace::new("broken_jinja");
    ws.model("stg_orders", STG_ORDERS);
    ws.model("bad", "select * from {{ ref('stg_orders' }}\n");
    let outcome = run_dbt(&dbt, &ws.project(), &["run"]).unwrap();
    assert_eq!(outcome.exit_code, Some(2), "{}", outcome.stdout);
    assert!(!outcome.run_results_written);
    let failure = outcome.failure.clone().unwrap();
    assert_eq!(failure.kind, ErrorKind::Compilation, "{failure:?}");
    assert!(failure.message.contains("model bad"), "{}", failure.message);

    // An undefined macro fails when the model compiles: the node is in run_results.
    ws.model("bad", "select {{ no_such_macro() }} as x\n");
    let outcome = run_dbt(&dbt, &ws.project(), &["run"]).unwrap();
    assert_eq!(outcome.exit_code, Some(1), "{}", outcome.stdout);
    assert!(outcome.run_results_written);
    assert_eq!(outcome.error_kind(), Some(ErrorKind::Compilation));
    let bad = outcome.node("bad").unwrap();
    assert_eq!(
        (&bad.status, bad.error_kind),
        (&NodeStatus::Error, Some(ErrorKind::Compilation))
    );
    assert_eq!(
        outcome.node("stg_orders").map(|n| &n.status),
        Some(&NodeStatus::Success)
    );
}

#[test]
fn ensure_is_idempotent_and_pins_duckdb_1_5_5() {
    let first = toolchain();
    let marker = first.venv_dir().join("eltbench-toolchain.json");
    let before = std::fs::metadata(&marker).unwrap().modified().unwrap();

    let started = Instant::now();
    let mut lines = Vec::new();
    let second = DbtToolchain::ensure_with(&home(), &mut |l| lines.push(l.to_owned())).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(
        lines.is_empty(),
        "a second ensure installed again: {lines:?}"
    );
    assert_eq!(second, first);
    assert_eq!(
        std::fs::metadata(&marker).unwrap().modified().unwrap(),
        before
    );

    assert!(
        second.dbt_core_version().starts_with("1.11."),
        "{}",
        second.dbt_core_version()
    );
    assert!(
        second.dbt_duckdb_version().starts_with("1.11."),
        "{}",
        second.dbt_duckdb_version()
    );
    // Ask the virtualenv itself, not the marker.
    let out = std::process::Command::new(second.python_bin())
        .args(["-c", "import duckdb; print(duckdb.__version__)"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1.5.5");
    assert!(second.bin_dir().join("dbt").is_file());
}
