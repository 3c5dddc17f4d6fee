//! Calendar values of `date` and `timestamp` columns as numbers: days and microseconds
//! since 1970-01-01, for the sources whose formats store dates natively (BSON dates,
//! Parquet `DATE`/`TIMESTAMP`).
//!
//! A timestamp's zone suffix is ignored, as PostgreSQL's `timestamp without time zone`
//! ignores it, so every source sees the same wall-clock value; fractions beyond
//! microseconds are rounded half up, as PostgreSQL does. This module never guesses a
//! format: it reads only what `ColumnType::Date` / `ColumnType::Timestamp` accept.

use crate::values::parse_date;

const MICROS_PER_SECOND: i64 = 1_000_000;
const SECONDS_PER_DAY: i64 = 86_400;

/// Days since 1970-01-01 of a `date` value (`None` when it is not one).
pub fn date_days(value: &str) -> Option<i32> {
    let (y, m, d) = parse_date(value.trim())?;
    i32::try_from(days_from_civil(y, m, d)).ok()
}

/// Microseconds since 1970-01-01 00:00:00 of a `timestamp` value, zone ignored.
pub fn timestamp_micros(value: &str) -> Option<i64> {
    let v = value.trim();
    let (date, rest) = match v.find([' ', 'T']) {
        Some(at) => (&v[..at], &v[at + 1..]),
        None => (v, ""),
    };
    let (y, m, d) = parse_date(date)?;
    let time_end = rest.find(['+', '-', 'Z', ' ', 'U']).unwrap_or(rest.len());
    let micros_of_day = if rest.is_empty() {
        0
    } else {
        time_micros(&rest[..time_end])?
    };
    let days = days_from_civil(y, m, d);
    Some(days * SECONDS_PER_DAY * MICROS_PER_SECOND + micros_of_day)
}

/// `H:MM[:SS[.f]]` → microseconds since midnight.
fn time_micros(time: &str) -> Option<i64> {
    let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
    let mut parts = hms.split(':').map(|p| p.parse::<i64>().ok());
    let h = parts.next()??;
    let m = parts.next()??;
    let s = parts.next().unwrap_or(Some(0))?;
    if parts.next().is_some() || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((h * 3600 + m * 60 + s) * MICROS_PER_SECOND + fraction_micros(frac))
}

/// `.1234567` → 123457 (rounded half up at the seventh digit).
fn fraction_micros(frac: &str) -> i64 {
    let digits: String = format!("{frac:0<7}").chars().take(7).collect();
    let seven: i64 = digits.parse().unwrap_or(0);
    (seven + 5) / 10
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i32, m: u32, d: u32) -> i64 {
    let y = i64::from(y) - i64::from(m <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_count_days_from_the_epoch() {
        assert_eq!(date_days("1970-01-01"), Some(0));
        assert_eq!(date_days("2000-03-01"), Some(11_017));
        assert_eq!(date_days("1969-12-31"), Some(-1));
        assert_eq!(date_days("2023-02-29"), None);
    }

    #[test]
    fn timestamps_read_every_accepted_shape() {
        let base = 11_017 * 86_400 * 1_000_000;
        assert_eq!(timestamp_micros("2000-03-01"), Some(base));
        assert_eq!(
            timestamp_micros("2000-03-01T01:02:03.467"),
            Some(base + 3_723_467_000)
        );
        assert_eq!(
            timestamp_micros("2000-03-01 1:02"),
            Some(base + 3_720_000_000)
        );
        assert_eq!(
            timestamp_micros("2000-03-01 01:02:03.1234567+02:00"),
            Some(base + 3_723_123_457)
        );
        assert_eq!(
            timestamp_micros("2000-03-01 01:02:03 UTC"),
            Some(base + 3_723_000_000)
        );
        assert_eq!(timestamp_micros("soon"), None);
    }
}
