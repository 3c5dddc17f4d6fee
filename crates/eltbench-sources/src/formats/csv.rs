//! The canonical table written back as CSV: the header, then every field exactly as
//! read (quoted only where CSV needs it, NULL as an empty field). Never reformats a value.

use crate::table::Table;

/// The table as CSV bytes.
pub fn write_csv(table: &Table) -> Result<Vec<u8>, csv::Error> {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::with_capacity(table.len() * 64));
    writer.write_record(table.columns.iter().map(|c| c.name.as_str()))?;
    for row in table.rows.iter() {
        writer.write_record((0..table.columns.len()).map(|i| row.raw(i)))?;
    }
    writer
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))
}
