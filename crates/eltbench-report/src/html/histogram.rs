//! Histograms of one per-trial quantity (cost, steps) as inline SVG:
//! up to ten equal-width bins, a count over each bar, edge labels below.
//!
//! Data reaches markup only through [`super::svg`]'s escaping helpers.

use super::svg::{line, open, rect, text};

const WIDTH: f64 = 560.0;
const TOP: f64 = 40.0;

/// A histogram of `values` in up to ten equal bins; `fmt` labels bin edges
/// and `axis` names the quantity.
pub fn histogram(
    id: &str,
    title: &str,
    desc: &str,
    axis: &str,
    values: &[f64],
    fmt: fn(f64) -> String,
) -> String {
    const LEFT: f64 = 48.0;
    const RIGHT: f64 = WIDTH - 24.0;
    const BOTTOM: f64 = 220.0;
    let mut out = open(id, WIDTH, BOTTOM + 44.0, title, desc);
    let bins = Bins::of(values);
    let max = bins.counts.iter().copied().max().unwrap_or(0).max(1);
    let y_of = |c: usize| BOTTOM - ratio(c, max) * (BOTTOM - TOP - 14.0);
    for c in [0, max.div_ceil(2), max] {
        out.push_str(&line(LEFT, y_of(c), RIGHT, y_of(c), "grid"));
        out.push_str(&text(
            LEFT - 6.0,
            y_of(c) + 4.0,
            "end",
            "tick",
            &c.to_string(),
        ));
    }
    if values.is_empty() {
        out.push_str(&text(
            (LEFT + RIGHT) / 2.0,
            (TOP + BOTTOM) / 2.0,
            "middle",
            "empty",
            "no trials",
        ));
    }
    let slot = (RIGHT - LEFT) / f64::from(u32::try_from(bins.counts.len()).unwrap_or(1).max(1));
    let every = if bins.counts.len() > 6 { 2 } else { 1 };
    for (i, &count) in bins.counts.iter().enumerate() {
        let x = LEFT + slot * f64::from(u32::try_from(i).unwrap_or(0));
        let (lo, hi) = bins.edges(i);
        let tip = format!("{} to {}: {count} trial(s)", fmt(lo), fmt(hi));
        out.push_str(&rect(
            x + 2.0,
            y_of(count),
            slot - 4.0,
            BOTTOM - y_of(count),
            "bar bar-hist",
            &tip,
        ));
        if count > 0 {
            out.push_str(&text(
                x + slot / 2.0,
                y_of(count) - 4.0,
                "middle",
                "value",
                &count.to_string(),
            ));
        }
        if i % every == 0 {
            out.push_str(&text(x, BOTTOM + 16.0, "middle", "tick", &fmt(lo)));
        }
    }
    if !bins.counts.is_empty() {
        out.push_str(&text(
            RIGHT,
            BOTTOM + 16.0,
            "middle",
            "tick",
            &fmt(bins.max),
        ));
    }
    out.push_str(&text(
        (LEFT + RIGHT) / 2.0,
        BOTTOM + 36.0,
        "middle",
        "axis",
        axis,
    ));
    out.push_str("</svg>\n");
    out
}

#[allow(clippy::cast_precision_loss)]
fn ratio(count: usize, max: usize) -> f64 {
    count as f64 / max as f64
}

/// Equal-width bins over the finite values.
#[derive(Debug, Clone, PartialEq)]
struct Bins {
    min: f64,
    max: f64,
    counts: Vec<usize>,
}

impl Bins {
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss
    )]
    fn of(values: &[f64]) -> Self {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let min = finite.iter().copied().fold(f64::INFINITY, f64::min);
        let max = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if finite.is_empty() {
            return Self {
                min: 0.0,
                max: 0.0,
                counts: Vec::new(),
            };
        }
        let n = if max > min {
            (finite.len() as f64).sqrt().ceil().clamp(1.0, 10.0) as usize
        } else {
            1
        };
        let mut counts = vec![0; n];
        for v in finite {
            let i = if max > min {
                ((v - min) / (max - min) * n as f64) as usize
            } else {
                0
            };
            counts[i.min(n - 1)] += 1;
        }
        Self { min, max, counts }
    }

    #[allow(clippy::cast_precision_loss)]
    fn edges(&self, i: usize) -> (f64, f64) {
        let width = (self.max - self.min) / self.counts.len().max(1) as f64;
        (
            self.min + width * i as f64,
            self.min + width * (i + 1) as f64,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_every_value_once() {
        let bins = Bins::of(&[1.0, 2.0, 3.0, 4.0, 10.0, f64::NAN]);
        assert_eq!(bins.counts.len(), 3);
        assert_eq!(bins.counts.iter().sum::<usize>(), 5);
        assert_eq!(bins.counts, vec![3, 1, 1]);
        assert_eq!(Bins::of(&[2.0, 2.0]).counts, vec![2]);
        assert!(Bins::of(&[]).counts.is_empty());
    }
}
