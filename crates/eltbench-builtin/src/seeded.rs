//! [`Gen`]: the seeded random source every domain draws from (ChaCha8, seeded
//! from the task name, so one domain's data does not move when another
//! changes), with helpers for names, dates, money and picks. Values are
//! formatted here as text, portably (no float formatting of computed values).

use chrono::{Days, NaiveDate, NaiveDateTime};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const FIRST: &[&str] = &[
    "Ada", "Bruno", "Chen", "Dalia", "Emeka", "Freya", "Goran", "Hana", "Ivo", "Jun", "Kira",
    "Luis", "Mira", "Nils", "Olu", "Priya", "Quinn", "Rosa", "Sami", "Tove", "Uma", "Viktor",
    "Wen", "Ximena", "Yusuf", "Zora",
];
const LAST: &[&str] = &[
    "Abara",
    "Berg",
    "Costa",
    "Dubois",
    "Eze",
    "Fischer",
    "Garcia",
    "Haddad",
    "Ito",
    "Jensen",
    "Kowalski",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Quispe",
    "Rossi",
    "Silva",
    "Tanaka",
    "Ueda",
    "Varga",
    "Weber",
    "Yilmaz",
];

/// A seeded generator.
pub struct Gen {
    rng: ChaCha8Rng,
}

impl Gen {
    /// A generator seeded from `name` (FNV-1a of its bytes).
    pub fn new(name: &str) -> Self {
        let seed = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// An integer in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        self.rng.random_range(lo..=hi)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: i64) -> bool {
        self.int(1, 100) <= percent
    }

    /// One element of `items` (which must not be empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        let last = i64::try_from(items.len()).unwrap_or(1) - 1;
        let index = usize::try_from(self.int(0, last.max(0))).unwrap_or(0);
        items[index]
    }

    /// A first name.
    pub fn first_name(&mut self) -> &'static str {
        self.pick(FIRST)
    }

    /// A last name.
    pub fn last_name(&mut self) -> &'static str {
        self.pick(LAST)
    }

    /// A date `0..=span` days after `start` (`YYYY-MM-DD`), as text.
    pub fn date(&mut self, start: &str, span: i64) -> String {
        let day = self.int(0, span);
        add_days(start, day)
    }

    /// A timestamp `0..=span` days after `start`, between 06:00 and 21:59.
    pub fn timestamp(&mut self, start: &str, span: i64) -> String {
        let date = self.date(start, span);
        let (h, m) = (self.int(6, 21), self.int(0, 59));
        format!("{date} {h:02}:{m:02}:00")
    }

    /// An amount in `lo..=hi` cents as `units.cc`.
    pub fn money(&mut self, lo_cents: i64, hi_cents: i64) -> String {
        cents(self.int(lo_cents, hi_cents))
    }
}

/// Cents as `units.cc`.
pub fn cents(c: i64) -> String {
    let sign = if c < 0 { "-" } else { "" };
    let c = c.abs();
    format!("{sign}{}.{:02}", c / 100, c % 100)
}

/// `date` (`YYYY-MM-DD`) plus `days`, as text; `date` unchanged if unparsable.
pub fn add_days(date: &str, days: i64) -> String {
    let Ok(d) = NaiveDate::parse_from_str(date, "%Y-%m-%d") else {
        return date.to_owned();
    };
    let moved = match u64::try_from(days) {
        Ok(n) => d.checked_add_days(Days::new(n)),
        Err(_) => d.checked_sub_days(Days::new(days.unsigned_abs())),
    };
    moved.unwrap_or(d).format("%Y-%m-%d").to_string()
}

/// `ts` (`YYYY-MM-DD HH:MM:SS`) plus `minutes`, as text.
pub fn add_minutes(ts: &str, minutes: i64) -> String {
    let Ok(t) = NaiveDateTime::parse_from_str(ts, "%Y-%m-%d %H:%M:%S") else {
        return ts.to_owned();
    };
    let moved = t + chrono::Duration::minutes(minutes);
    moved.format("%Y-%m-%d %H:%M:%S").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_name_same_values() {
        let (mut a, mut b) = (Gen::new("x"), Gen::new("x"));
        let va: Vec<i64> = (0..20).map(|_| a.int(0, 1000)).collect();
        let vb: Vec<i64> = (0..20).map(|_| b.int(0, 1000)).collect();
        assert_eq!(va, vb);
        let mut c = Gen::new("y");
        let vc: Vec<i64> = (0..20).map(|_| c.int(0, 1000)).collect();
        assert_ne!(va, vc);
    }

    #[test]
    fn formats() {
        assert_eq!(cents(12345), "123.45");
        assert_eq!(cents(-5), "-0.05");
        assert_eq!(add_days("2024-02-28", 2), "2024-03-01");
        assert_eq!(
            add_minutes("2024-01-01 23:50:00", 15),
            "2024-01-02 00:05:00"
        );
    }
}
