//! The report's share charts as inline SVG: horizontal bars (SRDEL by
//! source kind, SRDT per task) and the pass@k / pass^k line chart.
//!
//! Each chart has a `<title>` and `<desc>` for screen readers and a
//! tooltip per mark; series differ by dash and marker shape, not colour alone.
//! Styling comes from the page's CSS classes. Data text is escaped by
//! [`super::svg`]; nothing here writes raw data into markup.

use super::svg::{escape, line, num, open, percent_grid, rect, text, truncate};

const WIDTH: f64 = 560.0;
const TOP: f64 = 40.0;

/// One bar of a share chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The label left of the bar.
    pub label: String,
    /// The share in `0..=1` (`None`: nothing counted).
    pub value: Option<f64>,
    /// The figure right of the bar (e.g. `62.5% (5/8)`).
    pub text: String,
}

/// Horizontal bars of shares, 0..100%, one row per bar.
pub fn bar_chart(id: &str, title: &str, desc: &str, class: &str, bars: &[Bar]) -> String {
    const LEFT: f64 = 170.0;
    const RIGHT: f64 = WIDTH - 110.0;
    const ROW: f64 = 24.0;
    let rows = bars.len().max(1);
    let bottom = TOP + ROW * f64::from(u32::try_from(rows).unwrap_or(u32::MAX));
    let mut out = open(id, WIDTH, bottom + 36.0, title, desc);
    for step in 0..=4 {
        let x = LEFT + f64::from(step) / 4.0 * (RIGHT - LEFT);
        out.push_str(&line(x, TOP - 4.0, x, bottom, "grid"));
        out.push_str(&text(
            x,
            bottom + 16.0,
            "middle",
            "tick",
            &format!("{}%", step * 25),
        ));
    }
    if bars.is_empty() {
        out.push_str(&text(
            (LEFT + RIGHT) / 2.0,
            TOP + 16.0,
            "middle",
            "empty",
            "no data",
        ));
    }
    for (i, bar) in bars.iter().enumerate() {
        let y = TOP + ROW * f64::from(u32::try_from(i).unwrap_or(u32::MAX));
        out.push_str(&bar_row(bar, y, LEFT, RIGHT, class));
    }
    out.push_str("</svg>\n");
    out
}

fn bar_row(bar: &Bar, y: f64, left: f64, right: f64, class: &str) -> String {
    let mut out = text(
        left - 8.0,
        y + 15.0,
        "end",
        "label",
        &truncate(&bar.label, 24),
    );
    let tooltip = format!("{}: {}", bar.label, bar.text);
    let share = bar.value.unwrap_or(0.0).clamp(0.0, 1.0);
    out.push_str(&rect(
        left,
        y + 3.0,
        share * (right - left),
        16.0,
        class,
        &tooltip,
    ));
    out.push_str(&text(right + 8.0, y + 15.0, "start", "value", &bar.text));
    out
}

/// One line of the pass@k chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// CSS class (colour and dash).
    pub class: &'static str,
    /// Square markers instead of circles.
    pub square: bool,
    /// `(k, share)` points; `None` breaks the line.
    pub points: Vec<(u64, Option<f64>)>,
}

/// Lines of shares over k = 1..=n, with a legend below.
pub fn line_chart(id: &str, title: &str, desc: &str, series: &[Series]) -> String {
    const LEFT: f64 = 56.0;
    const RIGHT: f64 = WIDTH - 24.0;
    const BOTTOM: f64 = 240.0;
    let n = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .max()
        .unwrap_or(0);
    let x_of = |k: u64| x_position(k, n, LEFT + 16.0, RIGHT - 16.0);
    let y_of = |v: f64| BOTTOM - v.clamp(0.0, 1.0) * (BOTTOM - TOP);
    let mut out = open(
        id,
        WIDTH,
        BOTTOM + 30.0 + 20.0 * legend_rows(series.len()),
        title,
        desc,
    );
    out.push_str(&percent_grid(LEFT, RIGHT, TOP, BOTTOM));
    out.push_str(&k_ticks(n, BOTTOM, &x_of));
    if n == 0 {
        out.push_str(&text(
            (LEFT + RIGHT) / 2.0,
            (TOP + BOTTOM) / 2.0,
            "middle",
            "empty",
            "no data",
        ));
    }
    for s in series {
        out.push_str(&polyline(s, &x_of, &y_of));
    }
    out.push_str(&legend(series, LEFT, BOTTOM + 44.0));
    out.push_str("</svg>\n");
    out
}

