//! Lexical checks on textual field values: numbers, booleans, dates, timestamps.
//!
//! Two levels: the `is_pg_*`/`parse_*` checks mirror (a subset of) what PostgreSQL's
//! input functions accept; the `strict_*` checks are the narrower forms type inference
//! trusts, chosen so that the inferred type prints the value back the way it was
//! written. Nothing here allocates or converts a stored value.

/// PostgreSQL boolean input words (a subset: no unique-prefix forms).
const PG_BOOLEAN_WORDS: [&str; 12] = [
    "t", "true", "y", "yes", "on", "1", "f", "false", "n", "no", "off", "0",
];

pub(crate) fn is_pg_boolean(value: &str) -> bool {
    let v = value.trim();
    PG_BOOLEAN_WORDS.iter().any(|w| w.eq_ignore_ascii_case(v))
}

/// The truth value of a PostgreSQL boolean input word (`Yes` → true, `0` → false).
pub(crate) fn pg_boolean(value: &str) -> Option<bool> {
    let v = value.trim();
    let at = PG_BOOLEAN_WORDS
        .iter()
        .position(|w| w.eq_ignore_ascii_case(v))?;
    Some(at < PG_BOOLEAN_WORDS.len() / 2)
}

/// Inference accepts only the words `true`/`false` (any case).
pub(crate) fn strict_boolean(value: &str) -> bool {
    value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false")
}

