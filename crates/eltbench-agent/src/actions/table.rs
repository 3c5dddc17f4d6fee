//! Rendering DuckDB results as CSV-like text for the model: a header line, one
//! line per row, `NULL` for nulls, and a footer with the row count.
//!
//! Stops collecting rows once the text passes the observation limit, and says so.

use duckdb::types::{TimeUnit, Value};

/// Accumulates rows until the text is long enough to be truncated anyway.
pub(super) struct TableWriter {
    text: String,
    rows: usize,
    max_chars: usize,
    more: bool,
}

impl TableWriter {
    pub(super) fn new(columns: &[String], max_chars: usize) -> Self {
        let header: Vec<String> = columns.iter().map(|c| csv_cell(c)).collect();
        TableWriter {
            text: header.join(","),
            rows: 0,
            max_chars,
            more: false,
        }
    }

    /// False once enough text is collected; the caller then stops and calls
    /// [`TableWriter::mark_more`] if rows remain.
    pub(super) fn has_room(&self) -> bool {
        self.text.len() <= self.max_chars
    }

    pub(super) fn mark_more(&mut self) {
        self.more = true;
    }

    pub(super) fn push(&mut self, cells: &[String]) {
        let line: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
        self.text.push('\n');
        self.text.push_str(&line.join(","));
        self.rows += 1;
    }

    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    pub(super) fn finish(mut self) -> String {
        let plural = if self.rows == 1 { "" } else { "s" };
        let footer = if self.more {
            format!("\n(first {} row{plural} shown; more rows exist)", self.rows)
        } else {
            format!("\n({} row{plural})", self.rows)
        };
        self.text.push_str(&footer);
        self.text
    }
}

/// Quotes a cell the CSV way when it holds a comma, quote or line break.
pub(super) fn csv_cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// One value as DuckDB's CLI would show it (close enough for a model to read).
pub(super) fn render_value(value: &Value) -> String {
    match value {
        Value::Null => "NULL".to_owned(),
        Value::Boolean(b) => b.to_string(),
        Value::TinyInt(v) => v.to_string(),
        Value::SmallInt(v) => v.to_string(),
        Value::Int(v) => v.to_string(),
        Value::BigInt(v) => v.to_string(),
        Value::HugeInt(v) => v.to_string(),
        Value::UHugeInt(v) => v.to_string(),
        Value::UTinyInt(v) => v.to_string(),
        Value::USmallInt(v) => v.to_string(),
        Value::UInt(v) => v.to_string(),
        Value::UBigInt(v) => v.to_string(),
        Value::Float(v) => v.to_string(),
        Value::Double(v) => v.to_string(),
        Value::Decimal(d) => d.to_string(),
        Value::Text(s) | Value::Enum(s) => s.clone(),
        Value::Blob(b) | Value::Geometry(b) => hex(b),
        Value::Date32(days) => date(*days),
        Value::Timestamp(unit, v) => timestamp(*unit, *v),
        Value::Time64(unit, v) => time(*unit, *v),
        Value::Interval {
            months,
            days,
            nanos,
        } => format!("{months} months {days} days {} us", nanos / 1000),
        Value::List(items) | Value::Array(items) => list(items),
        Value::Struct(fields) => {
            let parts: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("'{k}': {}", render_value(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Map(entries) => {
            let parts: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}={}", render_value(k), render_value(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Union(inner) => render_value(inner),
        other => format!("{other:?}"),
    }
}

fn list(items: &[Value]) -> String {
    let parts: Vec<String> = items.iter().map(render_value).collect();
    format!("[{}]", parts.join(", "))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02X}")).collect()
}

fn date(days: i32) -> String {
    chrono::NaiveDate::from_num_days_from_ce_opt(days.saturating_add(719_163))
        .map_or_else(|| format!("{days} days"), |d| d.to_string())
}

fn timestamp(unit: TimeUnit, value: i64) -> String {
    chrono::DateTime::from_timestamp_micros(unit.to_micros(value))
        .map_or_else(|| value.to_string(), |t| t.naive_utc().to_string())
}

fn time(unit: TimeUnit, value: i64) -> String {
    let micros = unit.to_micros(value);
    let secs = u32::try_from(micros.div_euclid(1_000_000)).unwrap_or(0);
    let nanos = u32::try_from(micros.rem_euclid(1_000_000) * 1000).unwrap_or(0);
    chrono::NaiveTime::from_num_seconds_from_midnight_opt(secs, nanos)
        .map_or_else(|| value.to_string(), |t| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_only_when_needed() {
        assert_eq!(csv_cell("plain"), "plain");
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn dates_and_times_read_like_duckdb() {
        assert_eq!(render_value(&Value::Date32(19_723)), "2024-01-01");
        assert_eq!(
            render_value(&Value::Timestamp(
                TimeUnit::Microsecond,
                1_704_067_200_000_000
            )),
            "2024-01-01 00:00:00"
        );
        assert_eq!(
            render_value(&Value::Time64(TimeUnit::Microsecond, 3_600_000_000)),
            "01:00:00"
        );
        assert_eq!(render_value(&Value::Null), "NULL");
    }

    #[test]
    fn writer_stops_at_the_limit_and_says_more_rows_exist() {
        let mut w = TableWriter::new(&["a".to_owned()], 5);
        w.push(&["1234".to_owned()]);
        assert!(!w.has_room());
        w.mark_more();
        assert_eq!(w.finish(), "a\n1234\n(first 1 row shown; more rows exist)");
    }
}
