//! Column types of canonical tables: parsing the SQL type names found in
//! `postgres_ddl.json`, printing them for `CREATE TABLE`, and checking whether a
//! textual value is acceptable input for a type.
//!
//! The acceptance checks are deliberately no looser than PostgreSQL's input functions,
//! so that a value accepted here loads; they never convert values (the textual form
//! from the CSV is what every source receives).

use std::fmt;

/// The type of one column of a canonical table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    Boolean,
    SmallInt,
    Integer,
    BigInt,
    Real,
    Double,
    /// `numeric` / `decimal`, optionally with `(precision, scale)`.
    Numeric(Option<(u32, u32)>),
    Date,
    /// `timestamp without time zone`.
    Timestamp,
    Text,
    Varchar(Option<u32>),
    Char(u32),
}

/// A SQL type name this crate does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown SQL column type `{0}`")]
pub struct UnknownType(pub String);

/// Constraint words that may trail a type name in the DDL (`INTEGER UNIQUE`).
const TRAILING_CONSTRAINTS: [&str; 4] = [" UNIQUE", " PRIMARY KEY", " NOT NULL", " NULL"];

/// Plain type names (no parameters) and the type each one means.
const NAMED_TYPES: &[(&str, ColumnType)] = &[
    ("BOOLEAN", ColumnType::Boolean),
    ("BOOL", ColumnType::Boolean),
    ("SMALLINT", ColumnType::SmallInt),
    ("INT2", ColumnType::SmallInt),
    ("INTEGER", ColumnType::Integer),
    ("INT", ColumnType::Integer),
    ("INT4", ColumnType::Integer),
    ("SERIAL", ColumnType::Integer),
    ("BIGINT", ColumnType::BigInt),
    ("INT8", ColumnType::BigInt),
    ("BIGSERIAL", ColumnType::BigInt),
    ("REAL", ColumnType::Real),
    ("FLOAT4", ColumnType::Real),
    ("DOUBLE PRECISION", ColumnType::Double),
    ("FLOAT", ColumnType::Double),
    ("FLOAT8", ColumnType::Double),
    ("NUMERIC", ColumnType::Numeric(None)),
    ("DECIMAL", ColumnType::Numeric(None)),
    ("DATE", ColumnType::Date),
    ("TIMESTAMP", ColumnType::Timestamp),
    ("TIMESTAMP WITHOUT TIME ZONE", ColumnType::Timestamp),
    ("TEXT", ColumnType::Text),
    ("VARCHAR", ColumnType::Varchar(None)),
    ("CHARACTER VARYING", ColumnType::Varchar(None)),
    ("CHAR", ColumnType::Char(1)),
    ("CHARACTER", ColumnType::Char(1)),
];

impl ColumnType {
    /// Parses a SQL type name as written in a DDL (`DECIMAL(15, 2)`, `Float`,
    /// `INTEGER UNIQUE`, `timestamp without time zone`).
    pub fn parse_sql(raw: &str) -> Result<Self, UnknownType> {
        let unknown = || UnknownType(raw.to_owned());
        let mut name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        name.make_ascii_uppercase();
        while let Some(rest) = TRAILING_CONSTRAINTS
            .iter()
            .find_map(|c| name.strip_suffix(c))
        {
            name = rest.to_owned();
        }
        if let Some((base, params)) = split_params(&name) {
            return parse_parameterised(base, &params).ok_or_else(unknown);
        }
        NAMED_TYPES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, ty)| *ty)
            .ok_or_else(unknown)
    }

    /// The PostgreSQL spelling used in `CREATE TABLE`.
    pub fn sql(&self) -> String {
        match self {
            Self::Boolean => "boolean".into(),
            Self::SmallInt => "smallint".into(),
            Self::Integer => "integer".into(),
            Self::BigInt => "bigint".into(),
            Self::Real => "real".into(),
            Self::Double => "double precision".into(),
            Self::Numeric(None) => "numeric".into(),
            Self::Numeric(Some((p, s))) => format!("numeric({p},{s})"),
            Self::Date => "date".into(),
            Self::Timestamp => "timestamp".into(),
            Self::Text => "text".into(),
            Self::Varchar(None) => "varchar".into(),
            Self::Varchar(Some(n)) => format!("varchar({n})"),
            Self::Char(n) => format!("char({n})"),
        }
    }

    /// Whether `value` (a non-NULL field) is valid input for this type.
    pub fn accepts(&self, value: &str) -> bool {
        use crate::values as v;
        match self {
            Self::Boolean => v::is_pg_boolean(value),
            Self::SmallInt => v::parse_int(value.trim()).is_some_and(|n| i16::try_from(n).is_ok()),
            Self::Integer => v::parse_int(value.trim()).is_some_and(|n| i32::try_from(n).is_ok()),
            Self::BigInt => v::parse_int(value.trim()).is_some(),
            Self::Real => v::parse_float(value)
                .is_some_and(|f| !f.is_finite() || f.abs() <= f64::from(f32::MAX)),
            Self::Double => v::parse_float(value).is_some(),
            Self::Numeric(limits) => v::is_numeric(value.trim(), *limits),
            Self::Date => v::parse_date(value.trim()).is_some(),
            Self::Timestamp => v::is_timestamp(value.trim(), true),
            Self::Text => !value.contains('\0'),
            Self::Varchar(limit) => !value.contains('\0') && limit.is_none_or(|n| fits(value, n)),
            Self::Char(n) => !value.contains('\0') && fits(value.trim_end_matches(' '), *n),
        }
    }
}

