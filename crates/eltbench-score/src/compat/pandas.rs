//! The type inference `pandas.read_csv` applies to a column with default
//! options, which the original scorer ran on both sides before comparing.
//!
//! Per column: pandas' NA tokens become NaN; then all remaining cells
//! integers → int, else all numbers → float, else all `True`/`False`
//! spellings → bool, else every cell stays the string it was. This module
//! reproduces that inference only; it must never judge equality.

/// The strings `pandas.read_csv` reads as NaN by default.
pub const NA_TOKENS: &[&str] = &[
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
];

/// One cell after inference, as Python would hold it.
#[derive(Debug, Clone, PartialEq)]
pub enum PdValue {
    /// `NaN` (pandas' missing value).
    NaN,
    /// A Python `int`.
    Int(i64),
    /// A Python `float`.
    Float(f64),
    /// A Python `bool` (an `int` subclass).
    Bool(bool),
    /// A Python `str`.
    Str(String),
}

impl PdValue {
    /// The value as `float(x)` when Python would treat it as a number
    /// (`isinstance(x, (int, float))`; NaN included).
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Self::NaN => Some(f64::NAN),
            #[allow(clippy::cast_precision_loss)]
            Self::Int(i) => Some(*i as f64),
            Self::Float(f) => Some(*f),
            Self::Bool(b) => Some(f64::from(u8::from(*b))),
            Self::Str(_) => None,
        }
    }
}

/// Infers one column's values the way `pandas.read_csv` would.
pub fn infer_column<'a>(cells: impl IntoIterator<Item = Option<&'a str>>) -> Vec<PdValue> {
    let cells: Vec<Option<&str>> = cells
        .into_iter()
        .map(|c| c.filter(|t| !NA_TOKENS.contains(t)))
        .collect();
    let present = || cells.iter().flatten();
    if present().all(|t| parse_int(t).is_some()) {
        return cells
            .iter()
            .map(|c| cast(*c, |t| parse_int(t).map(PdValue::Int)))
            .collect();
    }
    if present().all(|t| parse_float(t).is_some()) {
        return cells
            .iter()
            .map(|c| cast(*c, |t| parse_float(t).map(PdValue::Float)))
            .collect();
    }
    if present().all(|t| parse_bool(t).is_some()) {
        return cells
            .iter()
            .map(|c| cast(*c, |t| parse_bool(t).map(PdValue::Bool)))
            .collect();
    }
    cells
        .iter()
        .map(|c| cast(*c, |t| Some(PdValue::Str(t.to_string()))))
        .collect()
}

fn cast(cell: Option<&str>, parse: impl Fn(&str) -> Option<PdValue>) -> PdValue {
    cell.and_then(parse).unwrap_or(PdValue::NaN)
}

fn parse_int(text: &str) -> Option<i64> {
    let t = text.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

fn parse_float(text: &str) -> Option<f64> {
    let t = text.trim();
    // Rust also parses NaN spellings pandas does not treat as numbers.
    if t.to_ascii_lowercase().contains("nan") {
        return None;
    }
    t.parse().ok()
}

fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "True" | "TRUE" | "true" => Some(true),
        "False" | "FALSE" | "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PdValue::*;

    fn infer(cells: &[Option<&str>]) -> Vec<PdValue> {
        infer_column(cells.iter().copied())
    }

    #[test]
    fn integer_float_bool_and_string_columns() {
        assert_eq!(
            infer(&[Some("1"), Some("-2"), None]),
            vec![Int(1), Int(-2), NaN]
        );
        assert_eq!(
            infer(&[Some("1"), Some("2.5")]),
            vec![Float(1.0), Float(2.5)]
        );
        assert_eq!(
            infer(&[Some("True"), Some("false"), Some("NA")]),
            vec![Bool(true), Bool(false), NaN]
        );
        assert_eq!(
            infer(&[Some("1"), Some("abc")]),
            vec![Str("1".into()), Str("abc".into())]
        );
    }

    #[test]
    fn na_tokens_become_nan_in_any_column() {
        let cells = [Some("null"), Some("N/A"), Some("None"), Some(""), Some("x")];
        assert_eq!(infer(&cells), vec![NaN, NaN, NaN, NaN, Str("x".into())]);
        assert_eq!(
            infer(&[Some("NAN"), Some("1")]),
            vec![Str("NAN".into()), Str("1".into())]
        );
    }

    #[test]
    fn a_bool_column_is_not_numeric_text_and_t_is_a_string() {
        assert_eq!(
            infer(&[Some("t"), Some("True")]),
            vec![Str("t".into()), Str("True".into())]
        );
        assert_eq!(Bool(true).as_number(), Some(1.0));
        assert_eq!(Str("1".into()).as_number(), None);
    }
}
