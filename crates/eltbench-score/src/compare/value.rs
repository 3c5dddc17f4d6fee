//! The corrected ("fixed") rule for whether one warehouse value matches one
//! ground-truth value, and the sort key both sides are aligned with.
//!
//! Values arrive as text (`None` = NULL). NULL equals NULL only; numbers
//! (booleans count as 1/0 against a number) match when `|b - a| <= 0.01 |a|`
//! with `a` the ground truth; dates and timestamps compare by their
//! canonical form; everything else compares exactly. This module must never
//! look at a whole column or row: it judges single values.

use std::cmp::Ordering;

use super::temporal;

/// The relative tolerance of the numeric rule.
pub const TOLERANCE: f64 = 0.01;

/// One value classified for comparison.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar<'a> {
    Null,
    Number(f64),
    Bool(bool),
    Temporal(String),
    Text(&'a str),
}

/// Classifies a textual value. An empty string is NULL: a ground-truth CSV
/// cannot tell the two apart, so neither can the comparison.
pub(crate) fn classify(text: Option<&str>) -> Scalar<'_> {
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return Scalar::Null;
    };
    if let Some(flag) = parse_bool(text) {
        return Scalar::Bool(flag);
    }
    if let Ok(number) = text.trim().parse::<f64>() {
        return Scalar::Number(number);
    }
    match temporal::canonical(text) {
        Some(canonical) => Scalar::Temporal(canonical),
        None => Scalar::Text(text),
    }
}

fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "t" => Some(true),
        "f" => Some(false),
        _ if text.eq_ignore_ascii_case("true") => Some(true),
        _ if text.eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    }
}

/// Whether `actual` matches `expected` (the ground truth) under the fixed rule.
pub fn values_match(expected: Option<&str>, actual: Option<&str>) -> bool {
    use Scalar::*;
    match (classify(expected), classify(actual)) {
        (Null, Null) => true,
        (Number(a), Number(b)) => numbers_match(a, b),
        (Number(a), Bool(b)) => numbers_match(a, f64::from(u8::from(b))),
        (Bool(a), Number(b)) => numbers_match(f64::from(u8::from(a)), b),
        (Bool(a), Bool(b)) => a == b,
        (Temporal(a), Temporal(b)) => a == b,
        (Text(a), Text(b)) => a == b,
        _ => false,
    }
}

/// The sign-correct 1% band around the ground truth `a`: `-5` matches `-5`,
/// `0` matches only `0`, NaN matches only NaN and an infinity only itself.
pub fn numbers_match(a: f64, b: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a.is_infinite() || b.is_infinite() {
        return a == b;
    }
    (b - a).abs() <= TOLERANCE * a.abs()
}

/// A total order on values that both sides of a comparison sort by: NULLs
/// first, then numbers (booleans as 1/0) numerically, then dates and
/// timestamps by canonical form, then text bytewise. It does not depend on
/// any database's collation or NULL ordering.
#[derive(Debug, Clone)]
pub(crate) enum SortKey {
    Null,
    Number(f64),
    Temporal(String),
    Text(String),
}

impl SortKey {
    pub(crate) fn of(text: Option<&str>) -> Self {
        match classify(text) {
            Scalar::Null => Self::Null,
            Scalar::Number(n) => Self::Number(normalise(n)),
            Scalar::Bool(b) => Self::Number(f64::from(u8::from(b))),
            Scalar::Temporal(t) => Self::Temporal(t),
            Scalar::Text(t) => Self::Text(t.to_string()),
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Self::Null => 0,
            Self::Number(_) => 1,
            Self::Temporal(_) => 2,
            Self::Text(_) => 3,
        }
    }
}

/// One NaN and one zero, so the total order treats them as single values.
fn normalise(n: f64) -> f64 {
    if n.is_nan() {
        f64::NAN
    } else if n == 0.0 {
        0.0
    } else {
        n
    }
}

impl Ord for SortKey {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Self::Number(a), Self::Number(b)) => a.total_cmp(b),
            (Self::Temporal(a), Self::Temporal(b)) | (Self::Text(a), Self::Text(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for SortKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for SortKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for SortKey {}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(expected: &str, actual: &str) -> bool {
        values_match(Some(expected), Some(actual))
    }

    #[test]
    fn negative_numbers_match_themselves() {
        assert!(m("-5", "-5"));
        assert!(m("-5", "-5.04"));
        assert!(!m("-5", "-5.06"));
        assert!(!m("-5", "5"));
    }

    #[test]
    fn zero_matches_only_zero_and_the_band_is_relative_to_ground_truth() {
        assert!(m("0", "0.0"));
        assert!(m("0", "-0"));
        assert!(!m("0", "0.0001"));
        assert!(m("200", "201.9"));
        assert!(!m("200", "202.1"));
    }

    #[test]
    fn near_equal_floats_pass_at_half_a_percent_and_fail_at_two() {
        assert!(m("10.0", "10.05"));
        assert!(m("10.0", "9.95"));
        assert!(!m("10.0", "10.2"));
        assert!(!m("10.0", "9.8"));
    }

    #[test]
    fn nulls_equal_nulls_only_and_nan_is_not_a_number_match() {
        assert!(values_match(None, None));
        assert!(values_match(None, Some("")));
        assert!(!values_match(None, Some("0")));
        assert!(!values_match(Some("0"), None));
        assert!(m("NaN", "nan"));
        assert!(!m("NaN", "1"));
        assert!(!m("1", "NaN"));
        assert!(m("inf", "inf"));
        assert!(!m("inf", "1e308"));
        assert!(!m("-inf", "inf"));
    }

    #[test]
    fn integers_floats_and_booleans_compare_as_numbers() {
        assert!(m("3", "3.0"));
        assert!(m("3.0", "3"));
        assert!(m("1", "true"));
        assert!(m("True", "true"));
        assert!(m("TRUE", "t"));
        assert!(m("0", "false"));
        assert!(!m("1", "false"));
        assert!(!m("true", "f"));
    }

    #[test]
    fn dates_and_timestamps_compare_by_canonical_form() {
        assert!(m("2024-01-05 10:00:00", "2024-01-05T10:00:00Z"));
        assert!(m("2024-01-05 10:00:00.000", "2024-01-05 10:00:00+00"));
        assert!(m("2024-01-05", "2024-01-05 00:00:00"));
        assert!(!m("2024-01-05", "2024-01-05 00:00:01"));
        assert!(!m("2024-01-05 10:00:00", "2024-01-05 10:00:00-08:00"));
        assert!(m("2024-01-05 10:00:00", "2024-01-05 02:00:00-08"));
        assert!(m("2025-03-01 19:42:58.123000", "2025-03-01 19:42:58.123"));
    }

    #[test]
    fn text_compares_exactly() {
        assert!(m("abc", "abc"));
        assert!(!m("abc", "ABC"));
        assert!(!m("abc", "abc "));
        assert!(!m("2024-01-05", "abc"));
    }

    #[test]
    fn sort_keys_order_numbers_numerically_and_nulls_first() {
        let mut keys: Vec<SortKey> = ["10", "9", "", "abc", "2024-01-01", "-1", "true"]
            .iter()
            .map(|t| SortKey::of(Some(t)))
            .collect();
        keys.sort();
        let expected: Vec<SortKey> = ["", "-1", "true", "9", "10", "2024-01-01", "abc"]
            .iter()
            .map(|t| SortKey::of(Some(t)))
            .collect();
        assert_eq!(keys, expected);
        assert_eq!(SortKey::of(Some("3")), SortKey::of(Some("3.0")));
        assert_eq!(SortKey::of(None), SortKey::of(Some("")));
    }
}
