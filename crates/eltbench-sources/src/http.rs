//! The in-process HTTP endpoints (the REST API and the flat-file server): a fixed table
//! of routes, each serving one body from memory or from a file, and the guard that
//! serves them on a loopback port.
//!
//! Only `GET` and `HEAD` of a listed path answer 200; any other path is a 404 and any
//! other method a 405, both with a JSON body `{"error": ...}`; `GET /` lists the routes.
//! The guard owns its listener and connections: stopping or dropping it frees the port.
//! It never binds anything but 127.0.0.1.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde_json::json;
use tokio::runtime::Handle;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// How long a graceful stop may wait for open connections.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// What one route serves.
#[derive(Clone, Debug)]
pub enum Content {
    Memory(Bytes),
    File(PathBuf),
}

/// One route's body and content type.
#[derive(Clone, Debug)]
pub struct Route {
    pub content_type: &'static str,
    pub content: Content,
}

/// Paths (`/db/table`) and what each serves.
#[derive(Clone, Debug, Default)]
pub struct Routes {
    routes: BTreeMap<String, Route>,
}

impl Routes {
    pub fn insert(&mut self, path: String, route: Route) {
        self.routes.insert(path, route);
    }

    /// The listed paths, sorted.
    pub fn paths(&self) -> Vec<String> {
        self.routes.keys().cloned().collect()
    }

    /// The route of `path`: exact spelling first, then ignoring ASCII case.
    fn find(&self, path: &str) -> Option<&Route> {
        self.routes.get(path).or_else(|| {
            self.routes
                .iter()
                .find(|(p, _)| p.eq_ignore_ascii_case(path))
                .map(|(_, r)| r)
        })
    }

    /// An axum router answering from this table.
    pub fn into_router(self) -> Router {
        Router::new().fallback(answer).with_state(Arc::new(self))
    }
}

async fn answer(State(routes): State<Arc<Routes>>, method: Method, uri: Uri) -> Response {
    let path = uri.path();
    if method != Method::GET && method != Method::HEAD {
        let message = format!("method {method} is not allowed on {path}; use GET");
        return error(StatusCode::METHOD_NOT_ALLOWED, message);
    }
    if path == "/" {
        return axum::Json(json!({ "routes": routes.paths() })).into_response();
    }
    let Some(route) = routes.find(path) else {
        let message = format!("no such route: GET {path} (GET / lists the routes)");
        return error(StatusCode::NOT_FOUND, message);
    };
    let body = match &route.content {
        Content::Memory(bytes) => Body::from(bytes.clone()),
        Content::File(file) => match tokio::fs::read(file).await {
            Ok(bytes) => Body::from(bytes),
            Err(e) => {
                let message = format!("cannot read {}: {e}", file.display());
                return error(StatusCode::INTERNAL_SERVER_ERROR, message);
            }
        },
    };
    ([(header::CONTENT_TYPE, route.content_type)], body).into_response()
}

fn error(status: StatusCode, message: String) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

/// Binds 127.0.0.1:`port` (0 = any free port).
pub fn bind(port: u16) -> std::io::Result<std::net::TcpListener> {
    let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
    listener.set_nonblocking(true)?;
    Ok(listener)
}

/// A running HTTP endpoint; stopping or dropping it closes the port.
#[derive(Debug)]
pub struct HttpServer {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl HttpServer {
    /// Serves `router` on `listener` from the runtime `rt`.
    pub fn serve(
        rt: &Handle,
        listener: std::net::TcpListener,
        router: Router,
    ) -> std::io::Result<Self> {
        let _entered = rt.enter();
        let addr = listener.local_addr()?;
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let (stop, stopped) = oneshot::channel::<()>();
        let task = rt.spawn(async move {
            let shutdown = async move {
                let _ = stopped.await;
            };
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(shutdown)
                .await;
        });
        Ok(Self {
            addr,
            stop: Some(stop),
            task: Some(task),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops accepting, lets open requests finish (up to a grace period), then closes.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(STOP_GRACE, &mut task).await.is_err()
        {
            task.abort();
            let _ = task.await;
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}
