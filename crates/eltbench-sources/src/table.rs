//! The canonical table: column names and types plus the rows as the CSV gave them.
//!
//! Rows are kept as text, packed into chunks (one string buffer and one offset per
//! field), so two million rows cost little more than the file itself and every source
//! sees exactly the characters of the CSV. A field is NULL exactly when it is empty
//! (see `csv_read` for why). This module never converts values between types.

use crate::types::ColumnType;

/// Where a column's type came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeOrigin {
    /// Declared in the DDL and every value fits it.
    Ddl,
    /// Inferred from the values (the column is not in the DDL).
    Inferred,
    /// Declared in the DDL, but the value on CSV line `line` does not fit the declared
    /// type, so the column is loaded as text rather than failing the load.
    DdlWidened {
        declared: ColumnType,
        line: u64,
        value: String,
    },
}

/// One column of a canonical table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// The name as the CSV header spells it.
    pub name: String,
    pub ty: ColumnType,
    pub not_null: bool,
    pub origin: TypeOrigin,
    /// The name as the DDL spells it, when the DDL declares the column (it may differ
    /// in case from `name`; a SQL source uses it, folded as an unquoted identifier).
    pub declared_name: Option<String>,
}

/// A canonical source table.
#[derive(Clone, Debug)]
pub struct Table {
    pub name: String,
    pub columns: Vec<Column>,
    /// Primary-key column names (as spelled in `columns`), empty when none.
    pub primary_key: Vec<String>,
    pub rows: Rows,
}

impl Table {
    /// Number of data rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no data rows.
    pub fn is_empty(&self) -> bool {
        self.rows.len() == 0
    }

    /// The index of the column called `name` (exact spelling).
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }
}

/// Largest text buffer of one chunk; keeps `u32` offsets valid.
const CHUNK_BYTES: usize = 64 << 20;
/// Most rows in one chunk.
const CHUNK_ROWS: usize = 16_384;

/// Rows of equal width, stored as packed text.
#[derive(Clone, Debug, Default)]
pub struct Rows {
    width: usize,
    len: usize,
    chunks: Vec<Chunk>,
}

#[derive(Clone, Debug, Default)]
struct Chunk {
    text: String,
    /// End offset in `text` of every field, row after row.
    ends: Vec<u32>,
    /// 1-based source line where each row starts.
    lines: Vec<u64>,
}

impl Rows {
    /// An empty store for rows of `width` fields.
    pub fn new(width: usize) -> Self {
        Self {
            width,
            len: 0,
            chunks: Vec::new(),
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends one row that starts on source line `line`. A row whose field count is
    /// not `width` is refused (nothing is stored) and its field count returned.
    pub fn push<'a>(
        &mut self,
        line: u64,
        fields: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), usize> {
        let width = self.width;
        let chunk = self.writable_chunk();
        let (text_mark, ends_mark) = (chunk.text.len(), chunk.ends.len());
        for field in fields {
            chunk.text.push_str(field);
            chunk.ends.push(chunk.text.len() as u32);
        }
        let found = chunk.ends.len() - ends_mark;
        if found != width {
            chunk.text.truncate(text_mark);
            chunk.ends.truncate(ends_mark);
            return Err(found);
        }
        chunk.lines.push(line);
        self.len += 1;
        Ok(())
    }

    fn writable_chunk(&mut self) -> &mut Chunk {
        let full = self
            .chunks
            .last()
            .is_none_or(|c| c.lines.len() >= CHUNK_ROWS || c.text.len() >= CHUNK_BYTES);
        if full {
            self.chunks.push(Chunk::default());
        }
        let last = self.chunks.len() - 1;
        &mut self.chunks[last]
    }

    /// Rows in file order.
    pub fn iter(&self) -> impl Iterator<Item = Row<'_>> {
        self.chunks.iter().flat_map(move |c| {
            (0..c.lines.len()).map(move |i| Row {
                chunk: c,
                index: i,
                width: self.width,
            })
        })
    }

    /// The row at `index` (0-based), if any.
    pub fn get(&self, index: usize) -> Option<Row<'_>> {
        let mut rest = index;
        for chunk in &self.chunks {
            if rest < chunk.lines.len() {
                return Some(Row {
                    chunk,
                    index: rest,
                    width: self.width,
                });
            }
            rest -= chunk.lines.len();
        }
        None
    }
}

/// A borrowed view of one row.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    chunk: &'a Chunk,
    index: usize,
    width: usize,
}

impl<'a> Row<'a> {
    /// The raw text of field `col` (empty for NULL).
    pub fn raw(&self, col: usize) -> &'a str {
        let pos = self.index * self.width + col;
        let end = self.chunk.ends[pos] as usize;
        let start = if pos == 0 {
            0
        } else {
            self.chunk.ends[pos - 1] as usize
        };
        &self.chunk.text[start..end]
    }

    /// Field `col`, `None` when NULL.
    pub fn get(&self, col: usize) -> Option<&'a str> {
        Some(self.raw(col)).filter(|v| !v.is_empty())
    }

    /// All fields of the row.
    pub fn values(&self) -> impl Iterator<Item = Option<&'a str>> + '_ {
        (0..self.width).map(|c| self.get(c))
    }

    /// The 1-based line of the source file where this row starts.
    pub fn line(&self) -> u64 {
        self.chunk.lines[self.index]
    }
}

#[cfg(test)]
mod tests {
    use super::Rows;

    #[test]
    fn rows_round_trip_across_chunks() {
        let mut rows = Rows::new(2);
        for i in 0..40_000u64 {
            let a = i.to_string();
            rows.push(i + 2, [a.as_str(), if i % 3 == 0 { "" } else { "x\ny" }])
                .unwrap();
        }
        assert_eq!(rows.len(), 40_000);
        let collected: Vec<_> = rows
            .iter()
            .map(|r| (r.raw(0).to_owned(), r.get(1), r.line()))
            .collect();
        assert_eq!(collected[0], ("0".to_owned(), None, 2));
        assert_eq!(collected[39_999], ("39999".to_owned(), None, 40_001));
        assert_eq!(
            collected[39_998],
            ("39998".to_owned(), Some("x\ny"), 40_000)
        );
        let r = rows.get(20_000).unwrap();
        assert_eq!((r.raw(0), r.line()), ("20000", 20_002));
        assert!(rows.get(40_000).is_none());
        assert_eq!(rows.push(1, ["only one"]), Err(1));
        assert_eq!(rows.len(), 40_000);
        assert_eq!(rows.get(39_999).unwrap().raw(0), "39999");
    }
}
