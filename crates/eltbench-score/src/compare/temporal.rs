//! Canonical textual forms of dates, times and timestamps, so that the same
//! instant written by different tools compares equal: `2024-01-05T10:00:00Z`,
//! `2024-01-05 10:00:00`, `2024-01-05 10:00:00.000` and `2024-01-05
//! 10:00:00+00:00` all become `2024-01-05 10:00:00`, and a date becomes its
//! midnight timestamp.
//!
//! A timestamp with a UTC offset (`2024-01-05 02:00:00-08`, as DuckDB renders
//! a `TIMESTAMPTZ` in a non-UTC session) is converted to UTC, and timestamps
//! without one are taken as UTC. This module only rewrites text; it must
//! never make two different instants equal.

/// The canonical form of a date, timestamp or time of day, or `None` when
/// `text` is none of those.
pub(crate) fn canonical(text: &str) -> Option<String> {
    let text = text.trim();
    if let Some(time) = canonical_time(text) {
        return Some(time);
    }
    let (date, rest) = split_date(text)?;
    if rest.is_empty() {
        return Some(format!("{date} 00:00:00"));
    }
    let rest = rest.strip_prefix(['T', ' '])?;
    let (clock, offset_minutes) = split_zone(rest)?;
    let clock = canonical_time(clock)?;
    let clock = if clock.len() == 5 {
        format!("{clock}:00")
    } else {
        clock
    };
    if offset_minutes == 0 {
        return Some(format!("{date} {clock}"));
    }
    to_utc(date, &clock, offset_minutes)
}

/// `date clock` at `offset_minutes` east of UTC, rewritten in UTC.
fn to_utc(date: &str, clock: &str, offset_minutes: i64) -> Option<String> {
    let number = |s: &str| s.parse::<i64>().ok();
    let (year, month, day) = (
        number(&date[..4])?,
        number(&date[5..7])?,
        number(&date[8..10])?,
    );
    let (hour, minute) = (number(&clock[..2])?, number(&clock[3..5])?);
    let rest = &clock[5..];
    let minutes = days_from_civil(year, month, day) * 1440 + hour * 60 + minute - offset_minutes;
    let (days, in_day) = (minutes.div_euclid(1440), minutes.rem_euclid(1440));
    let (year, month, day) = civil_from_days(days);
    Some(format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}{rest}",
        in_day / 60,
        in_day % 60
    ))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `YYYY-MM-DD` at the start of `text`, validated, and what follows it.
fn split_date(text: &str) -> Option<(&str, &str)> {
    let date = text.get(..10)?;
    let b = date.as_bytes();
    let shape = b[4] == b'-' && b[7] == b'-' && digits(&date[..4]);
    if !shape || !in_range(&date[5..7], 1, 12) || !in_range(&date[8..10], 1, 31) {
        return None;
    }
    Some((date, &text[10..]))
}

/// `HH:MM[:SS[.fraction]]` with trailing zeros of the fraction removed
/// (`10:00:00.000` → `10:00:00`).
fn canonical_time(text: &str) -> Option<String> {
    let (clock, fraction) = match text.split_once('.') {
        Some((clock, fraction)) if !fraction.is_empty() && digits(fraction) => {
            (clock, fraction.trim_end_matches('0'))
        }
        Some(_) => return None,
        None => (text, ""),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    let valid = matches!(parts.len(), 2 | 3)
        && parts.iter().all(|p| p.len() == 2 && digits(p))
        && in_range(parts[0], 0, 24)
        && parts[1..].iter().all(|p| in_range(p, 0, 60));
    if !valid || (parts.len() == 2 && !fraction.is_empty()) {
        return None;
    }
    let mut out = clock.to_string();
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    Some(out)
}

/// Splits a trailing UTC offset (`Z`, `+00`, `+05:30`, `-0800`) off a clock
/// and returns it in minutes east of UTC (0 when there is none).
fn split_zone(text: &str) -> Option<(&str, i64)> {
    if let Some(clock) = text.strip_suffix('Z').or_else(|| text.strip_suffix(" UTC")) {
        return Some((clock, 0));
    }
    let Some(at) = text.rfind(['+', '-']) else {
        return Some((text, 0));
    };
    let (clock, zone) = text.split_at(at);
    let (sign, offset) = zone.split_at(1);
    let offset: String = offset.chars().filter(|c| *c != ':').collect();
    let (hours, minutes) = match offset.len() {
        2 => (&offset[..2], "00"),
        4 => (&offset[..2], &offset[2..]),
        _ => return None,
    };
    if !digits(hours) || !digits(minutes) {
        return None;
    }
    let minutes = hours.parse::<i64>().ok()? * 60 + minutes.parse::<i64>().ok()?;
    Some((clock, if sign == "-" { -minutes } else { minutes }))
}

fn digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

fn in_range(text: &str, low: u32, high: u32) -> bool {
    text.parse::<u32>().is_ok_and(|n| (low..=high).contains(&n))
}

#[cfg(test)]
mod tests {
    use super::canonical;

    #[test]
    fn spellings_of_one_instant_share_a_form() {
        let forms = [
            "2024-01-05T10:00:00Z",
            "2024-01-05 10:00:00",
            "2024-01-05 10:00:00.000",
            "2024-01-05 10:00:00+00",
            "2024-01-05 10:00:00+00:00",
            "2024-01-05T10:00",
        ];
        for form in forms {
            assert_eq!(
                canonical(form).as_deref(),
                Some("2024-01-05 10:00:00"),
                "{form}"
            );
        }
    }

    #[test]
    fn dates_are_midnight_and_fractions_lose_trailing_zeros() {
        assert_eq!(
            canonical("2024-01-05").as_deref(),
            Some("2024-01-05 00:00:00")
        );
        assert_eq!(
            canonical("2025-03-01 19:42:58.123000").as_deref(),
            Some("2025-03-01 19:42:58.123")
        );
        assert_eq!(canonical("10:00:00.500").as_deref(), Some("10:00:00.5"));
    }

    #[test]
    fn offsets_are_applied_across_day_month_and_year_boundaries() {
        let cases = [
            ("2024-01-05 02:00:00-08", "2024-01-05 10:00:00"),
            ("2024-01-05 20:30:00.25-0800", "2024-01-06 04:30:00.25"),
            ("2024-03-01 01:00:00+05:30", "2024-02-29 19:30:00"),
            ("2023-12-31 23:00:00-02:00", "2024-01-01 01:00:00"),
            ("1969-12-31 23:59:00-00:01", "1970-01-01 00:00:00"),
        ];
        for (text, utc) in cases {
            assert_eq!(canonical(text).as_deref(), Some(utc), "{text}");
        }
    }

    #[test]
    fn non_dates_are_rejected() {
        for text in [
            "2024-13-01",
            "2024-01-05x",
            "hello",
            "12345",
            "2024-01-05 10:00:00.",
            "",
        ] {
            assert_eq!(canonical(text), None, "{text}");
        }
    }
}
