//! Column types inferred from text values: the narrowest of boolean,
//! integer, float, date, timestamp that every non-NULL value parses as,
//! else text. The table below maps each to the PostgreSQL type written to
//! `postgres_ddl.json` and the JSON Schema type written to
//! `rest_api_streams.json`. Never reads files.

use crate::table::RawTable;

/// An inferred column type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ColumnType {
    Boolean,
    Integer,
    Float,
    Date,
    Timestamp,
    Text,
}

/// `type => (PostgreSQL type, JSON Schema type)`.
const TYPE_MAP: [(ColumnType, &str, &str); 6] = [
    (ColumnType::Boolean, "BOOLEAN", "boolean"),
    (ColumnType::Integer, "BIGINT", "number"),
    (ColumnType::Float, "DOUBLE PRECISION", "number"),
    (ColumnType::Date, "DATE", "string"),
    (
        ColumnType::Timestamp,
        "TIMESTAMP WITHOUT TIME ZONE",
        "string",
    ),
    (ColumnType::Text, "TEXT", "string"),
];

impl ColumnType {
    /// The PostgreSQL type name.
    pub fn sql(self) -> &'static str {
        TYPE_MAP
            .iter()
            .find(|(t, _, _)| *t == self)
            .map_or("TEXT", |e| e.1)
    }

    /// The JSON Schema type name.
    pub fn json(self) -> &'static str {
        TYPE_MAP
            .iter()
            .find(|(t, _, _)| *t == self)
            .map_or("string", |e| e.2)
    }

    /// Whether one value parses as this type.
    fn accepts(self, value: &str) -> bool {
        match self {
            Self::Boolean => matches!(
                value,
                "true" | "false" | "TRUE" | "FALSE" | "True" | "False"
            ),
            Self::Integer => value.parse::<i64>().is_ok(),
            Self::Float => value.parse::<f64>().is_ok_and(f64::is_finite),
            Self::Date => is_date(value),
            Self::Timestamp => is_timestamp(value),
            Self::Text => true,
        }
    }
}

/// The type of every column of `table`, in header order.
pub fn infer_types(table: &RawTable) -> Vec<ColumnType> {
    (0..table.header.len())
        .map(|i| infer_column(table.column(i).flatten()))
        .collect()
}

/// The narrowest type every value parses as (all NULL: text).
pub fn infer_column<'a>(values: impl Iterator<Item = &'a str> + Clone) -> ColumnType {
    let candidates = [
        ColumnType::Boolean,
        ColumnType::Integer,
        ColumnType::Float,
        ColumnType::Date,
        ColumnType::Timestamp,
    ];
    if values.clone().next().is_none() {
        return ColumnType::Text;
    }
    candidates
        .into_iter()
        .find(|t| values.clone().all(|v| t.accepts(v)))
        .unwrap_or(ColumnType::Text)
}

/// `YYYY-MM-DD`.
pub(crate) fn is_date(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// `YYYY-MM-DD HH:MM:SS[.fff]` (or `T` between date and time).
pub(crate) fn is_timestamp(value: &str) -> bool {
    if value.len() < 19 || !value.is_char_boundary(10) || !value.is_char_boundary(19) {
        return false;
    }
    let (date, rest) = value.split_at(10);
    let sep_ok = rest.starts_with(' ') || rest.starts_with('T');
    let time = &rest[1..9];
    let tb = time.as_bytes();
    let time_ok = tb[2] == b':'
        && tb[5] == b':'
        && tb
            .iter()
            .enumerate()
            .all(|(i, c)| i == 2 || i == 5 || c.is_ascii_digit());
    let frac = &rest[9..];
    let frac_ok = frac.is_empty()
        || (frac.starts_with('.')
            && frac.len() > 1
            && frac[1..].bytes().all(|c| c.is_ascii_digit()));
    is_date(date) && sep_ok && time_ok && frac_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn infer(values: &[&str]) -> ColumnType {
        infer_column(values.iter().copied())
    }

    #[test]
    fn infers_the_narrowest_type() {
        assert_eq!(infer(&["1", "-2"]), ColumnType::Integer);
        assert_eq!(infer(&["1", "2.5"]), ColumnType::Float);
        assert_eq!(infer(&["true", "false"]), ColumnType::Boolean);
        assert_eq!(infer(&["2024-01-31"]), ColumnType::Date);
        assert_eq!(
            infer(&["2024-01-31 10:00:00", "2024-02-01T11:00:00.5"]),
            ColumnType::Timestamp
        );
        assert_eq!(infer(&["2024-01-31", "x"]), ColumnType::Text);
        assert_eq!(infer(&[]), ColumnType::Text);
        assert_eq!(infer(&["nan"]), ColumnType::Text);
    }

    #[test]
    fn types_map_to_sql_and_json() {
        assert_eq!(ColumnType::Float.sql(), "DOUBLE PRECISION");
        assert_eq!(ColumnType::Integer.json(), "number");
        assert_eq!(ColumnType::Timestamp.json(), "string");
    }
}
