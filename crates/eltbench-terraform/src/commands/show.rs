//! `terraform show [-json]`: the current state, human-readable or JSON.

use super::{Flags, Io, load_state};
use crate::eval::hcl_literal;
use crate::schema::{self, Attr, Ty};
use crate::value::Value;

pub(crate) fn run(io: &mut Io, flags: &Flags) -> i32 {
    let Ok(state) = load_state(io) else { return 1 };
    if flags.json {
        io.print(&format!(
            "{}\n",
            serde_json::to_string(&state).unwrap_or_default()
        ));
        return 0;
    }
    if state.resources.is_empty() {
        io.print("The state file is empty. No resources are represented.\n");
        return 0;
    }
    for (addr, r, i) in state.instances() {
        let attrs = schema::resource(&r.type_name).map_or(&[][..], |s| s.attrs);
        io.print(&format!(
            "# {addr}:\nresource \"{}\" \"{}\" {{\n",
            r.type_name, r.name
        ));
        io.print(&object_text(&Value::from_json(&i.attributes), attrs, 4));
        io.print("}\n\n");
    }
    if !state.outputs.is_empty() {
        io.print("\nOutputs:\n\n");
        for (k, o) in &state.outputs {
            io.print(&format!(
                "{k} = {}\n",
                hcl_literal(&Value::from_json(&o.value), 0)
            ));
        }
    }
    0
}

fn object_text(v: &Value, attrs: &[Attr], indent: usize) -> String {
    let pad = " ".repeat(indent);
    let shown: Vec<&Attr> = attrs
        .iter()
        .filter(|a| v.get(a.name).is_some_and(|x| !x.is_null()))
        .collect();
    let w = shown.iter().map(|a| a.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for a in shown {
        let x = v.get(a.name).unwrap_or(&Value::Null);
        let text = match a.ty {
            _ if a.sensitive => "(sensitive value)".to_string(),
            Ty::Object(inner) => format!("{{\n{}{pad}}}", object_text(x, inner, indent + 4)),
            _ => hcl_literal(x, indent),
        };
        out.push_str(&format!("{pad}{:<w$} = {text}\n", a.name));
    }
    out
}
