//! The endpoint's lifecycle and robustness, over raw sockets: dropping the handle frees
//! the port at once; malformed or oversized messages close only their own connection;
//! the legacy OP_QUERY handshake is answered with an OP_REPLY.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::server;
use eltbench_mongo::Store;
use eltbench_mongo::bson::{Document, doc};

fn frame(request_id: i32, op_code: i32, body: &[u8]) -> Vec<u8> {
    let mut out = i32::try_from(16 + body.len())
        .unwrap()
        .to_le_bytes()
        .to_vec();
    out.extend(request_id.to_le_bytes());
    out.extend(0i32.to_le_bytes());
    out.extend(op_code.to_le_bytes());
    out.extend(body);
    out
}

fn op_msg(command: &Document) -> Vec<u8> {
    let mut body = 0u32.to_le_bytes().to_vec();
    body.push(0);
    body.extend(eltbench_mongo::bson::to_vec(command).unwrap());
    frame(7, 2013, &body)
}

/// Reads one reply; returns (opcode, responseTo, the reply's first document).
fn read_reply(stream: &mut TcpStream) -> (i32, i32, Document) {
    let mut head = [0u8; 16];
    stream.read_exact(&mut head).unwrap();
    let word = |i: usize| i32::from_le_bytes(head[i..i + 4].try_into().unwrap());
    let mut body = vec![0u8; usize::try_from(word(0)).unwrap() - 16];
    stream.read_exact(&mut body).unwrap();
    let doc_start = if word(12) == 1 { 20 } else { 5 };
    (
        word(12),
        word(8),
        Document::from_reader(&body[doc_start..]).unwrap(),
    )
}

fn connect(addr: std::net::SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
}

/// True when the server closed the connection (EOF or reset) instead of answering.
fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut buf = [0u8; 1];
    matches!(stream.read(&mut buf), Ok(0) | Err(_))
}

#[tokio::test]
async fn dropping_the_server_frees_its_port() {
    let server = server(Store::new(), None).await;
    let addr = server.addr();
    let mut client = connect(addr);
    client
        .write_all(&op_msg(&doc! {"ping": 1, "$db": "admin"}))
        .unwrap();
    assert_eq!(read_reply(&mut client).2.get_f64("ok").unwrap(), 1.0);
    drop(server);
    assert!(closed_by_server(&mut client), "open connections are closed");
    std::net::TcpListener::bind(addr).expect("the port is free right after drop");
}

#[tokio::test]
async fn legacy_op_query_handshake_gets_op_reply() {
    let server = server(Store::new(), None).await;
    let mut stream = connect(server.addr());
    let mut body = 0u32.to_le_bytes().to_vec();
    body.extend(b"admin.$cmd\0");
    body.extend(0i32.to_le_bytes());
    body.extend((-1i32).to_le_bytes());
    body.extend(eltbench_mongo::bson::to_vec(&doc! {"isMaster": 1, "helloOk": true}).unwrap());
    stream.write_all(&frame(42, 2004, &body)).unwrap();
    let (op_code, response_to, reply) = read_reply(&mut stream);
    assert_eq!((op_code, response_to), (1, 42));
    assert!(reply.get_bool("ismaster").unwrap());
    assert!(reply.get_bool("helloOk").unwrap());
    assert_eq!(
        reply.get_i32("maxWireVersion").unwrap(),
        eltbench_mongo::MAX_WIRE_VERSION
    );
}

#[tokio::test]
async fn malformed_messages_close_only_their_connection() {
    let server = server(Store::new(), None).await;
    let garbage: [Vec<u8>; 4] = [
        frame(1, 2013, &[0, 0, 0, 0, 0, 200, 0, 0, 0, 1, 2]), // document length past the end
        frame(1, 9999, &[0; 8]),                              // unknown opcode
        (i32::MAX)
            .to_le_bytes()
            .iter()
            .copied()
            .chain([0; 12])
            .collect(), // absurd length
        frame(1, 2013, &[0, 0, 0, 0, 7]),                     // unknown section kind
    ];
    for bytes in garbage {
        let mut bad = connect(server.addr());
        bad.write_all(&bytes).unwrap();
        assert!(closed_by_server(&mut bad), "closed after {bytes:?}");
    }
    let mut good = connect(server.addr());
    good.write_all(&op_msg(&doc! {"frobnicate": 1, "$db": "x"}))
        .unwrap();
    let reply = read_reply(&mut good).2;
    assert_eq!(reply.get_i32("code").unwrap(), 59);
    good.write_all(&op_msg(&doc! {"ping": 1, "$db": "admin"}))
        .unwrap();
    assert_eq!(read_reply(&mut good).2.get_f64("ok").unwrap(), 1.0);
}

#[tokio::test]
async fn binding_a_taken_port_is_an_error() {
    let first = server(Store::new(), None).await;
    let err = eltbench_mongo::MongoServer::start(first.addr(), Store::new(), None)
        .await
        .unwrap_err();
    assert!(err.to_string().contains(&first.addr().to_string()), "{err}");
}