/// An optionally signed run of ASCII digits that fits an `i64`.
pub(crate) fn parse_int(value: &str) -> Option<i64> {
    let digits = value.strip_prefix(['+', '-']).unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// An integer written without `+`, whitespace or leading zeros (so `007` stays text).
pub(crate) fn strict_int(value: &str) -> bool {
    let digits = value.strip_prefix('-').unwrap_or(value);
    no_leading_zero(digits)
        && digits.bytes().all(|b| b.is_ascii_digit())
        && parse_int(value).is_some()
}

fn no_leading_zero(digits: &str) -> bool {
    digits == "0" || (!digits.starts_with('0') && !digits.is_empty())
}

/// A float as PostgreSQL's `float8in` takes it: finite literals that do not
/// overflow, and the words NaN / Infinity / inf.
pub(crate) fn parse_float(value: &str) -> Option<f64> {
    let v = value.trim();
    let parsed: f64 = v.parse().ok()?;
    let word = v.trim_start_matches(['+', '-']).to_ascii_lowercase();
    let is_word = matches!(word.as_str(), "inf" | "infinity" | "nan");
    (parsed.is_finite() || is_word).then_some(parsed)
}

/// A plain decimal literal (`-12.50`): what inference maps to `numeric`.
pub(crate) fn strict_decimal(value: &str) -> bool {
    let body = value.strip_prefix('-').unwrap_or(value);
    let (int, frac) = body.split_once('.').unwrap_or((body, "0"));
    no_leading_zero(int)
        && int.bytes().all(|b| b.is_ascii_digit())
        && !frac.is_empty()
        && frac.bytes().all(|b| b.is_ascii_digit())
}

/// A literal with an exponent (`1.5e-05`): what inference maps to `double precision`.
pub(crate) fn strict_float(value: &str) -> bool {
    value.contains(['e', 'E'])
        && value == value.trim()
        && parse_float(value).is_some_and(f64::is_finite)
}

/// PostgreSQL `numeric` input, checked against `(precision, scale)` when given.
pub(crate) fn is_numeric(value: &str, limits: Option<(u32, u32)>) -> bool {
    if value.eq_ignore_ascii_case("nan") {
        return true;
    }
    let Some(shape) = DecimalShape::of(value) else {
        return false;
    };
    match limits {
        None => true,
        Some((p, s)) => shape.fits(p, s),
    }
}

/// Digit counts of a decimal literal, after applying its exponent.
struct DecimalShape {
    int_digits: i64,
    frac_digits: i64,
}

impl DecimalShape {
    fn of(value: &str) -> Option<Self> {
        let body = value.strip_prefix(['+', '-']).unwrap_or(value);
        let (mantissa, exp) = match body.split_once(['e', 'E']) {
            Some((m, e)) => (m, parse_int(e)?),
            None => (body, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int.len() + frac.len() == 0 || !all_digits(int) || !all_digits(frac) {
            return None;
        }
        let significant_int = int.trim_start_matches('0').len() as i64;
        Some(Self {
            int_digits: (significant_int + exp).max(0),
            frac_digits: (frac.len() as i64 - exp).max(0),
        })
    }

    /// Conservative: a value whose rounding could carry into a new digit is refused.
    fn fits(&self, precision: u32, scale: u32) -> bool {
        let room = i64::from(precision) - i64::from(scale);
        self.int_digits < room || (self.int_digits == room && self.frac_digits <= i64::from(scale))
    }
}

/// `YYYY-M-D` (one- or two-digit month and day) naming a real calendar day.
pub(crate) fn parse_date(value: &str) -> Option<(i32, u32, u32)> {
    let mut parts = value.splitn(3, '-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    let ok_len = y.len() == 4 && (1..=2).contains(&m.len()) && (1..=2).contains(&d.len());
    if !ok_len
        || ![y, m, d]
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let (y, m, d) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    ((1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m)).then_some((y, m, d))
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `YYYY-MM-DD` exactly.
pub(crate) fn strict_date(value: &str) -> bool {
    value.len() == 10 && parse_date(value).is_some()
}

/// A timestamp PostgreSQL's `timestamp` input takes: a date, optionally followed by
/// ` ` or `T` and `H:MM[:SS[.f]]`, optionally followed by a zone (ignored by
/// `timestamp without time zone`) when `allow_zone`.
pub(crate) fn is_timestamp(value: &str, allow_zone: bool) -> bool {
    let Some(date_end) = value.find([' ', 'T']) else {
        return parse_date(value).is_some();
    };
    let (date, rest) = value.split_at(date_end);
    let time_and_zone = &rest[1..];
    let zone_at = time_and_zone
        .find(['+', '-', 'Z', ' ', 'U'])
        .unwrap_or(time_and_zone.len());
    let (time, zone) = time_and_zone.split_at(zone_at);
    parse_date(date).is_some()
        && is_time(time)
        && (zone.is_empty() || (allow_zone && is_zone(zone.trim_start())))
}

/// `YYYY-MM-DD[ T]HH:MM:SS[.f]` with no zone: what inference maps to `timestamp`.
pub(crate) fn strict_timestamp(value: &str) -> bool {
    value.len() >= 19
        && value.get(..10).is_some_and(strict_date)
        && is_timestamp(value, false)
        && value.as_bytes()[13] == b':'
}

fn is_time(time: &str) -> bool {
    let (hms, frac) = time.split_once('.').unwrap_or((time, "0"));
    let parts: Vec<&str> = hms.split(':').collect();
    let numeric = |p: &&str| !p.is_empty() && p.len() <= 2 && p.bytes().all(|b| b.is_ascii_digit());
    if !(2..=3).contains(&parts.len())
        || !parts.iter().all(numeric)
        || parts[1..].iter().any(|p| p.len() != 2)
    {
        return false;
    }
    let limits = [23, 59, 59];
    let in_range = parts
        .iter()
        .zip(limits)
        .all(|(p, max)| p.parse::<u32>().is_ok_and(|n| n <= max));
    in_range && !frac.is_empty() && frac.bytes().all(|b| b.is_ascii_digit())
}

fn is_zone(zone: &str) -> bool {
    if zone == "Z" || zone == "UTC" {
        return true;
    }
    let Some(offset) = zone.strip_prefix(['+', '-']) else {
        return false;
    };
    let digits: String = offset.chars().filter(|c| *c != ':').collect();
    matches!(digits.len(), 2 | 4) && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_forms_refuse_what_would_not_print_back_the_same() {
        assert!(strict_int("-42") && strict_int("0"));
        assert!(!strict_int("007") && !strict_int("+1") && !strict_int(" 1"));
        assert!(strict_decimal("12.50") && strict_decimal("-0.5") && strict_decimal("3"));
        assert!(!strict_decimal("1.") && !strict_decimal(".5") && !strict_decimal("01.5"));
        assert!(strict_float("1.5e-05") && !strict_float("1.5"));
        assert!(
            strict_date("2024-02-29") && !strict_date("2023-02-29") && !strict_date("2024-2-9")
        );
        assert!(
            strict_timestamp("2022-07-28T15:40:07.467") && strict_timestamp("2019-12-10 12:03:36")
        );
        assert!(
            !strict_timestamp("2016-06-25 0:54:37") && !strict_timestamp("2019-12-10 12:03:36+00")
        );
    }

    #[test]
    fn postgres_forms_accept_what_the_server_takes() {
        assert_eq!(pg_boolean(" Yes"), Some(true));
        assert_eq!(pg_boolean("OFF"), Some(false));
        assert_eq!(pg_boolean("maybe"), None);
        assert_eq!(parse_int("+17"), Some(17));
        assert_eq!(parse_int("99999999999999999999"), None);
        assert!(parse_float("NaN").is_some() && parse_float("-Infinity").is_some());
        assert!(parse_float("1e400").is_none());
        assert!(is_numeric("1.5e3", Some((6, 2))) && !is_numeric("1.5e5", Some((6, 2))));
        assert!(is_timestamp("2021-09-15 5:00:00", true));
        assert!(
            is_timestamp("2021-09-15 05:00:00+02:00", true)
                && !is_timestamp("2021-09-15 05:00:00+02", false)
        );
        assert!(is_timestamp("2021-09-15", true) && !is_timestamp("2021-09-15 25:00:00", true));
    }
}
