use std::path::PathBuf;

/// What went wrong talking to the warehouse. Every variant names the file or
/// relation involved.
#[derive(Debug, thiserror::Error)]
pub enum WarehouseError {
    /// The database file could not be opened or attached.
    #[error("cannot open warehouse {path}: {message}")]
    Open {
        /// The database file.
        path: PathBuf,
        /// The backend's message.
        message: String,
    },
    /// The database file does not exist (read-only opens never create one).
    #[error("warehouse file {0} does not exist")]
    Missing(PathBuf),
    /// A query failed.
    #[error("query on {relation} failed: {message}")]
    Query {
        /// The relation or statement involved.
        relation: String,
        /// The backend's message.
        message: String,
    },
    /// An `ORDER BY` column is not in the relation.
    #[error("{relation} has no column {column:?} to order by (columns: {available})")]
    NoSuchColumn {
        /// The relation.
        relation: String,
        /// The missing column.
        column: String,
        /// The columns it does have, comma-separated.
        available: String,
    },
}
