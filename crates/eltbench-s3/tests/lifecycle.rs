//! The server guard: stopping or dropping it closes the port and ends serving.

mod common;

use std::net::{SocketAddr, TcpListener};
use std::time::{Duration, Instant};

use common::{ACCESS_KEY, SECRET_KEY, Style, client, start};

/// Binds `addr` again, retrying for up to two seconds while the runtime finishes the
/// cancelled server task.
async fn rebind_within_two_seconds(addr: SocketAddr) -> TcpListener {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        match TcpListener::bind(addr) {
            Ok(listener) => return listener,
            Err(e) if Instant::now() > deadline => panic!("{addr} still bound after drop: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
}

#[tokio::test]
async fn stop_frees_the_port_at_once() {
    let root = tempfile::tempdir().unwrap();
    let server = start(root.path()).await;
    let addr = server.addr();
    let (s3, _) = client(&server, Style::Path, ACCESS_KEY, SECRET_KEY);
    s3.list_buckets().send().await.unwrap();
    server.stop().await;
    TcpListener::bind(addr).expect("port still bound after stop()");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn drop_stops_serving_and_frees_the_port() {
    let root = tempfile::tempdir().unwrap();
    let server = start(root.path()).await;
    let addr = server.addr();
    // A kept-alive connection from a real client must not keep the server alive.
    let (s3, _) = client(&server, Style::Path, ACCESS_KEY, SECRET_KEY);
    s3.list_buckets().send().await.unwrap();
    drop(server);

    let listener = rebind_within_two_seconds(addr).await;
    drop(listener);
    let after = s3.list_buckets().send().await;
    assert!(after.is_err(), "a dropped server still answered");
}
