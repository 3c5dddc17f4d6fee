//! `terraform plan [-destroy] [-detailed-exitcode]`: refresh, plan, render.

use super::{Flags, Io, Prepared, prepare, refresh};
use crate::diagnostics;
use crate::plan::{self, PlanMode};
use crate::render;

const NO_CHANGES: &str = "\nNo changes. Your infrastructure matches the configuration.\n\nTerraform has compared your real infrastructure against your configuration\nand found no differences, so no changes are needed.\n";

const NOTE_OUT: &str = "\n─────────────────────────────────────────────────────────────────────────────\n\nNote: You didn't use the -out option to save this plan, so Terraform can't\nguarantee to take exactly these actions if you run \"terraform apply\" now.\n";

pub(crate) fn run(io: &mut Io, flags: &Flags) -> i32 {
    let Prepared {
        loaded,
        vars,
        client,
        mut state,
    } = match prepare(io, flags) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Err(d) = refresh(io, &client, &mut state) {
        io.diags(&[*d], &loaded.module.sources);
        return 1;
    }
    let mode = if flags.destroy {
        PlanMode::Destroy
    } else {
        PlanMode::Normal
    };
    let (p, diags) = plan::build(&loaded.module, vars, &state, mode);
    io.diags(&diags, &loaded.module.sources);
    if diagnostics::has_errors(&diags) {
        return 1;
    }
    if !p.has_changes() {
        io.print(NO_CHANGES);
        return 0;
    }
    io.print(&render::plan_text(&p, flags.destroy));
    io.print(NOTE_OUT);
    if flags.detailed_exitcode { 2 } else { 0 }
}

pub(crate) fn no_changes_text() -> &'static str {
    NO_CHANGES
}
