//! The Postgres source against a real private PostgreSQL cluster (eltbench-sources'
//! `PgCluster`): discovery with primary keys, Airbyte's type mapping, COPY text
//! decoding, namespaces, incremental reads, and connection / credential failures.

mod sync_common;

use eltbench_sources::{PgCluster, PgClusterOptions};
use serde_json::{Value, json};
use sync_common::{Env, columns, count, query};

struct Pg {
    cluster: PgCluster,
    runtime: tokio::runtime::Runtime,
    _dir: tempfile::TempDir,
}

impl Pg {
    fn start() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let cluster = PgCluster::start(&dir.path().join("pg"), PgClusterOptions::default())
            .expect("postgres starts");
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        runtime.block_on(async {
            cluster.create_database("shop").await.expect("database");
            cluster
                .create_role("elt", "testelt", false)
                .await
                .expect("role");
        });
        let pg = Self {
            cluster,
            runtime,
            _dir: dir,
        };
        pg.sql(
            "CREATE TABLE users (id serial PRIMARY KEY, name text, score numeric(10,2), active bool, \
               created timestamptz, born date, tags text[], doc jsonb); \
             INSERT INTO users (name, score, active, created, born, tags, doc) VALUES \
               (E'tab\\there\\nline', 1.25, true, '2024-01-02 03:04:05+02', '1990-05-06', ARRAY['a','b'], '{\"k\": 1}'), \
               (NULL, NULL, NULL, NULL, NULL, NULL, NULL), \
               ('back\\slash', -3, false, '2024-01-01 00:00:00+00', '2000-01-01', '{}', '[1,2]'); \
             CREATE TABLE orders (id int, amount float8); \
             INSERT INTO orders SELECT i, i * 0.5 FROM generate_series(1, 3) i; \
             GRANT SELECT ON ALL TABLES IN SCHEMA public TO elt;",
        );
        pg
    }

    fn sql(&self, sql: &str) {
        self.runtime.block_on(async {
            let client = self.cluster.connect("shop").await.expect("connect");
            client.batch_execute(sql).await.expect("sql");
        });
    }

    fn config(&self, password: &str) -> Value {
        json!({"sourceType": "postgres", "host": "127.0.0.1", "port": self.cluster.port(),
               "database": "shop", "username": "elt", "password": password,
               "schemas": ["public"], "ssl_mode": {"mode": "disable"}})
    }
}

#[test]
fn tables_land_typed_with_keys_and_namespaces() {
    let pg = Pg::start();
    let env = Env::start();
    let source = env.source(pg.config("testelt"), None);
    let (_, streams) = env.get(&format!("/streams?sourceId={source}"));
    let users = streams
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["streamName"] == "users")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        users["sourceDefinedPrimaryKey"],
        json!([["id"]]),
        "{streams}"
    );

    let db = env.db_path("shop");
    let dest = env.destination(&db, "airbyte_schema");
    let extra = json!({"namespaceDefinition": "custom_format", "namespaceFormat": "raw_${SOURCE_NAMESPACE}", "prefix": "pg_"});
    let conn = env.connection(
        &source,
        &dest,
        json!([{"name": "users"}, {"name": "orders", "syncMode": "full_refresh_append"}]),
        extra,
    );
    assert_eq!(env.sync_ok(&conn), 6);
    assert_eq!(
        &columns(&db, "raw_public", "pg_users")[4..],
        [
            "id BIGINT",
            "name VARCHAR",
            "score DOUBLE",
            "active BOOLEAN",
            "created TIMESTAMP WITH TIME ZONE",
            "born DATE",
            "tags JSON",
            "doc JSON",
        ]
    );
    let rows = query(
        &db,
        "SELECT name, CAST(score AS VARCHAR), CAST(active AS VARCHAR), CAST(epoch(created) AS VARCHAR), \
         CAST(born AS VARCHAR), CAST(tags AS VARCHAR), CAST(doc AS VARCHAR) FROM raw_public.pg_users ORDER BY id",
    );
    assert_eq!(
        rows[0],
        [
            "tab\there\nline",
            "1.25",
            "true",
            "1704157445.0",
            "1990-05-06",
            "[\"a\",\"b\"]",
            "{\"k\": 1}"
        ]
    );
    assert!(rows[1].iter().all(|v| v == "NULL"), "{:?}", rows[1]);
    assert_eq!(rows[2][0], "back\\slash");
    assert_eq!(count(&db, "raw_public.pg_orders"), 3);
}

#[test]
fn incremental_reads_only_rows_past_the_cursor() {
    let pg = Pg::start();
    let env = Env::start();
    let source = env.source(pg.config("testelt"), None);
    let db = env.db_path("inc");
    let dest = env.destination(&db, "airbyte_schema");
    let streams =
        json!([{"name": "orders", "syncMode": "incremental_append", "cursorField": ["id"]}]);
    let conn = env.connection(&source, &dest, streams, json!({}));
    assert_eq!(env.sync_ok(&conn), 3);
    pg.sql("INSERT INTO orders VALUES (4, 2.0), (5, 2.5)");
    assert_eq!(env.sync_ok(&conn), 2);
    assert_eq!(count(&db, "airbyte_schema.orders"), 5);
}

#[test]
fn wrong_credentials_and_ports_fail_the_job_with_airbyte_messages() {
    let pg = Pg::start();
    let env = Env::start();
    let source = env.source(pg.config("testelt"), None);
    let db = env.db_path("fail");
    let dest = env.destination(&db, "main");
    let conn = env.connection(&source, &dest, json!([{"name": "orders"}]), json!({}));

    env.patch_source(&source, json!({"password": "wrong"}));
    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "failed");
    assert!(
        log.contains("Failure in source: Authentication to postgres at 127.0.0.1:"),
        "{log}"
    );
    assert!(log.contains("Check that your credentials"), "{log}");

    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    env.patch_source(&source, json!({"password": "testelt", "port": closed}));
    let (status, _, log) = env.run(&conn, "sync");
    assert_eq!(status, "failed");
    assert!(
        log.contains(&format!("Connection to 127.0.0.1:{closed} refused")),
        "{log}"
    );

    let missing = env.source(
        json!({"sourceType": "postgres", "host": "127.0.0.1", "port": pg.cluster.port(),
        "database": "nope", "username": "elt", "password": "testelt"}),
        None,
    );
    let (status, body) = env.post(
        "/connections",
        &json!({"sourceId": missing, "destinationId": dest}),
    );
    assert_eq!(status, 422, "{body}");
    assert!(
        body["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("Database `nope` does not exist"),
        "{body}"
    );
}
