//! Number formatting shared by every renderer, so the terminal, Markdown
//! and HTML show the same figures. Never locale- or clock-dependent.

use eltbench_score::Rate;

/// `62.5% (5/8)`, or `-` when nothing was counted.
pub fn rate(rate: &Rate) -> String {
    match rate.rate {
        Some(_) => format!("{} ({}/{})", rate.percent(), rate.passed, rate.total),
        None => "-".to_owned(),
    }
}

/// A share as a percentage with one decimal, `-` when undefined.
pub fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{:.1}%", v * 100.0))
}

/// US dollars with four decimals, `-` when undefined.
pub fn dollars(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("${v:.4}"))
}

/// A number with up to one decimal (`12`, `12.5`), `-` when undefined.
pub fn number(value: Option<f64>) -> String {
    let Some(v) = value else {
        return "-".to_owned();
    };
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Seconds with one decimal and a unit, `-` when undefined.
pub fn seconds(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.1} s"))
}

/// `yes` / `no`, `-` when unknown.
pub fn yes_no(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => "yes",
        Some(false) => "no",
        None => "-",
    }
}

/// `yes_no(sandboxed)` with the sandbox mode when known: `yes (bubblewrap)`,
/// `no (none: bwrap is not installed...)`.
pub fn sandbox_cell(sandboxed: Option<bool>, mode: Option<&str>) -> String {
    let answer = yes_no(sandboxed);
    match mode {
        Some(mode) => format!("{answer} ({})", crate::record::shorten(mode, 60)),
        None => answer.to_owned(),
    }
}

/// `pass` / `fail`, `-` when not counted.
pub fn pass_fail(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => "pass",
        Some(false) => "fail",
        None => "-",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_each_kind_of_figure() {
        assert_eq!(rate(&Rate::new(5, 8)), "62.5% (5/8)");
        assert_eq!(rate(&Rate::new(0, 0)), "-");
        assert_eq!(percent(Some(0.4)), "40.0%");
        assert_eq!(dollars(Some(0.12345)), "$0.1235");
        assert_eq!(
            (number(Some(12.0)), number(Some(12.25))),
            ("12".into(), "12.2".into())
        );
        assert_eq!(seconds(None), "-");
        assert_eq!((yes_no(Some(true)), pass_fail(None)), ("yes", "-"));
    }

    #[test]
    fn the_sandbox_cell_names_the_mode() {
        assert_eq!(
            sandbox_cell(Some(true), Some("bubblewrap")),
            "yes (bubblewrap)"
        );
        assert_eq!(
            sandbox_cell(Some(false), Some("none: no bwrap")),
            "no (none: no bwrap)"
        );
        assert_eq!(sandbox_cell(None, None), "-");
    }
}
