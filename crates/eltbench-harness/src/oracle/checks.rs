//! Execution-based verification of a task's models (the paper's step 6):
//! `<suite>/verify/<db>.yaml` lists testing queries, each a pair of SQL
//! queries — one over the loaded source tables, one over a model — whose
//! results must be equal (aggregates that must add up, a LIMIT query over a
//! ranking, an entity looked up both ways). Reads the warehouse only.
//!
//! ```yaml
//! checks:
//!   - model: station_usage
//!     name: every trip is counted at its start station
//!     kind: aggregate            # aggregate | limit | lookup
//!     source_sql: SELECT count(*) FROM airbyte_schema.trips
//!     model_sql: SELECT sum(trips_started) FROM airbyte_schema.station_usage
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::OracleError;

/// `verify/<db>.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckFile {
    pub checks: Vec<Check>,
}

/// One testing query.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    pub model: String,
    pub name: String,
    pub kind: String,
    pub source_sql: String,
    pub model_sql: String,
}

/// What one testing query gave.
#[derive(Debug, Clone, Serialize)]
pub struct CheckResult {
    pub check: Check,
    pub source_rows: Vec<Vec<Option<String>>>,
    pub model_rows: Vec<Vec<Option<String>>>,
    /// The error of either query, if one failed.
    pub error: Option<String>,
}

impl CheckResult {
    /// Whether both queries ran and gave the same rows.
    pub fn passed(&self) -> bool {
        self.error.is_none() && rows_equal(&self.source_rows, &self.model_rows)
    }

    /// One line naming the model, the check and what differed.
    pub fn describe(&self) -> String {
        let c = &self.check;
        match &self.error {
            Some(e) => format!(
                "model {} check '{}' ({}): query failed: {e}",
                c.model, c.name, c.kind
            ),
            None => format!(
                "model {} check '{}' ({}): sources gave {:?}, model gave {:?}",
                c.model, c.name, c.kind, self.source_rows, self.model_rows
            ),
        }
    }
}

/// `<suite>/verify/<db>.yaml`.
pub fn checks_path(root: &Path, db: &str) -> PathBuf {
    root.join("verify").join(format!("{db}.yaml"))
}

/// Reads the testing queries of task `db`.
pub fn load_checks(root: &Path, db: &str) -> Result<CheckFile, OracleError> {
    let path = checks_path(root, db);
    let text = std::fs::read_to_string(&path).map_err(|e| OracleError::io(&path, e))?;
    serde_yaml::from_str(&text).map_err(|e| OracleError::Config {
        path,
        message: e.to_string(),
    })
}

/// Runs every check on the warehouse file (catalog `<db>`).
pub fn run_checks(warehouse: &Path, checks: &CheckFile) -> Result<Vec<CheckResult>, OracleError> {
    let config = duckdb::Config::default()
        .access_mode(duckdb::AccessMode::ReadOnly)
        .map_err(|e| OracleError::io(warehouse, std::io::Error::other(e)))?;
    let conn = duckdb::Connection::open_with_flags(warehouse, config)
        .map_err(|e| OracleError::io(warehouse, std::io::Error::other(e)))?;
    Ok(checks
        .checks
        .iter()
        .map(|check| {
            let both = query(&conn, &check.source_sql)
                .and_then(|s| query(&conn, &check.model_sql).map(|m| (s, m)));
            match both {
                Ok((source_rows, model_rows)) => CheckResult {
                    check: check.clone(),
                    source_rows,
                    model_rows,
                    error: None,
                },
                Err(e) => CheckResult {
                    check: check.clone(),
                    source_rows: Vec::new(),
                    model_rows: Vec::new(),
                    error: Some(e.to_string()),
                },
            }
        })
        .collect())
}

/// The rows of `sql`, every value cast to text.
fn query(conn: &duckdb::Connection, sql: &str) -> duckdb::Result<Vec<Vec<Option<String>>>> {
    let wrapped = format!(
        "SELECT CAST(COLUMNS(*) AS VARCHAR) FROM ({}) AS q",
        sql.trim().trim_end_matches(';')
    );
    let mut stmt = conn.prepare(&wrapped)?;
    let mut rows = stmt.query([])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let width = row.as_ref().column_count();
        out.push(
            (0..width)
                .map(|i| row.get::<_, Option<String>>(i))
                .collect::<duckdb::Result<Vec<_>>>()?,
        );
    }
    Ok(out)
}

/// Equal row by row; numbers equal within 1e-9 relative (sums in another order).
pub fn rows_equal(a: &[Vec<Option<String>>], b: &[Vec<Option<String>>]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(u, v)| value_equal(u.as_deref(), v.as_deref()))
        })
}

fn value_equal(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) if a == b => true,
        (Some(a), Some(b)) => match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
            _ => false,
        },
        (None, None) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(v: &[&[Option<&str>]]) -> Vec<Vec<Option<String>>> {
        v.iter()
            .map(|r| r.iter().map(|x| x.map(str::to_owned)).collect())
            .collect()
    }

    #[test]
    fn numbers_compare_by_value_text_exactly() {
        assert!(rows_equal(
            &rows(&[&[Some("10.50")]]),
            &rows(&[&[Some("10.5")]])
        ));
        assert!(!rows_equal(
            &rows(&[&[Some("10.5")]]),
            &rows(&[&[Some("10.6")]])
        ));
        assert!(!rows_equal(&rows(&[&[Some("a")]]), &rows(&[&[Some("b")]])));
        assert!(!rows_equal(&rows(&[&[None]]), &rows(&[&[Some("0")]])));
        assert!(!rows_equal(&rows(&[&[Some("1")]]), &rows(&[])));
    }

    #[test]
    fn checks_run_against_a_warehouse() {
        let dir = tempfile::tempdir().unwrap();
        let wh = dir.path().join("shop.duckdb");
        let conn = duckdb::Connection::open(&wh).unwrap();
        conn.execute_batch(
            "CREATE SCHEMA airbyte_schema; CREATE TABLE airbyte_schema.t AS SELECT 1 AS x UNION ALL SELECT 2;",
        )
        .unwrap();
        drop(conn);
        let file: CheckFile = serde_yaml::from_str(
            "checks:\n- {model: m, name: ok, kind: aggregate, source_sql: 'select sum(x) from airbyte_schema.t', model_sql: 'select 3'}\n\
             - {model: m, name: bad, kind: lookup, source_sql: 'select max(x) from shop.airbyte_schema.t', model_sql: 'select 1'}\n\
             - {model: m, name: broken, kind: limit, source_sql: 'select nope', model_sql: 'select 1'}\n",
        )
        .unwrap();
        let results = run_checks(&wh, &file).unwrap();
        let passed: Vec<bool> = results.iter().map(CheckResult::passed).collect();
        assert_eq!(passed, [true, false, false]);
        assert!(
            results[1].describe().contains("model m check 'bad'"),
            "{}",
            results[1].describe()
        );
        assert!(results[2].describe().contains("query failed"));
    }
}
