//! Properties of the fixed numeric rule (`|b - a| <= 1% of |a|`).

use eltbench_score::compare::value::{numbers_match, values_match};
use proptest::prelude::*;

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e12..1e12f64,
        -10.0..10.0f64,
        Just(0.0),
        Just(-5.0),
        (-1_000_000i64..1_000_000).prop_map(|i| i as f64),
    ]
}

proptest! {
    #[test]
    fn sign_symmetry(a in finite(), b in finite()) {
        prop_assert_eq!(numbers_match(a, b), numbers_match(-a, -b));
    }

    #[test]
    fn every_finite_number_matches_itself(a in finite()) {
        prop_assert!(numbers_match(a, a));
        let text = a.to_string();
        prop_assert!(values_match(Some(&text), Some(&text)));
    }

    #[test]
    fn scaling_inside_the_band_matches(a in finite(), s in 0.991..1.009f64) {
        prop_assert!(numbers_match(a, a * s), "{} vs {}", a, a * s);
    }

    #[test]
    fn scaling_beyond_the_band_does_not(a in finite(), s in prop_oneof![1.011..100.0f64, -100.0..0.989f64]) {
        prop_assume!(a != 0.0);
        prop_assert!(!numbers_match(a, a * s), "{} vs {}", a, a * s);
    }

    #[test]
    fn zero_matches_only_zero(b in finite()) {
        prop_assert_eq!(numbers_match(0.0, b), b == 0.0);
    }

    #[test]
    fn nan_matches_no_number(a in finite()) {
        prop_assert!(!numbers_match(f64::NAN, a));
        prop_assert!(!numbers_match(a, f64::NAN));
    }
}
