//! Shared helpers: the real toolchain under the workspace's
//! `target/eltbench-home` (installed by the first test that needs it, about a
//! minute, then reused), and a task workspace with a warehouse the Rust side
//! (the `duckdb` crate, libduckdb 1.5.5) created.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use eltbench_dbt::{DbtToolchain, write_project};

/// `<workspace>/target/eltbench-home`.
pub fn home() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/eltbench-home")
}

/// The real dbt toolchain; the first call installs it.
pub fn toolchain() -> DbtToolchain {
    let mut progress = |line: &str| eprintln!("eltbench-dbt test: {line}");
    DbtToolchain::ensure_with(&home(), &mut progress)
        .unwrap_or_else(|e| panic!("cannot install dbt (needs python3 with venv and PyPI): {e}"))
}

/// A task workspace: `<db>.duckdb` with `airbyte_schema.orders` and
/// `airbyte_schema.customers` written by the Rust side, and a dbt project.
pub struct Workspace {
    pub dir: tempfile::TempDir,
    pub db: &'static str,
}

impl Workspace {
    pub fn new(db: &'static str) -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let ws = Self { dir, db };
        let conn = duckdb::Connection::open(ws.warehouse()).expect("create warehouse");
        conn.execute_batch(SOURCE_TABLES)
            .expect("load source tables");
        drop(conn);
        write_project(&ws.project(), db, &ws.warehouse()).expect("write project");
        std::fs::write(ws.project().join("models/sources.yml"), SOURCES_YML).expect("sources.yml");
        ws
    }

    pub fn warehouse(&self) -> PathBuf {
        self.dir.path().join(format!("{}.duckdb", self.db))
    }

    pub fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    pub fn model(&self, name: &str, sql: &str) {
        let path = self.project().join("models").join(format!("{name}.sql"));
        std::fs::write(path, sql).expect("write model");
    }

    /// Opens the warehouse from Rust (catalog = file stem, as dbt-duckdb names it).
    pub fn open(&self) -> duckdb::Connection {
        duckdb::Connection::open(self.warehouse()).expect("open warehouse from Rust")
    }
}

const SOURCE_TABLES: &str = "
CREATE SCHEMA airbyte_schema;
CREATE TABLE airbyte_schema.customers (id BIGINT, name VARCHAR);
INSERT INTO airbyte_schema.customers VALUES (1, 'Ada'), (2, 'Grace'), (3, 'Edsger');
CREATE TABLE airbyte_schema.orders (id BIGINT, customer_id BIGINT, amount DOUBLE, ordered_at DATE);
INSERT INTO airbyte_schema.orders VALUES
  (10, 1, 30.0, DATE '2024-01-05'),
  (11, 1, 12.5, DATE '2024-02-01'),
  (12, 2, 99.0, DATE '2024-01-20'),
  (13, 1, 45.0, DATE '2024-03-11'),
  (14, 2, 5.0,  DATE '2024-03-12');
";

const SOURCES_YML: &str = "version: 2
sources:
  - name: airbyte_schema
    tables:
      - name: orders
      - name: customers
";
