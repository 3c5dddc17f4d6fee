//! Ctrl-C and SIGTERM for a running job: the first signal asks every
//! running trial to stop (their runners get the grace period to stop agents
//! and services); a second one stops waiting and drops the trials at once.
//!
//! Once a job has listened for signals, they stay routed to tokio for the
//! life of the process (tokio never restores the default action): the
//! caller is expected to exit after the job, with [`crate::JobSummary::exit_code`].

use tokio::signal::unix::{SignalKind, signal};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::HarnessError;

/// The exit code of an interrupted job (128 + SIGINT), as shells expect.
pub const INTERRUPTED_EXIT_CODE: u8 = 130;

/// A request to stop a job: first gracefully, then (if repeated) at once.
#[derive(Debug, Clone, Default)]
pub struct Interrupt {
    requested: CancellationToken,
    forced: CancellationToken,
}

impl Interrupt {
    /// An interrupt nobody has requested yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Requests a graceful stop; a second request forces it.
    pub fn request(&self) {
        if self.requested.is_cancelled() {
            self.forced.cancel();
        } else {
            self.requested.cancel();
        }
    }

    /// Fires on the first request.
    pub fn requested(&self) -> &CancellationToken {
        &self.requested
    }

    /// Fires on the second request.
    pub fn forced(&self) -> &CancellationToken {
        &self.forced
    }
}

/// Turns SIGINT and SIGTERM into requests on an [`Interrupt`] while alive.
#[derive(Debug)]
pub struct SignalListener {
    task: JoinHandle<()>,
}

impl SignalListener {
    /// Starts listening (inside a tokio runtime).
    pub fn start(interrupt: Interrupt) -> Result<Self, HarnessError> {
        let io = |e| HarnessError::Task(format!("cannot listen for signals: {e}"));
        let mut int = signal(SignalKind::interrupt()).map_err(io)?;
        let mut term = signal(SignalKind::terminate()).map_err(io)?;
        let task = tokio::spawn(async move {
            loop {
                tokio::select! {
                    Some(()) = int.recv() => interrupt.request(),
                    Some(()) = term.recv() => interrupt.request(),
                    else => break,
                }
            }
        });
        Ok(Self { task })
    }
}

impl Drop for SignalListener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_request_forces() {
        let i = Interrupt::new();
        assert!(!i.requested().is_cancelled());
        i.request();
        assert!(i.requested().is_cancelled() && !i.forced().is_cancelled());
        i.clone().request();
        assert!(i.forced().is_cancelled());
    }
}
