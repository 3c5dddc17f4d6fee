//! [`DbtToolchain`]: the virtualenv with dbt-core 1.11, dbt-duckdb and DuckDB
//! 1.5.5 under eltbench's home, created once and shared by every trial.
//!
//! A complete virtualenv carries a marker file with the versions verified at
//! install time; [`DbtToolchain::ensure`] trusts it (a fast path that runs no
//! process). Without a marker, the install runs under a lock file, so two
//! processes racing on one home install once; an incomplete virtualenv (no
//! marker) is removed and created again. Must never modify a complete one.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::install::{Installer, PipInstaller};
use crate::lock::lock_exclusive;
use crate::{DBT_CORE_SERIES, DUCKDB_VERSION, DbtError, VENV_NAME};

/// Receives one line per install step ("installing dbt-core 1.11 ...").
pub type Progress<'a> = &'a mut dyn FnMut(&str);

/// The marker file inside a complete virtualenv.
const MARKER: &str = "eltbench-toolchain.json";

/// The versions verified when the virtualenv was built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Versions {
    pub dbt_core: String,
    pub dbt_duckdb: String,
    pub duckdb: String,
    pub python: String,
}

impl Versions {
    /// Whether these are the pinned versions (dbt-core and dbt-duckdb 1.11.x, DuckDB 1.5.5).
    pub(crate) fn check(&self, venv: &Path) -> Result<(), DbtError> {
        let series = format!("{DBT_CORE_SERIES}.");
        let wrong = |what, found: &str, expected: String| DbtError::WrongVersion {
            venv: venv.to_path_buf(),
            what,
            found: found.to_owned(),
            expected,
        };
        if !self.dbt_core.starts_with(&series) {
            return Err(wrong("dbt-core", &self.dbt_core, format!("{series}x")));
        }
        if !self.dbt_duckdb.starts_with(&series) {
            return Err(wrong("dbt-duckdb", &self.dbt_duckdb, format!("{series}x")));
        }
        if self.duckdb != DUCKDB_VERSION {
            return Err(wrong("duckdb", &self.duckdb, DUCKDB_VERSION.to_owned()));
        }
        Ok(())
    }
}

/// A complete dbt virtualenv.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DbtToolchain {
    venv: PathBuf,
    versions: Versions,
}

impl DbtToolchain {
    /// The toolchain under `home`, installed first if needed (about a minute),
    /// with progress lines on stderr.
    pub fn ensure(home: &Path) -> Result<Self, DbtError> {
        #[allow(clippy::print_stderr)]
        let mut progress = |line: &str| eprintln!("{line}");
        Self::ensure_with(home, &mut progress)
    }

    /// Like [`DbtToolchain::ensure`], with progress lines sent to `progress`.
    pub fn ensure_with(home: &Path, progress: Progress<'_>) -> Result<Self, DbtError> {
        ensure_using(home, &PipInstaller::default(), progress)
    }

    /// The toolchain under `home` if it is complete; never installs.
    pub fn find(home: &Path) -> Option<Self> {
        ready(&home.join(VENV_NAME))
    }

    /// The virtualenv directory (`<home>/dbt-1.11-duckdb-1.5.5`).
    pub fn venv_dir(&self) -> &Path {
        &self.venv
    }

    /// `<venv>/bin`: put it first on an agent's PATH to give it `dbt` and `python`.
    pub fn bin_dir(&self) -> PathBuf {
        self.venv.join("bin")
    }

    /// The `dbt` executable.
    pub fn dbt_bin(&self) -> PathBuf {
        self.bin_dir().join("dbt")
    }

    /// The virtualenv's Python (it imports `duckdb` 1.5.5).
    pub fn python_bin(&self) -> PathBuf {
        self.bin_dir().join("python")
    }

    /// The installed dbt-core version (`1.11.x`).
    pub fn dbt_core_version(&self) -> &str {
        &self.versions.dbt_core
    }

    /// The installed dbt-duckdb version (`1.11.x`).
    pub fn dbt_duckdb_version(&self) -> &str {
        &self.versions.dbt_duckdb
    }

