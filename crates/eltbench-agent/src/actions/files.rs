//! CreateFile and EditFile: write a whole file inside the workspace (EditFile
//! replaces the full content, as Spider-Agent's does).
//!
//! Never writes outside the workspace: absolute paths must lie inside it and `..`
//! may not climb out of it.

use std::path::{Component, Path, PathBuf};

/// Creates `filepath` (and its parent folders); refuses when it already exists.
pub(super) async fn create(workspace: &Path, filepath: &str, content: &str) -> String {
    let path = match resolve(workspace, filepath) {
        Ok(path) => path,
        Err(message) => return message,
    };
    if tokio::fs::try_exists(&path).await.unwrap_or(false) {
        return format!(
            "{filepath} already exists; CreateFile only makes new files. Use EditFile to \
             replace its content."
        );
    }
    match write(&path, content).await {
        Ok(bytes) => format!("Created {filepath} ({bytes} bytes)."),
        Err(err) => format!("cannot create {filepath}: {err}"),
    }
}

/// Replaces the content of `filepath`, creating it when missing.
pub(super) async fn edit(workspace: &Path, filepath: &str, content: &str) -> String {
    let path = match resolve(workspace, filepath) {
        Ok(path) => path,
        Err(message) => return message,
    };
    let existed = tokio::fs::try_exists(&path).await.unwrap_or(false);
    match write(&path, content).await {
        Ok(bytes) if existed => format!("Replaced the content of {filepath} ({bytes} bytes)."),
        Ok(bytes) => format!("{filepath} did not exist; created it ({bytes} bytes)."),
        Err(err) => format!("cannot write {filepath}: {err}"),
    }
}

async fn write(path: &Path, content: &str) -> std::io::Result<usize> {
    if let Some(parent) = path.parent() {
        tokio::fs::create_dir_all(parent).await?;
    }
    let mut text = content.to_owned();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    tokio::fs::write(path, &text).await?;
    Ok(text.len())
}

/// The absolute path for `filepath`, or a message saying why it is refused.
pub(super) fn resolve(workspace: &Path, filepath: &str) -> Result<PathBuf, String> {
    let requested = Path::new(filepath.trim());
    if filepath.trim().is_empty() {
        return Err("the filepath is empty".to_owned());
    }
    let relative = if requested.is_absolute() {
        requested
            .strip_prefix(workspace)
            .map_err(|_| outside(filepath, workspace))?
    } else {
        requested
    };
    let mut path = workspace.to_path_buf();
    let mut depth = 0usize;
    for component in relative.components() {
        match component {
            Component::Normal(part) => {
                path.push(part);
                depth += 1;
            }
            Component::CurDir => {}
            Component::ParentDir if depth > 0 => {
                path.pop();
                depth -= 1;
            }
            _ => return Err(outside(filepath, workspace)),
        }
    }
    if depth == 0 {
        return Err(format!(
            "{filepath} names the workspace folder itself, not a file"
        ));
    }
    Ok(path)
}

fn outside(filepath: &str, workspace: &Path) -> String {
    format!(
        "{filepath} is outside the workspace {}; files may only be written inside it",
        workspace.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_inside_the_workspace_only() {
        let ws = Path::new("/w");
        assert_eq!(
            resolve(ws, "elt/main.tf").unwrap(),
            Path::new("/w/elt/main.tf")
        );
        assert_eq!(resolve(ws, "/w/a/../b.sql").unwrap(), Path::new("/w/b.sql"));
        assert!(
            resolve(ws, "../etc/passwd")
                .unwrap_err()
                .contains("outside the workspace")
        );
        assert!(
            resolve(ws, "/etc/passwd")
                .unwrap_err()
                .contains("outside the workspace")
        );
        assert!(resolve(ws, ".").is_err());
        assert!(resolve(ws, " ").is_err());
    }

    #[tokio::test]
    async fn create_refuses_existing_files_and_edit_replaces_them() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path();
        assert_eq!(
            create(ws, "m/a.sql", "select 1").await,
            "Created m/a.sql (9 bytes)."
        );
        assert!(create(ws, "m/a.sql", "x").await.contains("already exists"));
        assert!(
            edit(ws, "m/a.sql", "select 2\n")
                .await
                .starts_with("Replaced")
        );
        assert_eq!(
            std::fs::read_to_string(ws.join("m/a.sql")).unwrap(),
            "select 2\n"
        );
    }
}
