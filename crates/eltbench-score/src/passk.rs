//! The unbiased pass@k and pass^k estimators from `n` trials with `c`
//! successes (Chen et al. 2021; Yao et al. 2024):
//! `pass@k = 1 - C(n-c, k) / C(n, k)` (at least one of k draws succeeds) and
//! `pass^k = C(c, k) / C(n, k)` (all k draws succeed).
//!
//! Both are computed as running products of ratios, never as factorials, so
//! they stay exact-enough for any `n`. Undefined inputs (`k = 0`, `k > n`,
//! `c > n`) give `None`; this module must never panic.

/// pass@k: the chance that at least one of `k` trials drawn without
/// replacement from `n` (with `c` successes) succeeds.
pub fn pass_at_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if !defined(n, c, k) {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    // C(n-c, k) / C(n, k) = prod_{i=0}^{k-1} (n-c-i) / (n-i)
    Some(1.0 - ratio_product(n - c, n, k))
}

/// pass^k: the chance that all `k` trials drawn without replacement from
/// `n` (with `c` successes) succeed.
pub fn pass_hat_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if !defined(n, c, k) {
        return None;
    }
    if c < k {
        return Some(0.0);
    }
    // C(c, k) / C(n, k) = prod_{i=0}^{k-1} (c-i) / (n-i)
    Some(ratio_product(c, n, k))
}

fn defined(n: u64, c: u64, k: u64) -> bool {
    k >= 1 && k <= n && c <= n
}

/// `prod_{i=0}^{k-1} (top - i) / (bottom - i)`, for `top <= bottom`, `k <= top`.
#[allow(clippy::cast_precision_loss)]
fn ratio_product(top: u64, bottom: u64, k: u64) -> f64 {
    (0..k)
        .map(|i| (top - i) as f64 / (bottom - i) as f64)
        .product()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-12)
    }

    #[test]
    fn pass_at_k_for_two_successes_in_five() {
        // 1 - C(3,k)/C(5,k): C(3,1)/C(5,1) = 3/5, C(3,2)/C(5,2) = 3/10,
        // C(3,3)/C(5,3) = 1/10, C(3,4) = C(3,5) = 0.
        let expected = [0.4, 0.7, 0.9, 1.0, 1.0];
        for (k, want) in (1..=5).zip(expected) {
            assert!(
                close(pass_at_k(5, 2, k), want),
                "k={k}: {:?}",
                pass_at_k(5, 2, k)
            );
        }
    }

    #[test]
    fn pass_hat_k_for_two_successes_in_five() {
        // C(2,k)/C(5,k): 2/5, 1/10, then 0.
        let expected = [0.4, 0.1, 0.0, 0.0, 0.0];
        for (k, want) in (1..=5).zip(expected) {
            assert!(
                close(pass_hat_k(5, 2, k), want),
                "k={k}: {:?}",
                pass_hat_k(5, 2, k)
            );
        }
    }

    #[test]
    fn edges_and_undefined_inputs() {
        assert!(close(pass_at_k(5, 0, 3), 0.0));
        assert!(close(pass_hat_k(5, 5, 5), 1.0));
        assert!(close(pass_at_k(1000, 1, 1), 0.001));
        assert!(close(pass_hat_k(1000, 999, 1), 0.999));
        assert_eq!(pass_at_k(5, 2, 0), None);
        assert_eq!(pass_at_k(5, 2, 6), None);
        assert_eq!(pass_hat_k(5, 6, 1), None);
    }

    #[test]
    fn large_n_stays_finite() {
        let p = pass_at_k(10_000, 100, 50).unwrap();
        assert!(p.is_finite() && p > 0.0 && p < 1.0, "{p}");
    }
}
