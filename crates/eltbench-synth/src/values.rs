//! One field value as CSV text: random values for ordinary columns
//! ([`value`]) and the n-th key of a key column ([`key_value`]).
//!
//! Values respect the kind (whole numbers, decimals at their scale, dates
//! `YYYY-MM-DD` in 2000–2024, timestamps `YYYY-MM-DD HH:MM:SS`, `true`/
//! `false`) and never come out empty (an empty field is NULL). Key values
//! are pure functions of the index, so a foreign key can name the n-th key
//! of another table without reading it. Nothing here decides NULLs.

use chrono::{Days, NaiveDate, NaiveDateTime, TimeDelta};
use rand::Rng;
use rand::seq::IndexedRandom;

use crate::rules::Flavor;
use crate::types::{ColumnType, Kind};
use crate::words;

/// Days from 2000-01-01 to 2024-12-31.
const DATE_SPAN_DAYS: u64 = 9131;

/// Value ranges of numeric flavors, `(flavor, min, max)`; others: 0..=1000.
const RANGES: &[(Flavor, i64, i64)] = &[
    (Flavor::Id, 1, 100_000),
    (Flavor::Flag, 0, 1),
    (Flavor::Year, 1990, 2024),
    (Flavor::Month, 1, 12),
    (Flavor::Day, 1, 28),
    (Flavor::Hour, 0, 23),
    (Flavor::Count, 0, 500),
    (Flavor::Amount, 0, 10_000),
    (Flavor::Percent, 0, 100),
    (Flavor::Rating, 1, 5),
    (Flavor::Age, 18, 90),
    (Flavor::Measure, 1, 1000),
    (Flavor::Zip, 10_000, 99_999),
    (Flavor::Latitude, -90, 90),
    (Flavor::Longitude, -180, 180),
];

fn range(flavor: Flavor) -> (i64, i64) {
    RANGES
        .iter()
        .find(|(f, _, _)| *f == flavor)
        .map_or((0, 1000), |(_, min, max)| (*min, *max))
}

/// A random value of a column of type `ty`.
pub fn value<R: Rng + ?Sized>(rng: &mut R, ty: &ColumnType) -> String {
    match ty.kind {
        Kind::Int => int(rng, ty.flavor).to_string(),
        Kind::Decimal { scale } => decimal(rng, ty.flavor, scale),
        Kind::Float => decimal(rng, ty.flavor, 3),
        Kind::Bool => rng.random_bool(0.5).to_string(),
        Kind::Date => date(rng).to_string(),
        Kind::Timestamp => timestamp(rng).to_string(),
        Kind::Text { max_len } => truncate(text(rng, ty), max_len),
    }
}

fn int<R: Rng + ?Sized>(rng: &mut R, flavor: Flavor) -> i64 {
    let (min, max) = range(flavor);
    rng.random_range(min..=max)
}

/// A decimal in the flavor's range printed with exactly `scale` decimals.
fn decimal<R: Rng + ?Sized>(rng: &mut R, flavor: Flavor, scale: u8) -> String {
    let (min, max) = range(flavor);
    let drawn = u32::from(scale.min(6));
    let unit = 10_i64.pow(drawn);
    let units = rng.random_range(min * unit..=max * unit);
    let sign = if units < 0 { "-" } else { "" };
    let (whole, frac) = (units.abs() / unit, units.abs() % unit);
    match scale {
        0 => format!("{sign}{whole}"),
        _ => {
            let padding = "0".repeat(usize::from(scale) - drawn as usize);
            format!(
                "{sign}{whole}.{frac:0width$}{padding}",
                width = drawn as usize
            )
        }
    }
}

fn date<R: Rng + ?Sized>(rng: &mut R) -> NaiveDate {
    nth_date(rng.random_range(0..DATE_SPAN_DAYS)).unwrap_or(NaiveDate::MIN)
}

fn timestamp<R: Rng + ?Sized>(rng: &mut R) -> NaiveDateTime {
    let seconds = rng.random_range(0..86_400);
    date(rng).and_time(chrono::NaiveTime::MIN) + TimeDelta::seconds(seconds)
}

fn nth_date(n: u64) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(2000, 1, 1)?.checked_add_days(Days::new(n))
}

