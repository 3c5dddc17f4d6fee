//! Column types of generated data: the storage [`Kind`] of a column, read
//! from the original's declarations (SQL type names in `postgres_ddl.json`,
//! JSON Schema types in `rest_api_streams.json`) and refined by the name
//! rules of [`crate::rules`].
//!
//! Type names map through tables, not scattered conditionals. This module
//! never generates values and never looks at column names.

use crate::rules::Flavor;

/// How a column's values are stored and printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Kind {
    /// A whole number (printed without a decimal point).
    Int,
    /// A fixed-point number printed with exactly `scale` decimals.
    Decimal {
        /// Digits after the point.
        scale: u8,
    },
    /// A floating-point number (printed with 4 decimals at most).
    Float,
    /// `true` / `false`.
    Bool,
    /// `YYYY-MM-DD`.
    Date,
    /// `YYYY-MM-DD HH:MM:SS`.
    Timestamp,
    /// Text, at most `max_len` characters when declared.
    Text {
        /// The declared length limit (`VARCHAR(n)`, `CHAR(n)`).
        max_len: Option<u32>,
    },
}

/// Everything value generation needs to know about a column.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ColumnType {
    /// Storage kind.
    #[serde(flatten)]
    pub kind: Kind,
    /// What the values look like within the kind.
    pub flavor: Flavor,
    /// Upper-case letters that start generated codes (`episode_id` → `EPI`).
    pub prefix: String,
}

impl ColumnType {
    /// The type of a column named `name`.
    pub fn new(kind: Kind, flavor: Flavor, name: &str) -> Self {
        let prefix: String = name
            .chars()
            .filter(char::is_ascii_alphabetic)
            .take(3)
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let prefix = if prefix.is_empty() {
            "K".into()
        } else {
            prefix
        };
        Self {
            kind,
            flavor,
            prefix,
        }
    }
}

/// What a hint file says of a column, before the name rules refine it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// A definite kind.
    Known(Kind),
    /// JSON `number`: an integer or a decimal, whichever the name suggests.
    Number,
}

impl Base {
    /// The kind for a column of this base with this flavor.
    pub fn resolve(self, flavor: Flavor) -> Kind {
        match self {
            Base::Known(kind) => kind,
            Base::Number if flavor.is_integral() => Kind::Int,
            Base::Number => Kind::Decimal {
                scale: flavor.scale(),
            },
        }
    }
}

/// A parsed SQL type: its kind and whether values must be unique
/// (`SERIAL`, `... UNIQUE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SqlType {
    /// The storage kind.
    pub kind: Kind,
    /// Whether the column is a generated sequence or declared `UNIQUE`.
    pub unique: bool,
}

const TEXT: Kind = Kind::Text { max_len: None };

/// SQL type names without arguments, upper-cased.
const SQL_TYPES: &[(&str, Kind)] = &[
    ("SMALLINT", Kind::Int),
    ("INT", Kind::Int),
    ("INTEGER", Kind::Int),
    ("BIGINT", Kind::Int),
    ("SERIAL", Kind::Int),
    ("BIGSERIAL", Kind::Int),
    ("BOOLEAN", Kind::Bool),
    ("BOOL", Kind::Bool),
    ("REAL", Kind::Float),
    ("FLOAT", Kind::Float),
    ("DOUBLE PRECISION", Kind::Float),
    ("DECIMAL", Kind::Decimal { scale: 2 }),
    ("NUMERIC", Kind::Decimal { scale: 2 }),
    ("DATE", Kind::Date),
    ("TIMESTAMP", Kind::Timestamp),
    ("TIMESTAMP WITHOUT TIME ZONE", Kind::Timestamp),
    ("TEXT", TEXT),
    ("VARCHAR", TEXT),
    ("CHARACTER VARYING", TEXT),
    ("CHAR", Kind::Text { max_len: Some(1) }),
];

/// The kind of a type name given its numeric arguments.
type WithArgs = fn(&[u32]) -> Option<Kind>;

/// SQL type names whose arguments matter: `(name, argument → kind)`.
const SQL_TYPES_WITH_ARGS: &[(&str, WithArgs)] = &[
    ("VARCHAR", text_of_len),
    ("CHARACTER VARYING", text_of_len),
    ("CHAR", text_of_len),
    ("CHARACTER", text_of_len),
    ("DECIMAL", decimal_of_scale),
    ("NUMERIC", decimal_of_scale),
];

