//! Time as the API shows it: RFC 3339 instants, ISO 8601 durations, log stamps.
//!
//! Instants are kept as whole UTC epoch seconds (Airbyte's job table has second
//! precision). Formatting only; nothing here reads a clock except [`now`].

use chrono::{DateTime, Utc};

/// Seconds since the Unix epoch, now.
pub fn now() -> i64 {
    Utc::now().timestamp()
}

fn instant(secs: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(secs, 0).unwrap_or(DateTime::UNIX_EPOCH)
}

/// `2024-05-01T12:00:00Z`.
pub fn rfc3339(secs: i64) -> String {
    instant(secs).format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// `2024-05-01 12:00:00`, the prefix of Airbyte log lines.
pub fn log_stamp(secs: i64) -> String {
    instant(secs).format("%Y-%m-%d %H:%M:%S").to_string()
}

/// ISO 8601 duration as Java's `Duration.toString()` writes it: `PT0S`, `PT1M5S`, `PT2H`.
pub fn iso_duration(secs: i64) -> String {
    let secs = secs.max(0);
    let (hours, minutes, seconds) = (secs / 3600, secs % 3600 / 60, secs % 60);
    let mut out = String::from("PT");
    if hours > 0 {
        out.push_str(&format!("{hours}H"));
    }
    if minutes > 0 {
        out.push_str(&format!("{minutes}M"));
    }
    if seconds > 0 || out == "PT" {
        out.push_str(&format!("{seconds}S"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_match_java() {
        assert_eq!(iso_duration(0), "PT0S");
        assert_eq!(iso_duration(65), "PT1M5S");
        assert_eq!(iso_duration(7200), "PT2H");
        assert_eq!(iso_duration(3723), "PT1H2M3S");
    }

    #[test]
    fn instants_are_utc_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(log_stamp(86_461), "1970-01-02 00:01:01");
    }
}
