//! The endpoint's lifetime: binds a loopback port, serves s3s over hyper (HTTP/1.1), and
//! stops when its guard is dropped or stopped.
//!
//! The guard owns the listener and every connection task; dropping it must never leave
//! the port bound or a task serving.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use hyper_util::rt::TokioIo;
use s3s::service::{S3Service, S3ServiceBuilder};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::{JoinHandle, JoinSet};

use crate::auth::{Credentials, StaticAuth};
use crate::backend::DiskS3;
use crate::error::S3Error;
use crate::host::{BaseDomains, DEFAULT_BASE_DOMAIN};
use crate::layout::UPLOADS_DIR;

/// Everything the endpoint serves and accepts.
#[derive(Debug, Clone)]
pub struct S3Config {
    /// One directory per bucket; created when missing.
    pub root: PathBuf,
    pub credentials: Credentials,
    /// Reported by GetBucketLocation and HeadBucket; requests signed for any region are
    /// accepted, as LocalStack does.
    pub region: String,
    /// `<bucket>.<base domain>` in the Host header addresses a bucket
    /// (virtual-host style); any other host is path style.
    pub base_domains: Vec<String>,
}

impl S3Config {
    pub fn new(
        root: impl Into<PathBuf>,
        credentials: Credentials,
        region: impl Into<String>,
    ) -> Self {
        Self {
            root: root.into(),
            credentials,
            region: region.into(),
            base_domains: vec![DEFAULT_BASE_DOMAIN.to_owned()],
        }
    }
}

/// A running S3-compatible endpoint; it stops when dropped.
#[derive(Debug)]
pub struct S3Server {
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl S3Server {
    /// Serves `root` on `bind` (use port 0 for a free port) with static credentials and
    /// the default base domain `localhost`.
    pub async fn start(
        bind: SocketAddr,
        root: &Path,
        creds: Credentials,
        region: &str,
    ) -> Result<Self, S3Error> {
        Self::start_with(bind, S3Config::new(root, creds, region)).await
    }

    /// Serves as `config` says on `bind`.
    pub async fn start_with(bind: SocketAddr, config: S3Config) -> Result<Self, S3Error> {
        let service = build_service(&config)?;
        let listener = TcpListener::bind(bind)
            .await
            .map_err(|source| S3Error::Bind { addr: bind, source })?;
        let addr = listener
            .local_addr()
            .map_err(|source| S3Error::Bind { addr: bind, source })?;
        let (tx, rx) = oneshot::channel();
        let task = tokio::spawn(serve(listener, service, rx));
        Ok(Self {
            addr,
            shutdown: Some(tx),
            task: Some(task),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT`, for path-style clients.
    pub fn endpoint_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops serving and waits until the port and every connection are closed.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

fn build_service(config: &S3Config) -> Result<S3Service, S3Error> {
    let root_err = |source| S3Error::Root {
        path: config.root.clone(),
        source,
    };
    std::fs::create_dir_all(config.root.join(UPLOADS_DIR)).map_err(root_err)?;
    let root = config.root.canonicalize().map_err(root_err)?;
    let mut builder = S3ServiceBuilder::new(DiskS3::new(root, config.region.clone()));
    builder.set_auth(StaticAuth(config.credentials.clone()));
    builder.set_host(BaseDomains::new(&config.base_domains)?);
    Ok(builder.build())
}

/// Accepts connections until `shutdown` fires; the connection tasks end with it.
async fn serve(listener: TcpListener, service: S3Service, mut shutdown: oneshot::Receiver<()>) {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => {
                // A failed accept (peer reset, fd limit) affects that connection only.
                if let Ok((stream, _)) = accepted {
                    connections.spawn(serve_connection(stream, service.clone()));
                }
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    connections.shutdown().await;
}

async fn serve_connection(stream: tokio::net::TcpStream, service: S3Service) {
    let _ = stream.set_nodelay(true);
    let conn = hyper::server::conn::http1::Builder::new();
    // A connection error (client gone mid-response) ends that connection only.
    let _ = conn.serve_connection(TokioIo::new(stream), service).await;
}
