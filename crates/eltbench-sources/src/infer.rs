//! Type inference for columns that no DDL describes.
//!
//! Conservative by design: a column gets a non-text type only if every non-NULL value
//! has the strict form of that type (see `values`), so that loading it and printing it
//! back gives the same value. It must never look at more than one column at a time or
//! guess from column names.

use crate::types::ColumnType;
use crate::values;

/// Candidate types still possible for one column, narrowed value by value.
#[derive(Clone, Debug)]
pub struct Inference {
    seen: bool,
    boolean: bool,
    bigint: bool,
    numeric: bool,
    double: bool,
    date: bool,
    timestamp: bool,
}

impl Default for Inference {
    fn default() -> Self {
        Self {
            seen: false,
            boolean: true,
            bigint: true,
            numeric: true,
            double: true,
            date: true,
            timestamp: true,
        }
    }
}

impl Inference {
    /// Narrows the candidates with one non-NULL value.
    pub fn observe(&mut self, value: &str) {
        self.seen = true;
        self.boolean &= values::strict_boolean(value);
        self.bigint &= values::strict_int(value);
        self.numeric &= values::strict_decimal(value);
        self.double &= values::strict_decimal(value) || values::strict_float(value);
        let is_date = values::strict_date(value);
        self.date &= is_date;
        self.timestamp &= is_date || values::strict_timestamp(value);
    }

    /// Whether no candidate but text is left (further values cannot change the result).
    pub fn is_settled_text(&self) -> bool {
        self.seen
            && !(self.boolean
                || self.bigint
                || self.numeric
                || self.double
                || self.date
                || self.timestamp)
    }

    /// The narrowest type every observed value fits; text for an all-NULL column.
    pub fn result(&self) -> ColumnType {
        let order = [
            (self.boolean, ColumnType::Boolean),
            (self.bigint, ColumnType::BigInt),
            (self.numeric, ColumnType::Numeric(None)),
            (self.double, ColumnType::Double),
            (self.date, ColumnType::Date),
            (self.timestamp, ColumnType::Timestamp),
        ];
        let found = order
            .into_iter()
            .find(|(possible, _)| *possible)
            .map(|(_, ty)| ty);
        if self.seen {
            found.unwrap_or(ColumnType::Text)
        } else {
            ColumnType::Text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn infer(values: &[&str]) -> ColumnType {
        let mut inf = Inference::default();
        values.iter().for_each(|v| inf.observe(v));
        inf.result()
    }

    #[test]
    fn picks_the_narrowest_type_all_values_fit() {
        assert_eq!(infer(&["TRUE", "false"]), ColumnType::Boolean);
        assert_eq!(infer(&["1", "-20"]), ColumnType::BigInt);
        assert_eq!(infer(&["1", "2.50"]), ColumnType::Numeric(None));
        assert_eq!(infer(&["1", "2.5e-3"]), ColumnType::Double);
        assert_eq!(infer(&["2020-01-01", "2020-12-31"]), ColumnType::Date);
        assert_eq!(
            infer(&["2020-01-01", "2020-01-02 10:00:00"]),
            ColumnType::Timestamp
        );
        assert_eq!(infer(&[]), ColumnType::Text);
    }

    #[test]
    fn one_odd_value_makes_the_column_text() {
        assert_eq!(infer(&["1", "2", "n/a"]), ColumnType::Text);
        assert_eq!(infer(&["10", "007"]), ColumnType::Text);
        assert_eq!(infer(&["1", "0", "1"]), ColumnType::BigInt);
        assert_eq!(infer(&["2020-01-01T00:00:00Z"]), ColumnType::Text);
        assert_eq!(infer(&["99999999999999999999"]), ColumnType::Numeric(None));
    }
}
