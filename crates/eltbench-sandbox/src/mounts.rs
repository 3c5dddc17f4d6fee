//! The sandbox's file system view as bubblewrap arguments: the system directories
//! read-only, a private size-limited `/tmp`, the spec's read-only and read-write binds, and
//! the hidden paths covered. Pure (no I/O but `symlink_metadata` of the system dirs and
//! the hidden paths), so the plan is unit-tested. Must never bind the host root: anything
//! not listed is invisible.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// System directories shown read-only (or re-created as the same symlink).
const SYSTEM: &[&str] = &[
    "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// Always hidden: password hashes appear owned by the sandbox user (root outside).
pub(crate) const ALWAYS_HIDDEN: &[&str] = &["/etc/shadow", "/etc/gshadow"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mount {
    ReadOnly(PathBuf),
    ReadWrite(PathBuf),
    HideDir(PathBuf),
    HideFile(PathBuf),
}

impl Mount {
    fn path(&self) -> &Path {
        match self {
            Self::ReadOnly(p) | Self::ReadWrite(p) | Self::HideDir(p) | Self::HideFile(p) => p,
        }
    }

    /// Binds before hides at the same depth, so a hidden path inside a bind is covered.
    fn rank(&self) -> (usize, u8) {
        let kind = match self {
            Self::ReadOnly(_) => 0,
            Self::ReadWrite(_) => 1,
            Self::HideDir(_) | Self::HideFile(_) => 2,
        };
        (self.path().components().count(), kind)
    }

    fn args(&self, out: &mut Vec<OsString>) {
        let push = |out: &mut Vec<OsString>, flag: &str, src: &Path, dst: &Path| {
            out.extend([flag.into(), src.into(), dst.into()]);
        };
        match self {
            Self::ReadOnly(p) => push(out, "--ro-bind", p, p),
            Self::ReadWrite(p) => push(out, "--bind", p, p),
            Self::HideFile(p) => push(out, "--ro-bind", Path::new("/dev/null"), p),
            Self::HideDir(p) => {
                out.extend(["--tmpfs".into(), p.into()]);
                out.extend(["--remount-ro".into(), p.into()]);
            }
        }
    }
}

/// Sorts `mounts` parents first (deeper paths override shallower ones) and appends the
/// whole view's bubblewrap arguments.
pub(crate) fn view_args(mut mounts: Vec<Mount>, tmp_bytes: u64) -> Vec<OsString> {
    let mut out: Vec<OsString> = Vec::new();
    for dir in SYSTEM {
        system_dir(Path::new(dir), &mut out);
    }
    out.extend(["--proc", "/proc", "--dev", "/dev"].map(OsString::from));
    out.extend([
        "--size".into(),
        tmp_bytes.to_string().into(),
        "--tmpfs".into(),
        "/tmp".into(),
    ]);
    mounts.sort_by(|a, b| a.rank().cmp(&b.rank()).then_with(|| a.path().cmp(b.path())));
    mounts.dedup();
    for mount in &mounts {
        mount.args(&mut out);
    }
    out
}

/// A hidden path as the mount that covers it, or `None` when it does not exist.
pub(crate) fn hide(path: &Path) -> Option<Mount> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    Some(if meta.is_dir() {
        Mount::HideDir(path.to_path_buf())
    } else {
        Mount::HideFile(path.to_path_buf())
    })
}

fn system_dir(dir: &Path, out: &mut Vec<OsString>) {
    let Ok(meta) = std::fs::symlink_metadata(dir) else {
        return;
    };
    if meta.file_type().is_symlink() {
        if let Ok(target) = std::fs::read_link(dir) {
            out.extend(["--symlink".into(), target.into(), dir.into()]);
        }
    } else if meta.is_dir() {
        out.extend(["--ro-bind".into(), dir.into(), dir.into()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[OsString]) -> Vec<String> {
        args.iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn parents_first_and_hides_after_binds() {
        let mounts = vec![
            Mount::HideDir("/s/suite/gt".into()),
            Mount::ReadWrite("/j/t1/workspace".into()),
            Mount::ReadOnly("/s/suite".into()),
            Mount::HideDir("/j/t1/workspace/secret".into()),
        ];
        let args = strings(&view_args(mounts, 1024));
        let at = |needle: &str| args.iter().position(|a| a == needle).unwrap();
        assert!(at("/s/suite") < at("/s/suite/gt"));
        assert!(at("/j/t1/workspace") < at("/j/t1/workspace/secret"));
        assert_eq!(args[at("/s/suite/gt") - 1], "--tmpfs");
        assert!(args.windows(2).any(|w| w == ["--size", "1024"]));
        assert!(
            !args.windows(3).any(|w| w[1] == "/" && w[2] == "/"),
            "host root bound"
        );
    }

    #[test]
    fn hidden_file_is_covered_with_dev_null() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("key.txt");
        std::fs::write(&file, "k").unwrap();
        let mut args = Vec::new();
        hide(&file).unwrap().args(&mut args);
        assert_eq!(
            strings(&args),
            ["--ro-bind", "/dev/null", &file.to_string_lossy()]
        );
        assert_eq!(hide(&dir.path().join("absent")), None);
    }
}