fn text<R: Rng + ?Sized>(rng: &mut R, ty: &ColumnType) -> String {
    use Flavor as F;
    let pick = |rng: &mut R, list: &[&str]| list.choose(rng).copied().unwrap_or("x").to_owned();
    match ty.flavor {
        F::Date => date(rng).to_string(),
        F::Timestamp => timestamp(rng).to_string(),
        F::Amount | F::Percent | F::Measure | F::Latitude | F::Longitude => {
            decimal(rng, ty.flavor, ty.flavor.scale())
        }
        F::Id => format!("{}{:05}", ty.prefix, int(rng, F::Id)),
        F::Flag => rng.random_bool(0.5).to_string(),
        f if f.is_integral() => int(rng, f).to_string(),
        F::FirstName => pick(rng, words::FIRST_NAMES),
        F::LastName => pick(rng, words::LAST_NAMES),
        F::PersonName => person(rng),
        F::Email => email(rng),
        F::Phone => format!(
            "555-{:03}-{:04}",
            rng.random_range(100..1000),
            rng.random_range(0..10_000)
        ),
        F::Url => format!(
            "https://www.{}.example.com/{}",
            pick(rng, words::WORDS),
            pick(rng, words::WORDS)
        ),
        F::Address => format!(
            "{} {} {}",
            rng.random_range(1..2000),
            capitalized(&pick(rng, words::WORDS)),
            pick(rng, words::STREETS)
        ),
        F::City => pick(rng, words::CITIES),
        F::State => pick(rng, words::STATES),
        F::Country => pick(rng, words::COUNTRIES),
        F::Currency => pick(rng, words::CURRENCIES),
        F::Status => pick(rng, words::STATUSES),
        F::Gender => pick(rng, words::GENDERS),
        F::Color => pick(rng, words::COLORS),
        F::Category => pick(rng, words::CATEGORIES),
        F::Code => (0..3)
            .map(|_| char::from(rng.random_range(b'A'..=b'Z')))
            .collect(),
        F::Name => phrase(rng, 2),
        F::Title => {
            let n = rng.random_range(2..=4);
            phrase(rng, n)
        }
        F::Sentence => sentence(rng),
        _ => pick(rng, words::WORDS),
    }
}

fn person<R: Rng + ?Sized>(rng: &mut R) -> String {
    let first = words::FIRST_NAMES.choose(rng).copied().unwrap_or("Ann");
    let last = words::LAST_NAMES.choose(rng).copied().unwrap_or("Lee");
    format!("{first} {last}")
}

fn email<R: Rng + ?Sized>(rng: &mut R) -> String {
    let first = words::FIRST_NAMES.choose(rng).copied().unwrap_or("ann");
    let last = words::LAST_NAMES.choose(rng).copied().unwrap_or("lee");
    let n = rng.random_range(1..1000);
    format!("{first}.{last}{n}@example.com").to_lowercase()
}

/// `n` capitalised words.
fn phrase<R: Rng + ?Sized>(rng: &mut R, n: usize) -> String {
    let words: Vec<String> = (0..n)
        .map(|_| capitalized(words::WORDS.choose(rng).copied().unwrap_or("word")))
        .collect();
    words.join(" ")
}

