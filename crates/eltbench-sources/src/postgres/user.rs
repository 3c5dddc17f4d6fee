//! Which operating-system user the server programs run as.
//!
//! `initdb` and `postgres` refuse to run as root. When eltbench runs as root (as it does
//! in containers and CI), the programs run as the `postgres` system user that the Debian
//! `postgresql` package creates, or `nobody` when that user is missing; the run
//! directory is given to that user. Otherwise they run as the current user. This module
//! never changes the privileges of the eltbench process itself.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

use nix::unistd::{Uid, User};

use super::PgError;

/// Preferred accounts to run the server under when eltbench is root.
const CANDIDATES: [&str; 2] = ["postgres", "nobody"];

/// An unprivileged account the server programs switch to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerUser {
    pub name: String,
    pub uid: u32,
    pub gid: u32,
}

impl ServerUser {
    /// `None` when eltbench is not root (programs run as the current user).
    pub fn for_this_process() -> Result<Option<Self>, PgError> {
        if !Uid::effective().is_root() {
            return Ok(None);
        }
        for name in CANDIDATES {
            let found = User::from_name(name).map_err(|e| PgError::User {
                user: name.into(),
                detail: e.to_string(),
            })?;
            if let Some(user) = found {
                return Ok(Some(Self {
                    name: user.name,
                    uid: user.uid.as_raw(),
                    gid: user.gid.as_raw(),
                }));
            }
        }
        Err(PgError::User {
            user: CANDIDATES.join(" or "),
            detail: "no such user; initdb cannot run as root".into(),
        })
    }

    /// Makes `cmd` run as this user (std drops supplementary groups when root).
    pub fn apply(&self, cmd: &mut Command) {
        cmd.uid(self.uid).gid(self.gid);
    }

    /// Gives `path` to this user.
    pub fn own(&self, path: &Path) -> Result<(), PgError> {
        std::os::unix::fs::chown(path, Some(self.uid), Some(self.gid)).map_err(|source| {
            PgError::Chown {
                path: path.into(),
                user: self.name.clone(),
                source,
            }
        })
    }

    /// Fails with a clear message if an ancestor of `dir` cannot be entered by this user.
    pub fn check_searchable(&self, dir: &Path) -> Result<(), PgError> {
        for ancestor in dir.ancestors().skip(1) {
            let Ok(meta) = std::fs::metadata(ancestor) else {
                continue;
            };
            if !self.may_enter(&meta) {
                return Err(PgError::NotSearchable {
                    path: ancestor.into(),
                    user: self.name.clone(),
                });
            }
        }
        Ok(())
    }

    fn may_enter(&self, meta: &std::fs::Metadata) -> bool {
        use std::os::unix::fs::MetadataExt;
        let mode = meta.permissions().mode();
        let bit = if meta.uid() == self.uid {
            0o100
        } else if meta.gid() == self.gid {
            0o010
        } else {
            0o001
        };
        mode & bit != 0
    }
}
