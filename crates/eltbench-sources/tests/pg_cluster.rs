//! The `PgCluster` guard: start, password logins over TCP, failures that must be
//! reported clearly (port taken, run directory impossible, server killed mid-COPY),
//! and no process left behind.

mod common;

use std::time::{Duration, Instant};

use eltbench_sources::postgres::procs;
use eltbench_sources::{PgCluster, PgClusterOptions, PgError, Rows, Table, read_table};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn original_credentials_work_over_tcp_and_only_with_the_password() {
    let (_dir, cluster) = common::start_cluster();
    cluster.create_database("amplitude").await.unwrap();
    cluster
        .create_role("postgres", "testelt", true)
        .await
        .unwrap();
    cluster
        .create_role("reader", "s3cret'pw", false)
        .await
        .unwrap();

    let config = cluster.tcp_config("postgres", "testelt", "amplitude");
    let client = cluster
        .connect_with(&config, "postgres", "amplitude", "tcp")
        .await
        .unwrap();
    let db: String = client
        .query_one("SELECT current_database()", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(db, "amplitude");

    let reader = cluster.tcp_config("reader", "s3cret'pw", "amplitude");
    let client = cluster
        .connect_with(&reader, "reader", "amplitude", "tcp")
        .await
        .unwrap();
    let is_super: bool = client
        .query_one(
            "SELECT rolsuper FROM pg_roles WHERE rolname = current_user",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert!(!is_super);

    let wrong = cluster.tcp_config("postgres", "nope", "amplitude");
    let err = cluster
        .connect_with(&wrong, "postgres", "amplitude", "tcp 127.0.0.1")
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("password authentication failed"),
        "{err}"
    );
}

#[test]
fn dropping_the_guard_leaves_no_process_behind() {
    let (_dir, cluster) = common::start_cluster();
    let data_dir = cluster.data_dir().to_path_buf();
    let pid = cluster.postmaster_pid().unwrap();
    assert!(procs::is_alive(pid));
    assert!(common::processes_of(&data_dir).contains(&pid));
    drop(cluster);
    assert_eq!(common::processes_of(&data_dir), Vec::<i32>::new());
    assert!(!procs::is_alive(pid));
}

#[test]
fn a_taken_port_is_reported_by_number() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let options = PgClusterOptions {
        port: Some(port),
        ..PgClusterOptions::default()
    };
    let err = PgCluster::start(&dir.path().join("pg"), options).unwrap_err();
    assert!(
        matches!(err, PgError::PortInUse { port: p } if p == port),
        "{err}"
    );
    assert!(err.to_string().contains(&port.to_string()));
    assert!(common::processes_of(&dir.path().join("pg").join("data")).is_empty());
}

#[test]
fn a_run_dir_that_cannot_be_created_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let err = PgCluster::start(&file.join("pg"), PgClusterOptions::default()).unwrap_err();
    assert!(matches!(err, PgError::CreateDir { .. }), "{err}");
    assert!(err.to_string().contains("plain-file/pg"), "{err}");
}

#[test]
fn a_used_run_dir_is_refused() {
    let (dir, cluster) = common::start_cluster();
    let err = PgCluster::start(&dir.path().join("pg"), PgClusterOptions::default()).unwrap_err();
    assert!(matches!(err, PgError::DataDirExists { .. }), "{err}");
    assert!(
        cluster.is_running(),
        "the refused start must not disturb the running cluster"
    );
}

fn big_table(dir: &std::path::Path, rows: usize) -> Table {
    use std::io::Write;
    let path = dir.join("big.csv");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(out, "id,name,amount,at").unwrap();
    for i in 0..rows {
        writeln!(
            out,
            "{i},name number {i},{}.25,2024-01-{:02} 10:00:00",
            i % 1000,
            i % 28 + 1
        )
        .unwrap();
    }
    drop(out);
    read_table(&path, "big", None).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_server_mid_copy_is_reported_and_leaves_nothing() {
    let (dir, cluster) = common::start_cluster();
    cluster.create_database("fault").await.unwrap();
    let table = big_table(dir.path(), 500_000);
    let pid = cluster.postmaster_pid().unwrap();
    let data_dir = cluster.data_dir().to_path_buf();
    let watcher = cluster.connect("postgres").await.unwrap();
    let cluster = std::sync::Arc::new(cluster);
    let loader = {
        let cluster = cluster.clone();
        tokio::spawn(async move { cluster.load_table("fault", "public", &table).await })
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let rows = watcher
            .query("SELECT tuples_processed FROM pg_stat_progress_copy", &[])
            .await
            .unwrap();
        if rows.first().is_some_and(|r| r.get::<_, i64>(0) > 0) {
            break;
        }
        assert!(
            Instant::now() < deadline && !loader.is_finished(),
            "COPY never started or finished too fast"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    procs::kill_now(pid).unwrap();
    let err = loader.await.unwrap().unwrap_err();
    assert!(
        matches!(err, PgError::ServerDied { pid: p, .. } if p == pid),
        "{err}"
    );
    assert!(err.to_string().contains("fault.public.big"), "{err}");
    drop(watcher);
    let cluster = std::sync::Arc::try_unwrap(cluster).unwrap();
    cluster.stop().unwrap();
    assert_eq!(common::processes_of(&data_dir), Vec::<i32>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_value_postgres_rejects_fails_the_load_with_the_server_message() {
    let (_dir, cluster) = common::start_cluster();
    cluster.create_database("bad").await.unwrap();
    let mut rows = Rows::new(1);
    rows.push(2, ["5"]).unwrap();
    let table = Table {
        name: "t".into(),
        columns: vec![eltbench_sources::Column {
            name: "n".into(),
            ty: eltbench_sources::ColumnType::Text,
            not_null: false,
            origin: eltbench_sources::TypeOrigin::Inferred,
            declared_name: None,
        }],
        primary_key: vec![],
        rows,
    };
    cluster.load_table("bad", "public", &table).await.unwrap();
    let err = cluster
        .load_table("bad", "public", &table)
        .await
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("CREATE TABLE of bad.public.t") && msg.contains("already exists"),
        "{msg}"
    );
}

/// As root the server runs as an unprivileged user, who must be able to reach the run
/// directory; a private (0700, root-owned) parent is refused up front with its path.
#[test]
fn a_run_dir_the_server_user_cannot_reach_is_named() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let result = PgCluster::start(&dir.path().join("pg"), PgClusterOptions::default());
    if nix::unistd::Uid::effective().is_root() {
        let err = result.unwrap_err();
        assert!(
            matches!(&err, PgError::NotSearchable { path, .. } if path == dir.path()),
            "{err}"
        );
    } else {
        result.unwrap().stop().unwrap();
    }
}