impl fmt::Display for ColumnType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sql())
    }
}

fn fits(value: &str, chars: u32) -> bool {
    value.chars().count() <= chars as usize
}

/// `VARCHAR(100)` → `("VARCHAR", [100])`.
fn split_params(name: &str) -> Option<(&str, Vec<Option<u32>>)> {
    let (base, rest) = name.split_once('(')?;
    let inner = rest.strip_suffix(')')?;
    let params = inner.split(',').map(|p| p.trim().parse().ok()).collect();
    Some((base.trim_end(), params))
}

fn parse_parameterised(base: &str, params: &[Option<u32>]) -> Option<ColumnType> {
    match (base, params) {
        ("NUMERIC" | "DECIMAL", [Some(p)]) => Some(ColumnType::Numeric(Some((*p, 0)))),
        ("NUMERIC" | "DECIMAL", [Some(p), Some(s)]) if s <= p => {
            Some(ColumnType::Numeric(Some((*p, *s))))
        }
        ("VARCHAR" | "CHARACTER VARYING", [Some(n)]) => Some(ColumnType::Varchar(Some(*n))),
        ("CHAR" | "CHARACTER", [Some(n)]) => Some(ColumnType::Char(*n)),
        ("FLOAT", [Some(p)]) if (1..=24).contains(p) => Some(ColumnType::Real),
        ("FLOAT", [Some(p)]) if (25..=53).contains(p) => Some(ColumnType::Double),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::ColumnType as T;

    #[test]
    fn parses_every_spelling_found_in_the_reference_ddl() {
        let cases = [
            ("BIGINT", T::BigInt),
            ("CHAR(6)", T::Char(6)),
            ("DECIMAL(15, 2)", T::Numeric(Some((15, 2)))),
            ("DECIMAL(15,8)", T::Numeric(Some((15, 8)))),
            ("DECIMAL", T::Numeric(None)),
            ("Float", T::Double),
            ("INTEGER UNIQUE", T::Integer),
            ("SERIAL", T::Integer),
            ("REAL", T::Real),
            ("timestamp without time zone", T::Timestamp),
            ("VARCHAR(255)", T::Varchar(Some(255))),
            ("VARCHAR", T::Varchar(None)),
            ("date", T::Date),
        ];
        for (raw, want) in cases {
            assert_eq!(T::parse_sql(raw), Ok(want), "{raw}");
        }
    }

    #[test]
    fn unknown_types_are_errors_naming_the_type() {
        let err = T::parse_sql("GEOGRAPHY(POINT)").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown SQL column type `GEOGRAPHY(POINT)`"
        );
        assert!(T::parse_sql("DECIMAL(2, 5)").is_err());
    }

    #[test]
    fn acceptance_follows_postgres_input_rules() {
        assert!(T::Integer.accepts(" 42 "));
        assert!(!T::Integer.accepts(" "));
        assert!(!T::Integer.accepts("3000000000"));
        assert!(T::BigInt.accepts("3000000000"));
        assert!(
            T::Boolean.accepts("Yes")
                && T::Boolean.accepts("FALSE")
                && !T::Boolean.accepts("maybe")
        );
        assert!(T::Timestamp.accepts("2016-06-25 0:54:37"));
        assert!(T::Timestamp.accepts("2022-07-28T15:40:07.467"));
        assert!(!T::Timestamp.accepts("2022-13-28 15:40:07"));
        assert!(T::Numeric(Some((4, 2))).accepts("1.345"));
        // Could round up to 100.00: refused (conservatively) rather than risking a failed load.
        assert!(!T::Numeric(Some((4, 2))).accepts("99.999"));
        assert!(!T::Numeric(Some((4, 2))).accepts("123.4"));
        assert!(T::Varchar(Some(3)).accepts("äbc") && !T::Varchar(Some(3)).accepts("abcd"));
        assert!(!T::Text.accepts("a\0b"));
    }

    #[test]
    fn sql_spelling_round_trips() {
        for ty in [
            T::Numeric(Some((15, 2))),
            T::Varchar(Some(9)),
            T::Double,
            T::Timestamp,
            T::Char(6),
        ] {
            assert_eq!(T::parse_sql(&ty.sql()), Ok(ty));
        }
    }
}
