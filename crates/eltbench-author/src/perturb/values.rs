//! Regenerated values: each non-NULL value is transformed by its shape, the
//! same way in every table and column, so keys stay joinable and unique:
//! integers with |v| >= 10 move away from zero by a seeded offset (small
//! codes and flags keep their meaning), other numbers are scaled by a seeded
//! factor keeping their decimals, dates and timestamps shift by a seeded
//! number of years (a multiple of 4: month starts, month ends and leap days
//! keep their meaning), booleans stay, and any other text is replaced by a
//! seeded word of the same length (one-to-one). [`Values::literal`] maps SQL
//! literals the same way so filters keep selecting the same rows. Never
//! reads files.

use std::collections::{BTreeMap, BTreeSet};

use super::names::{hash, next, word};
use crate::infer::{is_date, is_timestamp};

/// The value perturbation of one suite.
#[derive(Debug, Clone)]
pub struct Values {
    seed: u64,
    offset: i64,
    factor_pct: i64,
    years: i64,
    text: BTreeMap<String, String>,
    used: BTreeSet<String>,
}

impl Values {
    pub fn new(seed: u64) -> Self {
        let mut state = hash(seed, "values") | 1;
        Self {
            seed,
            offset: 1000 + (next(&mut state) % 9000) as i64,
            factor_pct: 103 + (next(&mut state) % 15) as i64,
            years: 4 * (1 + (next(&mut state) % 5) as i64),
            text: BTreeMap::new(),
            used: BTreeSet::new(),
        }
    }

    /// The new value of one field.
    pub fn apply(&mut self, value: &str) -> String {
        if let Ok(v) = value.parse::<i64>() {
            return self.integer(v).to_string();
        }
        if let Some(v) = self.number(value) {
            return v;
        }
        if is_date(value) || is_timestamp(value) {
            return shift_date(value, self.years).unwrap_or_else(|| value.to_owned());
        }
        if matches!(
            value,
            "true" | "false" | "TRUE" | "FALSE" | "True" | "False"
        ) {
            return value.to_owned();
        }
        self.text_value(value)
    }

    /// The mapped text of a value already seen in the data.
    pub fn mapped_text(&self, value: &str) -> Option<String> {
        self.text.get(value).cloned()
    }

    /// A SQL literal mapped as the data was: integers, dates and timestamps
    /// by shape, text only when the data had it. `None`: keep it.
    pub fn literal(&self, value: &str) -> Option<String> {
        if let Ok(v) = value.parse::<i64>() {
            return Some(self.integer(v).to_string());
        }
        if is_date(value) || is_timestamp(value) {
            return shift_date(value, self.years);
        }
        self.mapped_text(value)
    }

    fn integer(&self, v: i64) -> i64 {
        match v {
            v if v >= 10 => v.saturating_add(self.offset),
            v if v <= -10 => v.saturating_sub(self.offset),
            v => v,
        }
    }

    fn number(&self, value: &str) -> Option<String> {
        let v: f64 = value.parse().ok().filter(|v: &f64| v.is_finite())?;
        if value.contains(['e', 'E'])
            || !value
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
        {
            return None;
        }
        let decimals = value.split_once('.').map_or(0, |(_, d)| d.len());
        Some(format!(
            "{:.*}",
            decimals,
            v * self.factor_pct as f64 / 100.0
        ))
    }

    fn text_value(&mut self, value: &str) -> String {
        if let Some(new) = self.text.get(value) {
            return new.clone();
        }
        let len = value.chars().count().max(1);
        let mut state = hash(self.seed, value) | 1;
        let mut tries = 0usize;
        let new = loop {
            let extra = tries / 20;
            let mut w = word(&mut state, len.div_ceil(2) + extra);
            w.truncate(len + extra);
            if value.starts_with(|c: char| c.is_ascii_uppercase()) {
                w = capitalize(&w);
            }
            if w != value && self.used.insert(w.clone()) {
                break w;
            }
            tries += 1;
        };
        self.text.insert(value.to_owned(), new.clone());
        new
    }
}

fn capitalize(w: &str) -> String {
    let mut chars = w.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// Shifts the year of the date at the start of `value` by `years` (the rest
/// is kept); a 29 February that lands in a common year becomes the 28th.
fn shift_date(value: &str, years: i64) -> Option<String> {
    let y: i64 = value.get(0..4)?.parse().ok()?;
    let m: i64 = value.get(5..7)?.parse().ok()?;
    let d: i64 = value.get(8..10)?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let ny = y + years;
    let leap = (ny % 4 == 0 && ny % 100 != 0) || ny % 400 == 0;
    let nd = if m == 2 && d == 29 && !leap { 28 } else { d };
    Some(format!("{ny:04}-{m:02}-{nd:02}{}", &value[10..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_change_by_shape_and_keys_stay_one_to_one() {
        let mut v = Values::new(5);
        let (a, b) = (v.apply("1234"), v.apply("1234"));
        assert_eq!(a, b);
        assert_ne!(a, "1234");
        assert_eq!(v.apply("3"), "3");
        assert_eq!(v.apply("true"), "true");
        let texts: BTreeSet<String> = ["Ann", "Bob", "Cid", "ann"]
            .iter()
            .map(|t| v.apply(t))
            .collect();
        assert_eq!(texts.len(), 4);
        assert_eq!(v.apply("Ann").len(), 3);
        assert_eq!(v.mapped_text("Ann"), Some(v.apply("Ann")));
        assert_eq!(v.apply("2.50").split_once('.').unwrap().1.len(), 2);
    }

    #[test]
    fn dates_shift_by_whole_years() {
        assert_eq!(
            shift_date("2023-12-31 10:00:00", 8).unwrap(),
            "2031-12-31 10:00:00"
        );
        assert_eq!(shift_date("2024-02-29", 4).unwrap(), "2028-02-29");
        assert_eq!(shift_date("2096-02-29", 4).unwrap(), "2100-02-28");
        assert_eq!(shift_date("2024-13-01", 4), None);
    }

    #[test]
    fn sql_literals_map_like_the_data() {
        let mut v = Values::new(9);
        let (id, day, name) = (v.apply("41"), v.apply("2024-01-01"), v.apply("Bob"));
        assert_eq!(v.literal("41"), Some(id));
        assert_eq!(v.literal("2024-01-01"), Some(day));
        assert_eq!(v.literal("Bob"), Some(name));
        assert_eq!(v.literal("1 month"), None);
        assert_eq!(v.literal("7"), Some("7".to_owned()));
    }
}
