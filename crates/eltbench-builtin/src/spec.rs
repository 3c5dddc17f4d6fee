//! What the generator produces for one task: its tables, each with the source
//! kind that serves it, its columns (name + description) and its rows as text
//! (an empty string is NULL). Plain data; no I/O here.

/// A file format of an S3 object or a flat file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Jsonl,
    Parquet,
}

impl Format {
    /// The extension and `format:` value in `config.yaml`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Jsonl => "jsonl",
            Self::Parquet => "parquet",
        }
    }
}

/// Which source serves a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Postgres,
    Mongodb,
    CustomApi,
    S3(Format),
    FlatFile(Format),
}

/// One source table.
#[derive(Debug, Clone)]
pub struct Table {
    pub name: &'static str,
    pub place: Place,
    /// `(column, description)` in file order.
    pub columns: Vec<(&'static str, &'static str)>,
    /// Rows as text, each as long as `columns`; `""` is NULL.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table with the given columns.
    pub fn new(name: &'static str, place: Place, columns: &[(&'static str, &'static str)]) -> Self {
        Self {
            name,
            place,
            columns: columns.to_vec(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (must be as long as the columns).
    pub fn push(&mut self, row: Vec<String>) {
        debug_assert_eq!(row.len(), self.columns.len(), "table {}", self.name);
        self.rows.push(row);
    }
}

/// One task: its database name and tables.
#[derive(Debug, Clone)]
pub struct TaskSpec {
    pub db: &'static str,
    pub tables: Vec<Table>,
}

/// Builds a row from values that print themselves.
#[macro_export]
macro_rules! row {
    ($($v:expr),* $(,)?) => { vec![$($v.to_string()),*] };
}
