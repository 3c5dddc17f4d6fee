//! Every table of the 22 real-data tasks, loaded into a private PostgreSQL cluster and
//! read back: row counts equal `source_row_counts.json`, and every value equals the
//! CSV under the per-type normalisation of `common::normalise`.

mod common;

use std::collections::BTreeMap;

use eltbench_sources::postgres::{pg_column_name, qualified, quote_ident};
use eltbench_sources::{DdlCatalog, PgCluster, Table, read_suite_table};

type Counts = BTreeMap<String, BTreeMap<String, u64>>;

fn task_tables(db: &str) -> Vec<String> {
    let dir = common::suite().join("data").join(db);
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            e.unwrap()
                .file_name()
                .to_str()?
                .strip_suffix(".csv")
                .map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

fn tasks() -> Vec<String> {
    let mut dbs: Vec<String> = std::fs::read_dir(common::suite().join("data"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dbs.sort();
    dbs
}

async fn read_back(cluster: &PgCluster, db: &str, table: &Table) -> Vec<Vec<Option<String>>> {
    let client = cluster.connect(db).await.unwrap();
    let cols: Vec<String> = table
        .columns
        .iter()
        .map(|c| format!("{}::text", quote_ident(&pg_column_name(c))))
        .collect();
    let sql = format!(
        "SELECT {} FROM {}",
        cols.join(", "),
        qualified("public", &table.name)
    );
    let rows = client.query(&sql, &[]).await.unwrap();
    rows.iter()
        .map(|r| {
            (0..table.columns.len())
                .map(|i| r.get::<_, Option<&str>>(i).map(str::to_owned))
                .collect()
        })
        .collect()
}

fn canonical_rows<'a>(
    table: &Table,
    rows: impl Iterator<Item = Vec<Option<&'a str>>>,
) -> Vec<Vec<Option<String>>> {
    let mut out: Vec<Vec<Option<String>>> = rows
        .map(|r| {
            r.into_iter()
                .zip(&table.columns)
                .map(|(v, c)| common::normalise::canonical(c.ty, v))
                .collect()
        })
        .collect();
    out.sort();
    out
}

async fn check_table(cluster: &PgCluster, db: &str, table: &Table, counts: &Counts) {
    let expected = counts[db][&table.name];
    let client = cluster.connect(db).await.unwrap();
    let count_sql = format!("SELECT count(*) FROM {}", qualified("public", &table.name));
    let count: i64 = client.query_one(&count_sql, &[]).await.unwrap().get(0);
    assert_eq!(count as u64, expected, "{db}.{} row count", table.name);

    let stored = read_back(cluster, db, table).await;
    let stored = canonical_rows(
        table,
        stored
            .iter()
            .map(|r| r.iter().map(Option::as_deref).collect()),
    );
    let from_csv = canonical_rows(table, table.rows.iter().map(|r| r.values().collect()));
    for (i, (got, want)) in stored.iter().zip(&from_csv).enumerate() {
        assert_eq!(
            got, want,
            "{db}.{} sorted row {i} differs (columns {:?})",
            table.name, table.columns
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_real_data_table_loads_with_exact_counts_and_values() {
    let suite = common::suite();
    let catalog = DdlCatalog::load(&suite.join("postgres_ddl.json")).unwrap();
    let counts: Counts = serde_json::from_str(
        &std::fs::read_to_string(suite.join("source_row_counts.json")).unwrap(),
    )
    .unwrap();
    let (_dir, cluster) = common::start_cluster();
    let mut loaded = 0;
    let dbs = tasks();
    assert_eq!(dbs.len(), 22);
    for db in &dbs {
        cluster.create_database(db).await.unwrap();
        for name in task_tables(db) {
            let table = read_suite_table(&suite, db, &name, Some(&catalog)).unwrap();
            let copied = cluster.load_table(db, "public", &table).await.unwrap();
            assert_eq!(copied, table.len() as u64);
            check_table(&cluster, db, &table, &counts).await;
            loaded += 1;
        }
    }
    assert!(loaded > 200, "only {loaded} tables");
    cluster.stop().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declared_types_reach_the_catalog() {
    let suite = common::suite();
    let catalog = DdlCatalog::load(&suite.join("postgres_ddl.json")).unwrap();
    let (_dir, cluster) = common::start_cluster();
    cluster.create_database("github").await.unwrap();
    let table = read_suite_table(&suite, "github", "issue", Some(&catalog)).unwrap();
    cluster
        .load_table("github", "public", &table)
        .await
        .unwrap();
    let client = cluster.connect("github").await.unwrap();
    let sql = "SELECT column_name, data_type FROM information_schema.columns \
               WHERE table_name = 'issue' AND column_name IN ('id', 'locked', 'created_at', 'body') ORDER BY 1";
    let types: Vec<(String, String)> = client
        .query(sql, &[])
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let want = [
        ("body", "text"),
        ("created_at", "timestamp without time zone"),
        ("id", "integer"),
        ("locked", "boolean"),
    ];
    assert_eq!(types, want.map(|(a, b)| (a.to_owned(), b.to_owned())));
    let pk: i64 = client
        .query_one("SELECT count(*) FROM information_schema.table_constraints WHERE table_name = 'issue' AND constraint_type = 'PRIMARY KEY'", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(pk, 1);
}
