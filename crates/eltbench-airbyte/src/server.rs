//! The server guard: binds, serves on its own thread and tokio runtime, and stops on
//! drop (running jobs are cancelled, the port is released before `drop` returns).
//!
//! Owning the runtime keeps the guard usable from sync and async callers alike and
//! makes shutdown deterministic. This module must never handle a request itself.

use std::net::{SocketAddr, TcpListener as StdListener};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use axum::ServiceExt;
use axum::extract::Request;
use tokio::sync::oneshot;
use tower::Layer as _;

use crate::config::AirbyteConfig;
use crate::enums::DataResidency;
use crate::errors::Error;
use crate::model::{Job, Workspace};
use crate::routes::{self, App};
use crate::store::{State, Store};

/// A running Airbyte API server; dropping it stops the server.
pub struct AirbyteServer {
    addr: SocketAddr,
    store: Store,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl AirbyteServer {
    /// Binds `bind` (use port 0 for a free port) and starts serving.
    pub fn start(bind: SocketAddr, config: AirbyteConfig) -> Result<Self, Error> {
        let bind_error = |source| Error::Bind {
            addr: bind.to_string(),
            source,
        };
        let listener = StdListener::bind(bind).map_err(bind_error)?;
        listener.set_nonblocking(true).map_err(bind_error)?;
        let addr = listener.local_addr().map_err(bind_error)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("airbyte-api")
            .enable_all()
            .build()
            .map_err(Error::Runtime)?;
        let store = Store::new(initial_state(&config), config.state_file.clone());
        let app = Arc::new(App {
            store: store.clone(),
            config,
        });
        let (shutdown, signal) = oneshot::channel();
        let thread = std::thread::Builder::new()
            .name(format!("airbyte-api-{}", addr.port()))
            .spawn(move || serve(runtime, listener, app, signal))
            .map_err(Error::Runtime)?;
        Ok(Self {
            addr,
            store,
            shutdown: Some(shutdown),
            thread: Some(thread),
        })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://<addr>/api/public/v1`, the provider's `server_url` (no trailing slash).
    pub fn base_url(&self) -> String {
        format!("http://{}/api/public/v1", self.addr)
    }

    /// A copy of the whole state (what `state.json` holds).
    pub fn state(&self) -> State {
        self.store.read(State::clone)
    }

    /// One job with its attempts and log.
    pub fn job(&self, id: i64) -> Option<Job> {
        self.store.read(|state| state.jobs.get(&id).cloned())
    }

    /// The last `state.json` write failure, if the last write failed.
    pub fn snapshot_error(&self) -> Option<String> {
        self.store.snapshot_error()
    }
}

fn initial_state(config: &AirbyteConfig) -> State {
    State::new(Workspace {
        workspace_id: config.workspace_id.clone(),
        name: config.workspace_name.clone(),
        data_residency: DataResidency::Auto,
    })
}

fn serve(
    runtime: tokio::runtime::Runtime,
    listener: StdListener,
    app: Arc<App>,
    signal: oneshot::Receiver<()>,
) {
    let store = app.store.clone();
    runtime.block_on(async move {
        let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
            return;
        };
        let router = routes::router(app);
        let service = axum::middleware::from_fn(routes::normalize_path).layer(router);
        let make_service = ServiceExt::<Request>::into_make_service(service);
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let server = axum::serve(listener, make_service).with_graceful_shutdown(async move {
            let mut stop_rx = stop_rx;
            let _ = stop_rx.wait_for(|stop| *stop).await;
        });
        let mut server = std::pin::pin!(server.into_future());
        tokio::select! {
            _ = &mut server => return,
            _ = signal => {}
        }
        store.cancel_all();
        let _ = stop_tx.send(true);
        let _ = tokio::time::timeout(Duration::from_secs(2), server).await;
    });
    runtime.shutdown_timeout(Duration::from_secs(1));
}

impl Drop for AirbyteServer {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for AirbyteServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AirbyteServer")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}
