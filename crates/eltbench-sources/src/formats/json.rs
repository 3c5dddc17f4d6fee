//! JSON values of canonical fields: which JSON type each column's values take (from the
//! column type, or from a declared JSON schema such as the REST streams'), and the
//! JSON array / JSON Lines writers built on it.
//!
//! A value is written as the first kind it fits among the column's kinds, and as a
//! string when it fits none, so no value is ever lost or turned into `NaN`; an empty
//! field is `null`. Numbers keep their value (integers exactly, others as `f64`).

use serde_json::{Map, Number, Value};

use crate::table::{Row, Table};
use crate::types::ColumnType;
use crate::values::{parse_float, parse_int, pg_boolean};

/// A JSON type a column's values may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonKind {
    Boolean,
    Number,
    String,
}

/// The JSON kinds of one column, in order of preference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonColumn {
    pub kinds: Vec<JsonKind>,
}

impl JsonColumn {
    /// The kind the column type implies (text, dates and timestamps are strings).
    pub fn from_type(ty: &ColumnType) -> Self {
        let kind = match ty {
            ColumnType::Boolean => JsonKind::Boolean,
            ColumnType::SmallInt
            | ColumnType::Integer
            | ColumnType::BigInt
            | ColumnType::Real
            | ColumnType::Double
            | ColumnType::Numeric(_) => JsonKind::Number,
            ColumnType::Date
            | ColumnType::Timestamp
            | ColumnType::Text
            | ColumnType::Varchar(_)
            | ColumnType::Char(_) => JsonKind::String,
        };
        Self { kinds: vec![kind] }
    }

    /// The kinds a JSON schema property declares (`{"type": ["number", "string",
    /// "null"]}`); `None` when it declares none this module knows.
    pub fn from_schema(property: &Value) -> Option<Self> {
        let types: Vec<&str> = match property.get("type")? {
            Value::String(t) => vec![t.as_str()],
            Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
            _ => return None,
        };
        let mut kinds: Vec<JsonKind> = types
            .iter()
            .filter_map(|t| match *t {
                "boolean" => Some(JsonKind::Boolean),
                "number" | "integer" => Some(JsonKind::Number),
                _ => None,
            })
            .collect();
        if types.contains(&"string") {
            kinds.push(JsonKind::String);
        }
        (!kinds.is_empty()).then_some(Self { kinds })
    }

    /// The JSON value of one field (`None` = NULL).
    pub fn value(&self, field: Option<&str>) -> Value {
        let Some(text) = field else {
            return Value::Null;
        };
        self.kinds
            .iter()
            .find_map(|kind| typed(*kind, text))
            .unwrap_or_else(|| Value::String(text.to_owned()))
    }
}

fn typed(kind: JsonKind, text: &str) -> Option<Value> {
    match kind {
        JsonKind::Boolean => pg_boolean(text).map(Value::Bool),
        JsonKind::Number => number(text).map(Value::Number),
        JsonKind::String => Some(Value::String(text.to_owned())),
    }
}

/// An integer exactly when the text is one, else a finite float.
pub(crate) fn number(text: &str) -> Option<Number> {
    let t = text.trim();
    if let Some(n) = parse_int(t) {
        return Some(Number::from(n));
    }
    parse_float(t).and_then(Number::from_f64)
}

/// The JSON kinds of every column of `table`, from its column types.
pub fn columns_from_types(table: &Table) -> Vec<JsonColumn> {
    table
        .columns
        .iter()
        .map(|c| JsonColumn::from_type(&c.ty))
        .collect()
}

/// One row as a JSON object (every column, NULL as `null`).
pub fn row_object(table: &Table, columns: &[JsonColumn], row: &Row<'_>) -> Map<String, Value> {
    table
        .columns
        .iter()
        .zip(columns)
        .enumerate()
        .map(|(i, (col, kind))| (col.name.clone(), kind.value(row.get(i))))
        .collect()
}

/// The whole table as one JSON array of objects.
pub fn write_array(table: &Table, columns: &[JsonColumn]) -> Vec<u8> {
    let mut out = Vec::with_capacity(table.len() * 64 + 2);
    out.push(b'[');
    for (i, row) in table.rows.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_object(&mut out, table, columns, &row);
    }
    out.push(b']');
    out
}

/// The table as JSON Lines: one object per line.
pub fn write_lines(table: &Table, columns: &[JsonColumn]) -> Vec<u8> {
    let mut out = Vec::with_capacity(table.len() * 64);
    for row in table.rows.iter() {
        write_object(&mut out, table, columns, &row);
        out.push(b'\n');
    }
    out
}

fn write_object(out: &mut Vec<u8>, table: &Table, columns: &[JsonColumn], row: &Row<'_>) {
    let object = Value::Object(row_object(table, columns, row));
    // Writing a `Value` into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, &object);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_follow_the_column_type() {
        let int = JsonColumn::from_type(&ColumnType::BigInt);
        assert_eq!(int.value(Some("42")), json!(42));
        assert_eq!(int.value(None), Value::Null);
        let dbl = JsonColumn::from_type(&ColumnType::Numeric(None));
        assert_eq!(dbl.value(Some("12.50")), json!(12.5));
        assert_eq!(dbl.value(Some("NaN")), json!("NaN"));
        let b = JsonColumn::from_type(&ColumnType::Boolean);
        assert_eq!(b.value(Some("FALSE")), json!(false));
        let date = JsonColumn::from_type(&ColumnType::Date);
        assert_eq!(date.value(Some("2020-01-02")), json!("2020-01-02"));
    }

    #[test]
    fn schema_kinds_are_tried_in_order_and_never_lose_a_value() {
        let either = JsonColumn::from_schema(&json!({"type": ["number", "string", "null"]}));
        let either = either.unwrap();
        assert_eq!(either.value(Some("7")), json!(7));
        assert_eq!(either.value(Some("7a")), json!("7a"));
        let num = JsonColumn::from_schema(&json!({"type": ["number", "null"]})).unwrap();
        assert_eq!(num.value(Some("2021-01-01")), json!("2021-01-01"));
        let text = JsonColumn::from_schema(&json!({"type": ["string", "null"]})).unwrap();
        assert_eq!(text.value(Some("007")), json!("007"));
        assert_eq!(JsonColumn::from_schema(&json!({"type": ["null"]})), None);
    }

    #[test]
    fn writers_emit_arrays_and_lines() {
        let mut rows = crate::table::Rows::new(2);
        rows.push(2, ["1", ""]).unwrap();
        rows.push(3, ["2", "x"]).unwrap();
        let col = |name: &str, ty| crate::table::Column {
            name: name.into(),
            ty,
            not_null: false,
            origin: crate::table::TypeOrigin::Inferred,
            declared_name: None,
        };
        let table = Table {
            name: "t".into(),
            columns: vec![col("id", ColumnType::BigInt), col("s", ColumnType::Text)],
            primary_key: vec![],
            rows,
        };
        let cols = columns_from_types(&table);
        assert_eq!(
            String::from_utf8(write_array(&table, &cols)).unwrap(),
            r#"[{"id":1,"s":null},{"id":2,"s":"x"}]"#
        );
        assert_eq!(
            String::from_utf8(write_lines(&table, &cols)).unwrap(),
            "{\"id\":1,\"s\":null}\n{\"id\":2,\"s\":\"x\"}\n"
        );
    }
}
