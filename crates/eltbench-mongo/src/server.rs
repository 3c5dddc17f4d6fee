//! The endpoint's lifecycle and connections: [`MongoServer::start`] binds the port and
//! serves it from a dedicated thread with its own Tokio runtime, one task per
//! connection; dropping the handle stops that runtime and joins the thread, so no task,
//! socket or port outlives it. A connection whose bytes cannot be parsed is closed with a
//! log line; nothing a client sends can stop the server.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::thread::JoinHandle;

use tokio::io::{AsyncWriteExt, BufReader, BufWriter};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

use crate::commands;
use crate::cursor::Cursors;
use crate::error::MongoError;
use crate::scram::{self, Credentials, UserKeys};
use crate::store::Store;
use crate::wire::{self, Header, Request};

/// State shared by every connection of one endpoint.
pub struct Shared {
    pub store: Store,
    pub cursors: Cursors,
    pub user: Option<UserKeys>,
    next_connection_id: AtomicI32,
    next_request_id: AtomicI32,
}

/// Per-connection state.
#[derive(Debug, Default)]
pub struct Session {
    pub id: i32,
    pub authenticated: bool,
    pub conversation: Option<Conversation>,
}

/// A SCRAM conversation in progress on one connection.
#[derive(Debug, Clone)]
pub struct Conversation {
    pub scram: scram::Conversation,
    /// The client asked to finish without the final empty exchange.
    pub skip_empty: bool,
    /// The client's proof was verified; waiting for the final empty `saslContinue`.
    pub verified: bool,
}

/// A running endpoint. Dropping it stops the endpoint and frees its port.
#[derive(Debug)]
pub struct MongoServer {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl MongoServer {
    /// Binds `bind` (use port 0 for a free port) and starts serving `store`. With
    /// `auth`, clients must authenticate with SCRAM-SHA-256 or SCRAM-SHA-1 as that user.
    pub async fn start(
        bind: SocketAddr,
        store: Store,
        auth: Option<Credentials>,
    ) -> Result<Self, MongoError> {
        let user = auth.as_ref().map(UserKeys::derive).transpose()?;
        let listener = std::net::TcpListener::bind(bind)
            .map_err(|source| MongoError::Bind { addr: bind, source })?;
        let addr = listener
            .local_addr()
            .map_err(|source| MongoError::Bind { addr: bind, source })?;
        listener
            .set_nonblocking(true)
            .map_err(|source| MongoError::Bind { addr, source })?;
        let shared = Arc::new(Shared {
            store,
            cursors: Cursors::default(),
            user,
            next_connection_id: AtomicI32::new(1),
            next_request_id: AtomicI32::new(1),
        });
        let (stop, stopped) = oneshot::channel();
        let thread = std::thread::Builder::new()
            .name(format!("eltbench-mongo-{}", addr.port()))
            .spawn(move || serve_until_stopped(listener, shared, stopped))
            .map_err(|source| MongoError::Thread { addr, source })?;
        tracing::info!(%addr, "MongoDB endpoint listening");
        Ok(Self {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address the endpoint listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// A connection string for drivers (`directConnection` since this is a standalone).
    pub fn uri(&self) -> String {
        format!("mongodb://{}/?directConnection=true", self.addr)
    }

    /// Stops the endpoint now (the same as dropping it).
    pub fn shutdown(self) {}
}

impl Drop for MongoServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            tracing::error!(addr = %self.addr, "MongoDB endpoint thread panicked");
        }
        tracing::info!(addr = %self.addr, "MongoDB endpoint stopped");
    }
}

/// Body of the endpoint thread: runs the accept loop until told to stop, then drops the
/// runtime, which cancels every connection task and closes every socket.
fn serve_until_stopped(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    stopped: oneshot::Receiver<()>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!("cannot build the MongoDB endpoint runtime: {e}");
            return;
        }
    };
    runtime.block_on(async move {
        let listener = match TcpListener::from_std(listener) {
            Ok(l) => l,
            Err(e) => {
                tracing::error!("cannot register the MongoDB listener: {e}");
                return;
            }
        };
        tokio::select! {
            _ = stopped => {}
            () = accept_loop(&listener, shared) => {}
        }
    });
}

async fn accept_loop(listener: &TcpListener, shared: Arc<Shared>) {
    loop {
        match listener.accept().await {
            Ok((socket, peer)) => {
                tokio::spawn(serve_connection(socket, peer, Arc::clone(&shared)));
            }
            Err(e) => {
                tracing::warn!("MongoDB endpoint accept failed: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
    }
}

async fn serve_connection(socket: TcpStream, peer: SocketAddr, shared: Arc<Shared>) {
    let _ = socket.set_nodelay(true);
    let (reader, writer) = socket.into_split();
    let (mut reader, mut writer) = (BufReader::new(reader), BufWriter::new(writer));
    let mut session = Session {
        id: shared.next_connection_id.fetch_add(1, Ordering::Relaxed),
        ..Session::default()
    };
    loop {
        let (header, request) = match wire::read_message(&mut reader).await {
            Ok(Some(message)) => message,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(%peer, "closing MongoDB connection: {e}");
                return;
            }
        };
        let Some(reply) = answer(&shared, &mut session, header, request) else {
            continue;
        };
        if let Err(e) = write_reply(&mut writer, &reply).await {
            tracing::debug!(%peer, "MongoDB client went away: {e}");
            return;
        }
    }
}

/// The encoded reply to one request (`None` when the client asked for none).
fn answer(
    shared: &Shared,
    session: &mut Session,
    header: Header,
    request: Request,
) -> Option<Vec<u8>> {
    let request_id = shared.next_request_id.fetch_add(1, Ordering::Relaxed);
    match request {
        Request::Msg(msg) => {
            let silent = msg.more_to_come();
            let reply = commands::run(shared, session, &msg.body, msg.sequences, "admin");
            (!silent).then(|| wire::encode_msg(request_id, header.request_id, &reply))
        }
        Request::Query(query) => {
            let db = query
                .full_collection_name
                .split('.')
                .next()
                .unwrap_or("admin")
                .to_owned();
            let reply = commands::run(shared, session, &query.query, Vec::new(), &db);
            Some(wire::encode_reply(request_id, header.request_id, &reply))
        }
    }
}

async fn write_reply<W: AsyncWriteExt + Unpin>(
    writer: &mut W,
    reply: &[u8],
) -> std::io::Result<()> {
    writer.write_all(reply).await?;
    writer.flush().await
}
