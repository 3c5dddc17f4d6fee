//! `terraform validate`: static checks plus evaluation with every input
//! variable unknown, as Terraform validates (no API calls).

use std::collections::BTreeMap;

use super::{Io, load_validated};
use crate::diagnostics;
use crate::plan::{self, PlanMode};
use crate::state::State;
use crate::value::Value;

pub(crate) fn run(io: &mut Io) -> i32 {
    let loaded = match load_validated(io) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let unknown_vars: BTreeMap<String, Value> = loaded
        .module
        .variables
        .keys()
        .map(|k| (k.clone(), Value::Unknown))
        .collect();
    let (_, diags) = plan::build(
        &loaded.module,
        unknown_vars,
        &State::new(),
        PlanMode::Normal,
    );
    let diags: Vec<_> = diags
        .into_iter()
        .filter(|d| {
            !matches!(
                d.summary.as_str(),
                "Invalid count argument" | "Invalid for_each argument"
            )
        })
        .collect();
    io.diags(&diags, &loaded.module.sources);
    if diagnostics::has_errors(&diags) {
        return 1;
    }
    io.print("Success! The configuration is valid.\n\n");
    0
}
