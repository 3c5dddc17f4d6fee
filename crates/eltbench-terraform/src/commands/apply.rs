//! `terraform apply [-auto-approve]` and `terraform destroy [-auto-approve]`:
//! refresh, plan, confirm on stdin ("yes" only), apply through the API,
//! save `terraform.tfstate`, print Terraform's summary and outputs.

use super::{Flags, Io, Prepared, prepare, refresh};
use crate::apply;
use crate::diagnostics;
use crate::eval::hcl_literal;
use crate::plan::{self, PlanMode};
use crate::render;
use crate::state::State;
use crate::value::Value;

pub(crate) fn run(io: &mut Io, flags: &Flags, destroy: bool) -> i32 {
    let Prepared {
        loaded,
        vars,
        client,
        mut state,
    } = match prepare(io, flags) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let before = state.clone();
    if let Err(d) = refresh(io, &client, &mut state) {
        io.diags(&[*d], &loaded.module.sources);
        return 1;
    }
    let mode = if destroy {
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
        return finish_without_changes(io, &loaded.module, &p, state, &before, destroy);
    }
    io.print(&render::plan_text(&p, destroy));
    if !flags.auto_approve && !confirm(io, destroy) {
        let word = if destroy { "Destroy" } else { "Apply" };
        io.diags(
            &[diagnostics::Diagnostic::error(
                format!("{word} cancelled"),
                "",
            )],
            &loaded.module.sources,
        );
        return 1;
    }
    io.print("\n");
    let (counts, mut errors) = apply::apply(&loaded.module, &p, &client, &mut state, io.out);
    if !destroy {
        apply::record_outputs(&mut state, &loaded.module, &p, &mut errors);
    } else {
        state.outputs.clear();
    }
    state.serial += 1;
    if let Err(e) = state.save(&io.cwd) {
        errors.push(diagnostics::Diagnostic::error(
            "Failed to save state",
            e.to_string(),
        ));
    }
    if !errors.is_empty() {
        io.diags(&errors, &loaded.module.sources);
        return 1;
    }
    if destroy {
        io.print(&format!(
            "\nDestroy complete! Resources: {} destroyed.\n",
            counts.2
        ));
    } else {
        io.print(&format!(
            "\nApply complete! Resources: {} added, {} changed, {} destroyed.\n",
            counts.0, counts.1, counts.2
        ));
        print_outputs(io, &state);
    }
    0
}

fn confirm(io: &mut Io, destroy: bool) -> bool {
    if destroy {
        io.confirm(
            "Do you really want to destroy all resources?",
            "  Terraform will destroy all your managed infrastructure, as shown above.\n  There is no undo. Only 'yes' will be accepted to confirm.",
        )
    } else {
        io.confirm(
            "Do you want to perform these actions?",
            "  Terraform will perform the actions described above.\n  Only 'yes' will be accepted to approve.",
        )
    }
}

fn finish_without_changes(
    io: &mut Io,
    module: &crate::config::Module,
    p: &plan::Plan,
    mut state: State,
    before: &State,
    destroy: bool,
) -> i32 {
    let mut errors = Vec::new();
    if destroy {
        io.print("\nNo changes. No objects need to be destroyed.\n\nEither you have not created any objects yet or the existing objects were\nalready deleted outside of Terraform.\n\nDestroy complete! Resources: 0 destroyed.\n");
        return 0;
    }
    apply::record_outputs(&mut state, module, p, &mut errors);
    if state != *before {
        state.serial += 1;
        if let Err(e) = state.save(&io.cwd) {
            errors.push(diagnostics::Diagnostic::error(
                "Failed to save state",
                e.to_string(),
            ));
        }
    }
    if !errors.is_empty() {
        io.diags(&errors, &module.sources);
        return 1;
    }
    io.print(super::plan::no_changes_text());
    io.print("\nApply complete! Resources: 0 added, 0 changed, 0 destroyed.\n");
    print_outputs(io, &state);
    0
}

fn print_outputs(io: &mut Io, state: &State) {
    if state.outputs.is_empty() {
        return;
    }
    io.print("\nOutputs:\n\n");
    for (k, o) in &state.outputs {
        let text = if o.sensitive {
            "<sensitive>".to_string()
        } else {
            hcl_literal(&Value::from_json(&o.value), 0)
        };
        io.print(&format!("{k} = {text}\n"));
    }
}