fn text_of_len(args: &[u32]) -> Option<Kind> {
    match args {
        [len] => Some(Kind::Text {
            max_len: Some(*len),
        }),
        _ => None,
    }
}

fn decimal_of_scale(args: &[u32]) -> Option<Kind> {
    match args {
        [_precision] => Some(Kind::Decimal { scale: 0 }),
        [_precision, scale] => u8::try_from(*scale)
            .ok()
            .map(|scale| Kind::Decimal { scale }),
        _ => None,
    }
}

/// Parses a SQL type name as `postgres_ddl.json` writes it (`INTEGER`,
/// `DECIMAL(15, 2)`, `VARCHAR(10)`, `SERIAL`, `INTEGER UNIQUE`); `None` for
/// a name not in the tables.
pub fn parse_sql_type(text: &str) -> Option<SqlType> {
    let upper = text.trim().to_ascii_uppercase();
    let (name, unique) = match upper.strip_suffix(" UNIQUE") {
        Some(name) => (name.trim_end(), true),
        None => (upper.as_str(), false),
    };
    let serial = name.ends_with("SERIAL");
    let kind = match name.split_once('(') {
        Some((head, args)) => with_args(head.trim_end(), args)?,
        None => SQL_TYPES.iter().find(|(n, _)| *n == name)?.1,
    };
    Some(SqlType {
        kind,
        unique: unique || serial,
    })
}

fn with_args(head: &str, args: &str) -> Option<Kind> {
    let args = args.strip_suffix(')')?;
    let numbers: Option<Vec<u32>> = args.split(',').map(|a| a.trim().parse().ok()).collect();
    let (_, make) = SQL_TYPES_WITH_ARGS.iter().find(|(n, _)| *n == head)?;
    make(&numbers?)
}

/// The base of a JSON Schema `type` list (`["number", "null"]`): booleans
/// win over numbers (the original's `["boolean","number"]` fields hold
/// flags); a list allowing strings and numbers says nothing definite.
pub fn json_base(types: &[String]) -> Option<Base> {
    let has = |t: &str| types.iter().any(|x| x == t);
    if has("boolean") {
        Some(Base::Known(Kind::Bool))
    } else if has("string") && (has("number") || has("integer")) {
        None
    } else if has("integer") {
        Some(Base::Known(Kind::Int))
    } else if has("number") {
        Some(Base::Number)
    } else if has("string") {
        Some(Base::Known(TEXT))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_sql_type_of_the_original() {
        let cases = [
            ("INTEGER", Kind::Int, false),
            ("integer", Kind::Int, false),
            ("SERIAL", Kind::Int, true),
            ("INTEGER UNIQUE", Kind::Int, true),
            ("DECIMAL(15, 2)", Kind::Decimal { scale: 2 }, false),
            ("DECIMAL(15,8)", Kind::Decimal { scale: 8 }, false),
            ("NUMERIC", Kind::Decimal { scale: 2 }, false),
            ("Float", Kind::Float, false),
            ("DOUBLE PRECISION", Kind::Float, false),
            ("CHAR(6)", Kind::Text { max_len: Some(6) }, false),
            ("VARCHAR(255)", Kind::Text { max_len: Some(255) }, false),
            ("timestamp without time zone", Kind::Timestamp, false),
            ("date", Kind::Date, false),
            ("BOOLEAN", Kind::Bool, false),
        ];
        for (text, kind, unique) in cases {
            assert_eq!(
                parse_sql_type(text),
                Some(SqlType { kind, unique }),
                "{text}"
            );
        }
        assert_eq!(parse_sql_type("GEOMETRY"), None);
        assert_eq!(parse_sql_type("VARCHAR(x)"), None);
    }

    #[test]
    fn json_types_map_to_bases() {
        let base = |t: &[&str]| json_base(&t.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            base(&["boolean", "number", "null"]),
            Some(Base::Known(Kind::Bool))
        );
        assert_eq!(base(&["number", "null"]), Some(Base::Number));
        assert_eq!(base(&["string", "null"]), Some(Base::Known(TEXT)));
        assert_eq!(base(&["number", "string", "null"]), None);
        assert_eq!(Base::Number.resolve(Flavor::Year), Kind::Int);
        assert_eq!(
            Base::Number.resolve(Flavor::Amount),
            Kind::Decimal { scale: 2 }
        );
    }
}
