//! Parsing one value into the physical form of an Airbyte type (Arrow's integers,
//! floats, days, microseconds). `None` means the value does not cast: the caller writes
//! NULL and records a `DESTINATION_TYPECAST_ERROR` change, as Destinations V2 does.
//!
//! Pure functions over text and JSON; nothing here knows about columns or batches.

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Timelike};
use serde_json::Value;

const EPOCH: NaiveDate = NaiveDate::from_ymd_opt(1970, 1, 1).expect("valid epoch");

pub fn int_from_text(text: &str) -> Option<i64> {
    let text = text.trim();
    text.parse::<i64>()
        .ok()
        .or_else(|| text.parse::<f64>().ok().and_then(integral))
}

fn integral(value: f64) -> Option<i64> {
    let in_range = value.is_finite() && value.abs() < 9.2e18 && value.fract() == 0.0;
    #[allow(clippy::cast_possible_truncation)]
    in_range.then_some(value as i64)
}

pub fn int_from_json(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().and_then(integral)),
        Value::String(s) => int_from_text(s),
        _ => None,
    }
}

pub fn float_from_text(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok()
}

pub fn float_from_json(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => float_from_text(s),
        _ => None,
    }
}

pub fn bool_from_text(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "t" | "true" | "y" | "yes" | "1" => Some(true),
        "f" | "false" | "n" | "no" | "0" => Some(false),
        _ => None,
    }
}

pub fn bool_from_json(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) => bool_from_text(s),
        _ => None,
    }
}

/// Days since 1970-01-01.
pub fn date_from_text(text: &str) -> Option<i32> {
    let text = text.trim();
    let date = NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .or_else(|| naive_from_text(text).map(|t| t.date()))?;
    i32::try_from(date.signed_duration_since(EPOCH).num_days()).ok()
}

const NAIVE_FORMATS: &[&str] = &[
    "%Y-%m-%dT%H:%M:%S%.f",
    "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%dT%H:%M",
    "%Y-%m-%d %H:%M",
];

const ZONED_FORMATS: &[&str] = &["%Y-%m-%d %H:%M:%S%.f%#z", "%Y-%m-%dT%H:%M:%S%.f%#z"];

fn naive_from_text(text: &str) -> Option<NaiveDateTime> {
    NAIVE_FORMATS
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(text, f).ok())
        .or_else(|| {
            NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .ok()
                .and_then(|d| d.and_hms_opt(0, 0, 0))
        })
}

fn zoned_from_text(text: &str) -> Option<DateTime<chrono::FixedOffset>> {
    DateTime::parse_from_rfc3339(text).ok().or_else(|| {
        ZONED_FORMATS
            .iter()
            .find_map(|f| DateTime::parse_from_str(text, f).ok())
    })
}

/// Microseconds since the epoch, UTC; a value without an offset is taken as UTC.
pub fn timestamp_tz_from_text(text: &str) -> Option<i64> {
    let text = text.trim();
    zoned_from_text(text)
        .map(|t| t.timestamp_micros())
        .or_else(|| naive_from_text(text).map(|t| t.and_utc().timestamp_micros()))
}

/// Microseconds since the epoch of the wall-clock time; an offset is dropped.
pub fn timestamp_ntz_from_text(text: &str) -> Option<i64> {
    let text = text.trim();
    naive_from_text(text)
        .or_else(|| zoned_from_text(text).map(|t| t.naive_local()))
        .map(|t| t.and_utc().timestamp_micros())
}

/// Microseconds since midnight.
pub fn time_from_text(text: &str) -> Option<i64> {
    let text = text.trim();
    let time = NaiveTime::parse_from_str(text, "%H:%M:%S%.f")
        .or_else(|_| NaiveTime::parse_from_str(text, "%H:%M"))
        .ok()?;
    Some(
        i64::from(time.num_seconds_from_midnight()) * 1_000_000
            + i64::from(time.nanosecond() / 1000),
    )
}

/// A JSON value as text for a string column: strings as they are, anything else as
/// its JSON text.
pub fn string_from_json(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Text that must hold a JSON document (a `json` column fed from text).
pub fn json_from_text(text: &str) -> Option<&str> {
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .is_ok()
        .then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_accept_integral_floats_only() {
        assert_eq!(int_from_text(" 42 "), Some(42));
        assert_eq!(int_from_text("42.0"), Some(42));
        assert_eq!(int_from_text("42.5"), None);
        assert_eq!(int_from_json(&json!("7")), Some(7));
        assert_eq!(int_from_json(&json!(true)), None);
    }

    #[test]
    fn timestamps_parse_postgres_and_iso_forms() {
        let utc = timestamp_tz_from_text("2024-01-02T03:04:05Z");
        assert_eq!(utc, Some(1_704_164_645_000_000));
        assert_eq!(timestamp_tz_from_text("2024-01-02 05:04:05+02"), utc);
        assert_eq!(timestamp_tz_from_text("2024-01-02 03:04:05"), utc);
        assert_eq!(
            timestamp_ntz_from_text("2024-01-02 03:04:05.5"),
            Some(1_704_164_645_500_000)
        );
        assert_eq!(timestamp_tz_from_text("yesterday"), None);
    }

    #[test]
    fn dates_times_and_booleans() {
        assert_eq!(date_from_text("1970-01-11"), Some(10));
        assert_eq!(date_from_text("1970-01-11 10:00:00"), Some(10));
        assert_eq!(time_from_text("00:00:01.5"), Some(1_500_000));
        assert_eq!(bool_from_text("t"), Some(true));
        assert_eq!(bool_from_json(&json!("maybe")), None);
        assert_eq!(json_from_text("{\"a\":1}"), Some("{\"a\":1}"));
        assert_eq!(json_from_text("{a"), None);
    }
}
