//! The PostgreSQL cluster starting on a thread of its own (`initdb` and the server
//! start take a second or two) while the in-process sources come up. The handle owns
//! the outcome: dropping it without waiting still joins the thread and stops the
//! cluster, so a start that fails elsewhere leaves no server behind.

use std::path::PathBuf;
use std::thread::JoinHandle;

use super::EnvError;
use crate::postgres::{PgCluster, PgClusterOptions};

/// A cluster being started.
#[derive(Debug)]
pub struct PendingPg {
    thread: Option<JoinHandle<Result<PgCluster, crate::PgError>>>,
}

impl PendingPg {
    /// Starts `initdb` + the server in `run_dir` on a new thread.
    pub fn spawn(run_dir: PathBuf, port: Option<u16>) -> Result<Self, EnvError> {
        let options = PgClusterOptions {
            port,
            ..PgClusterOptions::default()
        };
        let thread = std::thread::Builder::new()
            .name("eltbench-pg-start".into())
            .spawn(move || PgCluster::start(&run_dir, options))
            .map_err(|e| EnvError::Thread(e.to_string()))?;
        Ok(Self {
            thread: Some(thread),
        })
    }

    /// Waits for the cluster.
    pub fn wait(mut self) -> Result<PgCluster, EnvError> {
        let thread = self
            .thread
            .take()
            .ok_or_else(|| EnvError::Thread("already joined".into()))?;
        match thread.join() {
            Ok(result) => Ok(result?),
            Err(_) => Err(EnvError::Thread("the thread panicked".into())),
        }
    }
}

impl Drop for PendingPg {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            // Dropping the joined cluster stops it.
            let _ = thread.join();
        }
    }
}
