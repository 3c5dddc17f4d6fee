//! Summary statistics of one per-trial quantity (cost, steps, duration):
//! count, total, mean, median, min, max. Never panics, even on NaN.

use serde::Serialize;

/// Statistics over a list of values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Values counted.
    pub count: usize,
    /// Their sum.
    pub total: f64,
    /// Their mean (`None` when empty).
    pub mean: Option<f64>,
    /// Their median (`None` when empty; the mean of the middle two for an
    /// even count).
    pub median: Option<f64>,
    /// The smallest (`None` when empty).
    pub min: Option<f64>,
    /// The largest (`None` when empty).
    pub max: Option<f64>,
}

impl Stats {
    /// The statistics of `values` (non-finite values are left out).
    #[allow(clippy::cast_precision_loss)]
    pub fn of(values: impl IntoIterator<Item = f64>) -> Self {
        let mut sorted: Vec<f64> = values.into_iter().filter(|v| v.is_finite()).collect();
        sorted.sort_by(f64::total_cmp);
        let count = sorted.len();
        // A fold from +0.0: `sum` of nothing is -0.0, shown as `$-0.0000`.
        let total = sorted.iter().fold(0.0, |a, b| a + b);
        Self {
            count,
            total,
            mean: (count > 0).then(|| total / count as f64),
            median: median(&sorted),
            min: sorted.first().copied(),
            max: sorted.last().copied(),
        }
    }
}

fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    let mid = sorted.get(n / 2).copied()?;
    if n % 2 == 1 {
        return Some(mid);
    }
    sorted.get(n / 2 - 1).map(|low| (low + mid) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_even_and_empty() {
        let s = Stats::of([3.0, 1.0, 2.0]);
        assert_eq!(
            (s.count, s.total, s.mean, s.median),
            (3, 6.0, Some(2.0), Some(2.0))
        );
        let s = Stats::of([4.0, 1.0, 2.0, 3.0]);
        assert_eq!((s.median, s.min, s.max), (Some(2.5), Some(1.0), Some(4.0)));
        let s = Stats::of([f64::NAN]);
        assert_eq!((s.count, s.mean, s.median), (0, None, None));
        assert!(s.total.is_sign_positive());
    }
}
