//! `terraform output [-json] [-raw] [name]`.

use super::{Flags, Io, load_state};
use crate::diagnostics::{Diagnostic, Sources};
use crate::eval::hcl_literal;
use crate::value::Value;

pub(crate) fn run(io: &mut Io, flags: &Flags) -> i32 {
    let Ok(state) = load_state(io) else { return 1 };
    if let Some(name) = flags.positional.first() {
        let Some(o) = state.outputs.get(name) else {
            let d = Diagnostic::error(
                "Output \"".to_string() + name + "\" not found",
                "The output variable requested could not be found in the state file. If you recently added this to your configuration, be sure to run `terraform apply`, since the state won't be updated with new output variables until that command is run.",
            );
            io.diags(&[d], &Sources::default());
            return 1;
        };
        let v = Value::from_json(&o.value);
        let text = if flags.json {
            serde_json::to_string(&o.value).unwrap_or_default()
        } else if flags.raw {
            v.to_string_lossy().unwrap_or_default()
        } else {
            hcl_literal(&v, 0)
        };
        io.print(&text);
        if !flags.raw {
            io.print("\n");
        }
        return 0;
    }
    if flags.json {
        let all: serde_json::Map<String, serde_json::Value> = state
            .outputs
            .iter()
            .map(|(k, o)| {
                (
                    k.clone(),
                    serde_json::json!({"sensitive": o.sensitive, "type": o.ty, "value": o.value}),
                )
            })
            .collect();
        io.print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&all).unwrap_or_default()
        ));
        return 0;
    }
    if state.outputs.is_empty() {
        let d = Diagnostic::warning(
            "No outputs found",
            "The state file either has no outputs defined, or all the defined outputs\nare empty. Please define an output in your configuration with the `output`\nkeyword and run `terraform refresh` for it to become available. If you are\nusing interpolation, please verify the interpolated value is not empty. You\ncan use the `terraform show` command to view the state.",
        );
        io.diags(&[d], &Sources::default());
        return 0;
    }
    for (k, o) in &state.outputs {
        let text = if o.sensitive {
            "<sensitive>".to_string()
        } else {
            hcl_literal(&Value::from_json(&o.value), 0)
        };
        io.print(&format!("{k} = {text}\n"));
    }
    0
}
