//! Every environment variable eltbench reads, and defaults, in one place.

/// The suite used when `--suite` is not given: the ELT-Bench compatibility
/// test bed next to the project checkout. Overridden by `ELTBENCH_SUITE`.
pub const DEFAULT_SUITE: &str = "../shared/elt-bench";

/// Environment variables read by eltbench (each with what it does).
#[allow(dead_code)]
pub const ENV_VARS: &[(&str, &str)] = &[
    ("ELTBENCH_SUITE", "default for --suite"),
    ("NO_COLOR", "disable colours in terminal output"),
];
