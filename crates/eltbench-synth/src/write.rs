//! Writing one generated table as a canonical CSV: header = the schema
//! file's column order, empty field = NULL, written to a temporary file and
//! renamed so a reader never sees half a table.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use crate::SynthError;
use crate::generate::TableRows;
use crate::plan::TablePlan;

/// Writes `plan`'s rows to `path`; returns the number of rows written.
pub fn write_table(path: &Path, plan: &TablePlan, seed: u64, db: &str) -> Result<u64, SynthError> {
    let partial = partial_path(path);
    let rows = write_csv(&partial, plan, seed, db);
    let rows = rows.and_then(|rows| {
        std::fs::rename(&partial, path).map_err(|e| SynthError::io(path, e))?;
        Ok(rows)
    });
    if rows.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    rows
}

fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

fn write_csv(path: &Path, plan: &TablePlan, seed: u64, db: &str) -> Result<u64, SynthError> {
    let file = File::create(path).map_err(|e| SynthError::io(path, e))?;
    let mut writer = csv::Writer::from_writer(BufWriter::new(file));
    let csv_err = |e| SynthError::csv(path, e);
    writer
        .write_record(plan.columns.iter().map(|c| c.name.as_str()))
        .map_err(csv_err)?;
    let mut rows = TableRows::new(plan, seed, db);
    let mut row = Vec::with_capacity(plan.columns.len());
    let mut written = 0;
    while rows.next_into(&mut row) {
        writer.write_record(&row).map_err(csv_err)?;
        written += 1;
    }
    writer.flush().map_err(|e| SynthError::io(path, e))?;
    Ok(written)
}