    /// The Python package duckdb's version (always [`DUCKDB_VERSION`]).
    pub fn duckdb_version(&self) -> &str {
        &self.versions.duckdb
    }

    /// The virtualenv's Python version.
    pub fn python_version(&self) -> &str {
        &self.versions.python
    }

    /// Environment for a process that should find this dbt: `PATH` with
    /// [`Self::bin_dir`] first (after `base_path`), `VIRTUAL_ENV`, and dbt's
    /// anonymous usage statistics off (no network call on every command).
    pub fn env(&self, base_path: Option<OsString>) -> BTreeMap<String, OsString> {
        let mut dirs = vec![self.bin_dir()];
        if let Some(base) = &base_path {
            dirs.extend(std::env::split_paths(base));
        }
        let path = std::env::join_paths(dirs).unwrap_or_else(|_| self.bin_dir().into());
        BTreeMap::from([
            ("DBT_SEND_ANONYMOUS_USAGE_STATS".to_owned(), "false".into()),
            ("PATH".to_owned(), path),
            ("VIRTUAL_ENV".to_owned(), self.venv.clone().into_os_string()),
        ])
    }
}

/// A toolchain over an arbitrary directory, for unit tests with fake executables.
#[cfg(test)]
pub(crate) fn for_test(venv: &Path) -> DbtToolchain {
    DbtToolchain {
        venv: venv.to_path_buf(),
        versions: Versions {
            dbt_core: "1.11.0".into(),
            dbt_duckdb: "1.11.0".into(),
            duckdb: DUCKDB_VERSION.into(),
            python: "3".into(),
        },
    }
}

/// The toolchain in `venv` if its marker names the pinned versions and the
/// executables exist.
fn ready(venv: &Path) -> Option<DbtToolchain> {
    let text = std::fs::read_to_string(venv.join(MARKER)).ok()?;
    let versions: Versions = serde_json::from_str(&text).ok()?;
    versions.check(venv).ok()?;
    let toolchain = DbtToolchain {
        venv: venv.to_path_buf(),
        versions,
    };
    let complete = toolchain.dbt_bin().is_file() && toolchain.python_bin().exists();
    complete.then_some(toolchain)
}

/// `ensure` with the install step supplied (tests use a fake).
pub(crate) fn ensure_using(
    home: &Path,
    installer: &dyn Installer,
    progress: Progress<'_>,
) -> Result<DbtToolchain, DbtError> {
    let venv = home.join(VENV_NAME);
    if let Some(toolchain) = ready(&venv) {
        return Ok(toolchain);
    }
    std::fs::create_dir_all(home).map_err(DbtError::io("cannot create", home))?;
    let _lock = lock_exclusive(&home.join(format!("{VENV_NAME}.lock")))?;
    if let Some(toolchain) = ready(&venv) {
        return Ok(toolchain);
    }
    install_fresh(&venv, installer, progress)
}

fn install_fresh(
    venv: &Path,
    installer: &dyn Installer,
    progress: Progress<'_>,
) -> Result<DbtToolchain, DbtError> {
    if venv.exists() {
        progress(&format!(
            "removing the incomplete virtualenv {}",
            venv.display()
        ));
        std::fs::remove_dir_all(venv).map_err(DbtError::io("cannot remove", venv))?;
    }
    progress(&format!(
        "installing dbt-core {DBT_CORE_SERIES} + dbt-duckdb into {} (about a minute)",
        venv.display()
    ));
    let started = Instant::now();
    let versions = installer.install(venv, progress)?;
    versions.check(venv)?;
    write_marker(venv, &versions)?;
    progress(&format!(
        "installed dbt-core {}, dbt-duckdb {}, duckdb {} (Python {}) in {:.0} s",
        versions.dbt_core,
        versions.dbt_duckdb,
        versions.duckdb,
        versions.python,
        started.elapsed().as_secs_f64()
    ));
    ready(venv).ok_or_else(|| DbtError::Install {
        step: "checking the new virtualenv".to_owned(),
        code: "-".to_owned(),
        venv: venv.to_path_buf(),
        stderr_tail: format!(
            "{} or {} is missing",
            MARKER,
            venv.join("bin/dbt").display()
        ),
    })
}

