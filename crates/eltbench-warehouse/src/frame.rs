/// The type family of a column, as far as comparing values needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ValueKind {
    /// `BOOLEAN`.
    Boolean,
    /// Any integer width, signed or not.
    Integer,
    /// `FLOAT`, `DOUBLE`.
    Float,
    /// `DECIMAL(p, s)`.
    Decimal,
    /// `DATE`.
    Date,
    /// `TIME`.
    Time,
    /// `TIMESTAMP` of any precision, with or without time zone.
    Timestamp,
    /// `VARCHAR` and other text.
    Text,
    /// Lists, structs, JSON, blobs...: compared by their textual form.
    Other,
}

impl ValueKind {
    /// Classifies a SQL type name as the backend spells it (`DECIMAL(18,3)`,
    /// `TIMESTAMP WITH TIME ZONE`, `BIGINT`...).
    pub fn from_sql_type(type_name: &str) -> Self {
        let upper = type_name.trim().to_ascii_uppercase();
        let base = upper.split(['(', ' ']).next().unwrap_or("");
        match base {
            "BOOLEAN" | "BOOL" => Self::Boolean,
            "TINYINT" | "SMALLINT" | "INTEGER" | "INT" | "BIGINT" | "HUGEINT" | "UTINYINT"
            | "USMALLINT" | "UINTEGER" | "UBIGINT" | "UHUGEINT" | "INT2" | "INT4" | "INT8" => {
                Self::Integer
            }
            "FLOAT" | "DOUBLE" | "REAL" | "FLOAT4" | "FLOAT8" => Self::Float,
            "DECIMAL" | "NUMERIC" => Self::Decimal,
            "DATE" => Self::Date,
            "TIME" => Self::Time,
            "TIMESTAMP" | "TIMESTAMP_S" | "TIMESTAMP_MS" | "TIMESTAMP_NS" | "TIMESTAMPTZ"
            | "DATETIME" => Self::Timestamp,
            "VARCHAR" | "TEXT" | "STRING" | "CHAR" | "BPCHAR" | "UUID" => Self::Text,
            _ => Self::Other,
        }
    }

    /// Whether values of this kind are numbers.
    pub fn is_numeric(self) -> bool {
        matches!(self, Self::Integer | Self::Float | Self::Decimal)
    }
}

/// One column of a [`Frame`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnInfo {
    /// Column name as stored.
    pub name: String,
    /// The type as the backend spells it.
    pub type_name: String,
    /// Its type family.
    pub kind: ValueKind,
}

/// A relation's contents: typed columns and rows of values in their textual
/// form (`None` is SQL NULL). Floats are rendered in their shortest
/// round-trip form, so parsing the text gives back the stored number.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frame {
    /// The columns, in table order.
    pub columns: Vec<ColumnInfo>,
    /// The rows, each as long as `columns`.
    pub rows: Vec<Vec<Option<String>>>,
}

impl Frame {
    /// The index of a column, matched case-insensitively.
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::ValueKind;

    #[test]
    fn classifies_duckdb_type_names() {
        assert_eq!(
            ValueKind::from_sql_type("DECIMAL(18,3)"),
            ValueKind::Decimal
        );
        assert_eq!(
            ValueKind::from_sql_type("TIMESTAMP WITH TIME ZONE"),
            ValueKind::Timestamp
        );
        assert_eq!(ValueKind::from_sql_type("ubigint"), ValueKind::Integer);
        assert_eq!(ValueKind::from_sql_type("VARCHAR"), ValueKind::Text);
        assert_eq!(ValueKind::from_sql_type("INTEGER[]"), ValueKind::Other);
        assert_eq!(
            ValueKind::from_sql_type("STRUCT(a INTEGER)"),
            ValueKind::Other
        );
    }
}