fn sentence<R: Rng + ?Sized>(rng: &mut R) -> String {
    let n = rng.random_range(4..=9);
    let words: Vec<&str> = (0..n)
        .map(|_| words::WORDS.choose(rng).copied().unwrap_or("word"))
        .collect();
    format!("{}.", capitalized(&words.join(" ")))
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn truncate(text: String, max_len: Option<u32>) -> String {
    match max_len {
        Some(n) if text.chars().count() > n as usize => {
            text.chars().take(n.max(1) as usize).collect()
        }
        _ => text,
    }
}

/// The `idx`-th (0-based) key of a column of type `ty`: distinct for
/// distinct `idx` (booleans excepted), and within the kind.
pub fn key_value(ty: &ColumnType, idx: u64) -> String {
    match ty.kind {
        Kind::Int | Kind::Decimal { .. } | Kind::Float => numeric_key(ty.flavor, idx),
        Kind::Bool => (idx % 2 == 1).to_string(),
        Kind::Date => date_key(idx),
        Kind::Timestamp => timestamp_key(idx),
        Kind::Text { max_len } => fitted(text_key(ty, idx), ty, idx, max_len),
    }
}

fn numeric_key(flavor: Flavor, idx: u64) -> String {
    let base = match flavor {
        Flavor::Year => 1950,
        Flavor::Zip => 10_001,
        _ => 1,
    };
    (u128::from(idx) + base).to_string()
}

fn date_key(idx: u64) -> String {
    nth_date(idx).map_or_else(|| idx.to_string(), |d| d.to_string())
}

fn timestamp_key(idx: u64) -> String {
    let hours = i64::try_from(idx).ok().and_then(TimeDelta::try_hours);
    let start = nth_date(0).map(|d| d.and_time(chrono::NaiveTime::MIN));
    match (start, hours) {
        (Some(start), Some(hours)) => start
            .checked_add_signed(hours)
            .map_or_else(|| idx.to_string(), |t| t.to_string()),
        _ => idx.to_string(),
    }
}

fn text_key(ty: &ColumnType, idx: u64) -> String {
    match ty.flavor {
        Flavor::Date => date_key(idx),
        Flavor::Timestamp => timestamp_key(idx),
        Flavor::Email => format!("user{}@example.com", u128::from(idx) + 1),
        Flavor::Id => format!("{}{:05}", ty.prefix, u128::from(idx) + 1),
        f if f.is_integral() => numeric_key(f, idx),
        _ => format!("{}{:05}", ty.prefix, u128::from(idx) + 1),
    }
}

/// A text key that fits `max_len`: the key itself, else `idx` in base 36
/// left-padded to the limit.
fn fitted(key: String, ty: &ColumnType, idx: u64, max_len: Option<u32>) -> String {
    let Some(max) = max_len.map(|m| m as usize) else {
        return key;
    };
    if key.len() <= max {
        return key;
    }
    let mut digits = base36(idx);
    let pad = ty.prefix.chars().next().unwrap_or('K');
    while digits.len() < max {
        digits.insert(0, if digits.len() + 1 == max { pad } else { '0' });
    }
    digits
}

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn ty(kind: Kind, flavor: Flavor) -> ColumnType {
        ColumnType::new(kind, flavor, "episode_id")
    }

    #[test]
    fn values_respect_their_kind() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200 {
            let d = value(&mut rng, &ty(Kind::Decimal { scale: 2 }, Flavor::Amount));
            let (whole, frac) = d.split_once('.').unwrap();
            assert!(
                whole.parse::<u32>().unwrap() <= 10_000 && frac.len() == 2,
                "{d}"
            );
            let wide = value(&mut rng, &ty(Kind::Decimal { scale: 8 }, Flavor::Latitude));
            assert_eq!(wide.split_once('.').unwrap().1.len(), 8, "{wide}");
            let date = value(&mut rng, &ty(Kind::Date, Flavor::Plain));
            assert!(
                ("2000-01-01".."2025-01-01").contains(&date.as_str()),
                "{date}"
            );
            let ts = value(&mut rng, &ty(Kind::Timestamp, Flavor::Plain));
            assert!(
                NaiveDateTime::parse_from_str(&ts, "%Y-%m-%d %H:%M:%S").is_ok(),
                "{ts}"
            );
            let b = value(&mut rng, &ty(Kind::Bool, Flavor::Plain));
            assert!(b == "true" || b == "false");
            let year = value(&mut rng, &ty(Kind::Int, Flavor::Year));
            assert!((1990..=2024).contains(&year.parse::<i32>().unwrap()));
            let short = value(
                &mut rng,
                &ty(Kind::Text { max_len: Some(2) }, Flavor::Sentence),
            );
            assert!(!short.is_empty() && short.chars().count() <= 2, "{short}");
            let email = value(&mut rng, &ty(Kind::Text { max_len: None }, Flavor::Email));
            assert!(email.ends_with("@example.com"), "{email}");
        }
    }

    #[test]
    fn keys_are_distinct_and_fit_their_column() {
        let kinds = [
            ty(Kind::Int, Flavor::Id),
            ty(Kind::Text { max_len: None }, Flavor::Id),
            ty(Kind::Text { max_len: Some(6) }, Flavor::Date),
            ty(Kind::Date, Flavor::Date),
            ty(Kind::Timestamp, Flavor::Plain),
        ];
        for t in &kinds {
            let keys: std::collections::BTreeSet<String> =
                (0..5000).map(|i| key_value(t, i)).collect();
            assert_eq!(keys.len(), 5000, "{t:?}");
        }
        assert_eq!(key_value(&kinds[0], 0), "1");
        assert_eq!(key_value(&kinds[1], 41), "EPI00042");
        assert_eq!(key_value(&kinds[2], 37).len(), 6);
        assert_eq!(key_value(&ty(Kind::Int, Flavor::Year), 3), "1953");
    }
}