#[allow(clippy::cast_precision_loss)]
fn x_position(k: u64, n: u64, left: f64, right: f64) -> f64 {
    if n <= 1 {
        return (left + right) / 2.0;
    }
    left + (k.saturating_sub(1)) as f64 / (n - 1) as f64 * (right - left)
}

fn k_ticks(n: u64, bottom: f64, x_of: &dyn Fn(u64) -> f64) -> String {
    let every = n.div_ceil(12).max(1);
    let mut out = String::new();
    for k in (1..=n).filter(|k| (k - 1) % every == 0 || *k == n) {
        out.push_str(&text(
            x_of(k),
            bottom + 16.0,
            "middle",
            "tick",
            &k.to_string(),
        ));
    }
    out.push_str(&text(
        x_of(1).midpoint(x_of(n.max(1))),
        bottom + 32.0,
        "middle",
        "axis",
        "k (trials drawn)",
    ));
    out
}

fn polyline(s: &Series, x_of: &dyn Fn(u64) -> f64, y_of: &dyn Fn(f64) -> f64) -> String {
    let mut out = String::new();
    let mut segment: Vec<String> = Vec::new();
    let flush = |segment: &mut Vec<String>, out: &mut String| {
        if segment.len() > 1 {
            out.push_str(&format!(
                "<polyline class=\"line {}\" points=\"{}\"/>\n",
                s.class,
                segment.join(" ")
            ));
        }
        segment.clear();
    };
    for &(k, value) in &s.points {
        match value {
            Some(v) => segment.push(format!("{},{}", num(x_of(k)), num(y_of(v)))),
            None => flush(&mut segment, &mut out),
        }
    }
    flush(&mut segment, &mut out);
    for &(k, value) in &s.points {
        if let Some(v) = value {
            let tip = format!("{} at k={k}: {:.1}%", s.name, v * 100.0);
            out.push_str(&marker(s, x_of(k), y_of(v), &tip));
        }
    }
    out
}

fn marker(s: &Series, x: f64, y: f64, tooltip: &str) -> String {
    let (class, tip) = (s.class, escape(tooltip));
    if s.square {
        return format!(
            "<rect class=\"marker {class}\" x=\"{}\" y=\"{}\" width=\"8\" height=\"8\"><title>{tip}</title></rect>\n",
            num(x - 4.0),
            num(y - 4.0)
        );
    }
    format!(
        "<circle class=\"marker {class}\" cx=\"{}\" cy=\"{}\" r=\"4\"><title>{tip}</title></circle>\n",
        num(x),
        num(y)
    )
}

#[allow(clippy::cast_precision_loss)]
fn legend_rows(n: usize) -> f64 {
    n.div_ceil(2) as f64
}

fn legend(series: &[Series], left: f64, top: f64) -> String {
    let mut out = String::new();
    for (i, s) in series.iter().enumerate() {
        let x = left + if i % 2 == 0 { 0.0 } else { 240.0 };
        let y = top + 20.0 * f64::from(u32::try_from(i / 2).unwrap_or(0));
        out.push_str(&format!(
            "<line class=\"line {}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n",
            s.class,
            num(x),
            num(y),
            num(x + 28.0),
            num(y)
        ));
        out.push_str(&marker(s, x + 14.0, y, &s.name));
        out.push_str(&text(x + 36.0, y + 4.0, "start", "legend", &s.name));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_chart_draws_one_bar_per_row_and_escapes_labels() {
        let bars = [
            Bar {
                label: "<b>".into(),
                value: Some(0.5),
                text: "50.0% (1/2)".into(),
            },
            Bar {
                label: "none".into(),
                value: None,
                text: "-".into(),
            },
        ];
        let svg = bar_chart("c", "T", "D", "bar", &bars);
        assert_eq!(svg.matches("<rect").count(), 2);
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"));
        assert!(svg.contains("aria-labelledby=\"c-title c-desc\""));
    }

    #[test]
    fn line_chart_breaks_at_undefined_points() {
        let s = Series {
            name: "s".into(),
            class: "series-0",
            square: false,
            points: vec![(1, Some(0.1)), (2, Some(0.2)), (3, None), (4, Some(0.4))],
        };
        let svg = line_chart("p", "T", "D", &[s]);
        assert_eq!(svg.matches("<polyline").count(), 1);
        // Three points and the legend's marker.
        assert_eq!(svg.matches("<circle").count(), 4);
    }
}
