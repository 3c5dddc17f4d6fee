//! Hand-written SVG and HTML primitives: escaping, coordinates, the
//! accessible `<svg>` frame, text, rectangles and axes.
//!
//! Every string that may come from data goes through [`escape`]; callers
//! never write raw data into markup. No script, no external reference.

/// Escapes text for HTML/SVG content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate with at most one decimal, deterministic.
pub fn num(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    if rounded == 0.0 || !rounded.is_finite() {
        return "0".to_owned();
    }
    if rounded.fract() == 0.0 {
        format!("{rounded:.0}")
    } else {
        format!("{rounded:.1}")
    }
}

/// Opens an `<svg>` of `width`×`height` labelled by its title and
/// description (ids `<id>-title`, `<id>-desc`). Close with `</svg>`.
pub fn open(id: &str, width: f64, height: f64, title: &str, desc: &str) -> String {
    format!(
        "<svg id=\"{id}\" class=\"chart\" role=\"img\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" \
         height=\"{h}\" xmlns=\"http://www.w3.org/2000/svg\" aria-labelledby=\"{id}-title {id}-desc\">\
         \n<title id=\"{id}-title\">{title}</title>\n<desc id=\"{id}-desc\">{desc}</desc>\n\
         <text class=\"chart-title\" x=\"{cx}\" y=\"20\" text-anchor=\"middle\">{title}</text>\n",
        w = num(width),
        h = num(height),
        cx = num(width / 2.0),
        title = escape(title),
        desc = escape(desc),
    )
}

/// A `<text>` element; `class` and `anchor` are trusted constants.
pub fn text(x: f64, y: f64, anchor: &str, class: &str, content: &str) -> String {
    format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\" class=\"{class}\">{}</text>\n",
        num(x),
        num(y),
        escape(content)
    )
}

/// A filled rectangle with a tooltip.
pub fn rect(x: f64, y: f64, w: f64, h: f64, class: &str, tooltip: &str) -> String {
    format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"{class}\"><title>{}</title></rect>\n",
        num(x),
        num(y),
        num(w.max(0.0)),
        num(h.max(0.0)),
        escape(tooltip)
    )
}

/// A line segment.
pub fn line(x1: f64, y1: f64, x2: f64, y2: f64, class: &str) -> String {
    format!(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"{class}\"/>\n",
        num(x1),
        num(y1),
        num(x2),
        num(y2)
    )
}

/// Horizontal grid lines and left-axis labels for shares 0..100% over
/// `[top, bottom]`, from `left` to `right`.
pub fn percent_grid(left: f64, right: f64, top: f64, bottom: f64) -> String {
    let mut out = String::new();
    for step in 0..=4 {
        let share = f64::from(step) / 4.0;
        let y = bottom - share * (bottom - top);
        out.push_str(&line(left, y, right, y, "grid"));
        let label = format!("{}%", step * 25);
        out.push_str(&text(left - 6.0, y + 4.0, "end", "tick", &label));
    }
    out
}

/// `text` cut to `max` characters with `…`.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(
            (num(3.0), num(2.25), num(-0.04)),
            ("3".into(), "2.3".into(), "0".into())
        );
        assert_eq!(truncate("abcdef", 4), "abc…");
    }
}
