//! The flat-file source: each `flat_files` table written once, in its configured format,
//! under the run directory (`<files>/<db>/<table>.<ext>`), and routed at
//! `/<db>/<table>.<ext>` of the local file server that stands in for the original's
//! remote file host. Serving and the port belong to [`crate::http`]; this module only
//! writes files and routes.

use std::path::{Path, PathBuf};

use eltbench_task::FileFormat;

use crate::formats::{FormatError, content_type, extension, write_table};
use crate::http::{Content, Route, Routes};
use crate::table::Table;

/// Why a flat file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum FilesError {
    #[error(transparent)]
    Format(#[from] FormatError),
    #[error("cannot write flat file {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The route path of a table's file.
pub fn file_path(db: &str, table: &str, format: FileFormat) -> String {
    format!("/{db}/{table}.{}", extension(format))
}

/// Writes `table` as `<dir>/<db>/<table>.<ext>` and routes it; returns the route path.
pub fn add_file(
    routes: &mut Routes,
    dir: &Path,
    db: &str,
    table: &Table,
    format: FileFormat,
) -> Result<String, FilesError> {
    let bytes = write_table(table, format)?;
    let folder = dir.join(db);
    let file = folder.join(format!("{}.{}", table.name, extension(format)));
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| FilesError::Write { path, source }
    };
    std::fs::create_dir_all(&folder).map_err(write_err(&folder))?;
    std::fs::write(&file, bytes).map_err(write_err(&file))?;
    let path = file_path(db, &table.name, format);
    routes.insert(
        path.clone(),
        Route {
            content_type: content_type(format),
            content: Content::File(file),
        },
    );
    Ok(path)
}
