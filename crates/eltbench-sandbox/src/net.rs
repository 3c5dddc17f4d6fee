//! Loopback-only networking with a few forwarded ports.
//!
//! A short-lived thread of this process enters a fresh network namespace
//! (`unshare(CLONE_NEWNET)`, which only moves that thread), brings its loopback up with
//! `ip link set lo up`, binds `127.0.0.1:<port>` there for every allowed port and opens the
//! namespace file, then exits. A socket stays in the namespace it was created in, so the
//! listeners keep serving the sandbox's loopback while threads of this process, in the
//! host namespace, accept on them and connect to the real `127.0.0.1:<port>`. The sandbox
//! joins the namespace through `nsenter --net=/proc/<pid>/fd/<fd>`.
//!
//! Nothing of the forwarder runs inside the sandbox, so the agent can neither kill it nor
//! race it at start-up; every other port of its loopback refuses connections and there is
//! no route off the machine. Must never forward to anything but 127.0.0.1.

use std::fs::File;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;

/// Open forwarded connections per port at once (each costs two threads of this process);
/// more are closed on accept, so an agent cannot exhaust the harness's threads.
const MAX_CONNECTIONS: usize = 128;

/// A network namespace holding the forwarded ports' listeners.
#[derive(Debug)]
pub(crate) struct Netns {
    file: File,
    stop: Arc<AtomicBool>,
    listeners: Vec<Arc<TcpListener>>,
    acceptors: Vec<JoinHandle<()>>,
}

impl Netns {
    /// Makes the namespace and starts forwarding `ports`; the error says why not.
    pub fn create(ports: &[u16]) -> Result<Self, String> {
        let ports = ports.to_vec();
        let (file, listeners) = std::thread::spawn(move || enter_and_bind(&ports))
            .join()
            .map_err(|_| "the network namespace thread panicked".to_string())??;
        let stop = Arc::new(AtomicBool::new(false));
        let listeners: Vec<_> = listeners.into_iter().map(Arc::new).collect();
        let acceptors = listeners
            .iter()
            .map(|l| spawn_acceptor(Arc::clone(l), Arc::clone(&stop)))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            file,
            stop,
            listeners,
            acceptors,
        })
    }

    /// The path `nsenter --net=` joins.
    pub fn path(&self) -> PathBuf {
        PathBuf::from(format!(
            "/proc/{}/fd/{}",
            std::process::id(),
            self.file.as_raw_fd()
        ))
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for listener in &self.listeners {
            // Wakes the blocked accept() with an error.
            let _ =
                nix::sys::socket::shutdown(listener.as_raw_fd(), nix::sys::socket::Shutdown::Both);
        }
        for handle in self.acceptors.drain(..) {
            let _ = handle.join();
        }
    }
}

/// Runs on its own thread: moves it into a new network namespace and binds the ports.
fn enter_and_bind(ports: &[u16]) -> Result<(File, Vec<TcpListener>), String> {
    use nix::sched::{CloneFlags, unshare};
    unshare(CloneFlags::CLONE_NEWNET).map_err(|e| format!("unshare(CLONE_NEWNET): {e}"))?;
    loopback_up()?;
    let file = File::open("/proc/thread-self/ns/net")
        .map_err(|e| format!("open /proc/thread-self/ns/net: {e}"))?;
    let listeners = ports
        .iter()
        .map(|&p| {
            TcpListener::bind(("127.0.0.1", p))
                .map_err(|e| format!("bind 127.0.0.1:{p} in the sandbox namespace: {e}"))
        })
        .collect::<Result<_, _>>()?;
    Ok((file, listeners))
}

/// `ip link set lo up`, run from the namespaced thread so the child inherits the namespace.
fn loopback_up() -> Result<(), String> {
    let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .into_iter()
        .find(|p| std::path::Path::new(p).is_file())
        .ok_or("`ip` (Debian package iproute2) not found: run scripts/setup")?;
    let out = Command::new(ip)
        .args(["link", "set", "lo", "up"])
        .env_clear()
        .output()
        .map_err(|e| format!("{ip} link set lo up: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "{ip} link set lo up: {}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr).trim()
    ))
}

fn spawn_acceptor(
    listener: Arc<TcpListener>,
    stop: Arc<AtomicBool>,
) -> Result<JoinHandle<()>, String> {
    let port = listener
        .local_addr()
        .map_err(|e| format!("listener address: {e}"))?
        .port();
    std::thread::Builder::new()
        .name(format!("sandbox-fwd-{port}"))
        .spawn(move || accept_loop(&listener, port, &stop))
        .map_err(|e| format!("spawn forwarder thread for port {port}: {e}"))
}

fn accept_loop(listener: &TcpListener, port: u16, stop: &AtomicBool) {
    let open = Arc::new(AtomicUsize::new(0));
    while !stop.load(Ordering::SeqCst) {
        let Ok((inside, _)) = listener.accept() else {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            continue;
        };
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            continue;
        }
        let counter = Arc::clone(&open);
        let spawned = std::thread::Builder::new()
            .name(format!("sandbox-conn-{port}"))
            .spawn(move || {
                forward(inside, port);
                counter.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            open.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Copies both ways between a sandbox connection and the host's 127.0.0.1:`port`; closes
/// the sandbox side at once when the host port refuses.
fn forward(inside: TcpStream, port: u16) {
    let Ok(outside) = TcpStream::connect(("127.0.0.1", port)) else {
        return;
    };
    let (Ok(inside2), Ok(outside2)) = (inside.try_clone(), outside.try_clone()) else {
        return;
    };
    let up = std::thread::spawn(move || pump(inside2, outside2));
    pump(outside, inside);
    let _ = up.join();
}

fn pump(mut from: TcpStream, mut to: TcpStream) {
    let mut buf = [0u8; 16 * 1024];
    loop {
        match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if to.write_all(&buf[..n]).is_err() {
                    break;
                }
            }
        }
    }
    let _ = to.shutdown(Shutdown::Write);
}
