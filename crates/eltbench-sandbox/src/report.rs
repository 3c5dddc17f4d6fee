//! How far the sandbox was really made, for the trial record. Must never claim isolation
//! that was not set up: every degraded feature is listed in `warnings`.

use serde::Serialize;

/// Which isolation the agent ran under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Mode {
    /// bubblewrap: user, mount, pid, ipc, uts and network namespaces; no capabilities.
    Bubblewrap,
    /// No isolation of files, processes or network (limits may still apply).
    None { reason: String },
}

impl Mode {
    /// `bubblewrap`, or `none: <reason>`, as the trial record's `sandbox_mode`.
    pub fn label(&self) -> String {
        match self {
            Self::Bubblewrap => "bubblewrap".to_owned(),
            Self::None { reason } => format!("none: {reason}"),
        }
    }
}

/// What the trial record shows about the sandbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sandboxed {
    pub mode: Mode,
    /// Features that could not be set up (e.g. "memory cgroup unavailable: ..."), sorted.
    pub warnings: Vec<String>,
}

impl Sandboxed {
    /// True when the agent ran under bubblewrap with every feature in place.
    pub fn is_complete(&self) -> bool {
        self.mode == Mode::Bubblewrap && self.warnings.is_empty()
    }
}