/// Writes the marker atomically (temporary file, then rename).
fn write_marker(venv: &Path, versions: &Versions) -> Result<(), DbtError> {
    let path = venv.join(MARKER);
    let temp = venv.join(format!("{MARKER}.tmp"));
    let text = serde_json::to_string_pretty(versions).unwrap_or_default();
    std::fs::write(&temp, text).map_err(DbtError::io("cannot write", &temp))?;
    std::fs::rename(&temp, &path).map_err(DbtError::io("cannot write", &path))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    /// Creates the executables a virtualenv has and counts its calls.
    #[derive(Default)]
    struct FakeInstaller {
        calls: AtomicUsize,
        duckdb: &'static str,
    }

    impl Installer for FakeInstaller {
        fn install(&self, venv: &Path, _: Progress<'_>) -> Result<Versions, DbtError> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(100));
            std::fs::create_dir_all(venv.join("bin")).unwrap();
            std::fs::write(venv.join("bin/dbt"), "").unwrap();
            std::fs::write(venv.join("bin/python"), "").unwrap();
            Ok(Versions {
                dbt_core: "1.11.16".into(),
                dbt_duckdb: "1.11.1".into(),
                duckdb: self.duckdb.into(),
                python: "3.11.7".into(),
            })
        }
    }

    fn fake(duckdb: &'static str) -> FakeInstaller {
        FakeInstaller {
            calls: AtomicUsize::new(0),
            duckdb,
        }
    }

    #[test]
    fn racing_callers_install_once() {
        let home = tempfile::tempdir().unwrap();
        let installer = fake("1.5.5");
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| ensure_using(home.path(), &installer, &mut |_| {}).unwrap());
            }
        });
        assert_eq!(installer.calls.load(Ordering::SeqCst), 1);
        let found = DbtToolchain::find(home.path()).unwrap();
        assert_eq!(found.duckdb_version(), "1.5.5");
        assert_eq!(found.dbt_bin(), home.path().join(VENV_NAME).join("bin/dbt"));
    }

    #[test]
    fn incomplete_virtualenv_is_rebuilt() {
        let home = tempfile::tempdir().unwrap();
        let venv = home.path().join(VENV_NAME);
        std::fs::create_dir_all(venv.join("lib/leftover")).unwrap();
        let installer = fake("1.5.5");
        let mut lines = Vec::new();
        ensure_using(home.path(), &installer, &mut |l| lines.push(l.to_owned())).unwrap();
        assert!(!venv.join("lib/leftover").exists());
        assert!(
            lines[0].starts_with("removing the incomplete virtualenv"),
            "{lines:?}"
        );
        assert!(lines[1].contains("(about a minute)"), "{lines:?}");
        assert!(
            lines[2].starts_with("installed dbt-core 1.11.16"),
            "{lines:?}"
        );
    }

    #[test]
    fn wrong_duckdb_is_an_error_and_leaves_no_marker() {
        let home = tempfile::tempdir().unwrap();
        let err = ensure_using(home.path(), &fake("1.4.0"), &mut |_| {}).unwrap_err();
        assert!(
            err.to_string().contains("duckdb 1.4.0, expected 1.5.5"),
            "{err}"
        );
        assert!(DbtToolchain::find(home.path()).is_none());
    }

    #[test]
    fn env_puts_the_venv_first_on_path() {
        let home = tempfile::tempdir().unwrap();
        let t = ensure_using(home.path(), &fake("1.5.5"), &mut |_| {}).unwrap();
        let env = t.env(Some("/usr/bin:/bin".into()));
        let path = env["PATH"].to_string_lossy().into_owned();
        assert_eq!(path, format!("{}:/usr/bin:/bin", t.bin_dir().display()));
        assert_eq!(env["DBT_SEND_ANONYMOUS_USAGE_STATS"], "false");
    }
}
