//! Comparing a CSV field with the text PostgreSQL prints for the loaded value.
//!
//! Both sides are mapped to one canonical string per type, chosen so that two values
//! are equal exactly when PostgreSQL stores the same value:
//! - booleans: PostgreSQL takes `TRUE`, `t`, `Yes`... and prints `true`/`false`;
//! - integers: parsed (PostgreSQL drops `+`, surrounding blanks and leading zeros);
//! - float4/float8: parsed as f32/f64 (PostgreSQL prints the shortest exact form, so
//!   equal bits means the stored value is the CSV value);
//! - numeric without scale: the decimal with leading/trailing zeros dropped (numeric
//!   keeps the written scale, so this only forgives `+` and leading zeros); with a
//!   scale, the CSV value is rounded half away from zero to that scale, as PostgreSQL does;
//! - date/timestamp: the calendar fields (PostgreSQL prints `T` as a space, pads the
//!   hour, and ignores a zone for `timestamp without time zone`);
//! - char(n): trailing blanks dropped (PostgreSQL pads to n);
//! - text/varchar: exactly the same characters.

use eltbench_sources::ColumnType;

/// The canonical form of a non-NULL value of `ty` (`None` for NULL).
pub fn canonical(ty: ColumnType, value: Option<&str>) -> Option<String> {
    let v = value?;
    Some(match ty {
        ColumnType::Boolean => boolean(v),
        ColumnType::SmallInt | ColumnType::Integer | ColumnType::BigInt => v
            .trim()
            .parse::<i64>()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| format!("bad int {v}")),
        ColumnType::Real => v
            .trim()
            .parse::<f32>()
            .map(|f| format!("{:?}", f.to_bits()))
            .unwrap_or_default(),
        ColumnType::Double => v
            .trim()
            .parse::<f64>()
            .map(|f| format!("{:?}", f.to_bits()))
            .unwrap_or_default(),
        ColumnType::Numeric(None) => decimal(v.trim()),
        ColumnType::Numeric(Some((_, scale))) => rounded(v.trim(), scale as usize),
        ColumnType::Date | ColumnType::Timestamp => timestamp(v.trim()),
        ColumnType::Char(_) => v.trim_end_matches(' ').to_owned(),
        ColumnType::Text | ColumnType::Varchar(_) => v.to_owned(),
    })
}

fn boolean(v: &str) -> String {
    let t = v.trim().to_ascii_lowercase();
    let truthy = matches!(t.as_str(), "t" | "true" | "y" | "yes" | "on" | "1");
    truthy.to_string()
}

/// `+007.50` → `7.5`; `-0.0` → `0`.
fn decimal(v: &str) -> String {
    let (neg, body) = match v.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, v.strip_prefix('+').unwrap_or(v)),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let mut out = if int.is_empty() {
        "0".to_owned()
    } else {
        int.to_owned()
    };
    if !frac.is_empty() {
        out = format!("{out}.{frac}");
    }
    if neg && out != "0" {
        format!("-{out}")
    } else {
        out
    }
}

/// Rounds a plain decimal to `scale` digits, half away from zero, then canonicalises.
fn rounded(v: &str, scale: usize) -> String {
    let (neg, body) = match v.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, v.strip_prefix('+').unwrap_or(v)),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let mut digits: Vec<u8> =
        format!("{int}{:0<scale$}", frac.get(..scale).unwrap_or(frac)).into_bytes();
    if frac.as_bytes().get(scale).is_some_and(|d| *d >= b'5') {
        carry(&mut digits);
    }
    let text = String::from_utf8(digits).unwrap_or_default();
    let split = text.len() - scale;
    let sign = if neg { "-" } else { "" };
    decimal(&format!("{sign}{}.{}", &text[..split], &text[split..]))
}

fn carry(digits: &mut Vec<u8>) {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return;
        }
    }
    digits.insert(0, b'1');
}

/// `2016-06-25 0:54:37` and `2016-06-25T00:54:37.000` → `2016-06-25 00:54:37.000000000`.
pub fn timestamp(v: &str) -> String {
    let (date, time) = v.split_once([' ', 'T']).unwrap_or((v, ""));
    let time = time
        .trim_end_matches('Z')
        .split(['+', ' '])
        .next()
        .unwrap_or("");
    let date: Vec<u32> = date.split('-').filter_map(|p| p.parse().ok()).collect();
    let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
    let mut t: Vec<u32> = hms.split(':').filter_map(|p| p.parse().ok()).collect();
    t.resize(3, 0);
    let nanos = format!("{frac:0<9}");
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{nanos}",
        date[0], date[1], date[2], t[0], t[1], t[2]
    )
}

#[test]
fn normalisation_forgives_only_representation() {
    assert_eq!(
        canonical(ColumnType::Boolean, Some("Yes")),
        canonical(ColumnType::Boolean, Some("true"))
    );
    assert_ne!(
        canonical(ColumnType::Boolean, Some("FALSE")),
        canonical(ColumnType::Boolean, Some("true"))
    );
    assert_eq!(
        canonical(ColumnType::Numeric(None), Some("+007.50")).unwrap(),
        "7.5"
    );
    assert_eq!(
        canonical(ColumnType::Numeric(Some((15, 2))), Some("1.995")).unwrap(),
        "2"
    );
    assert_eq!(
        canonical(ColumnType::Numeric(Some((15, 2))), Some("-0.004")).unwrap(),
        "0"
    );
    assert_eq!(
        canonical(ColumnType::Timestamp, Some("2016-06-25 0:54:37")),
        canonical(ColumnType::Timestamp, Some("2016-06-25 00:54:37"))
    );
    assert_ne!(
        canonical(ColumnType::Timestamp, Some("2022-07-28T15:40:07.467")),
        canonical(ColumnType::Timestamp, Some("2022-07-28 15:40:07.46"))
    );
    assert_ne!(
        canonical(ColumnType::Text, Some("a ")),
        canonical(ColumnType::Text, Some("a"))
    );
    assert_eq!(canonical(ColumnType::Text, None), None);
}
