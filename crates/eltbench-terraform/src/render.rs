//! Terraform's human-readable plan: the action legend, one `# addr will be
//! created` section per change with `+`/`~`/`-`/`-/+` markers, aligned
//! attributes, `(known after apply)`, `(sensitive value)`, hidden-unchanged
//! counts, `# forces replacement`, and the "Plan: N to add..." summary.
//!
//! Formatting only.

use std::fmt::Write as _;

use crate::eval::hcl_literal;
use crate::plan::{Action, Change, Plan};
use crate::schema::{Attr, Ty};
use crate::value::Value;

pub fn plan_text(plan: &Plan, destroy: bool) -> String {
    let mut out = String::new();
    out.push_str("\nTerraform used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:\n");
    let has = |a: Action| plan.changes.iter().any(|c| c.action == a);
    for (action, line) in [
        (Action::Create, "  + create\n"),
        (Action::Update, "  ~ update in-place\n"),
        (Action::Delete, "  - destroy\n"),
        (Action::Replace, "-/+ destroy and then create replacement\n"),
    ] {
        if has(action) {
            out.push_str(line);
        }
    }
    out.push_str("\nTerraform will perform the following actions:\n");
    for c in plan.changes.iter().filter(|c| c.action != Action::NoOp) {
        out.push('\n');
        out.push_str(&change_text(c));
    }
    let (add, change, del) = plan.counts();
    let _ = writeln!(
        out,
        "\nPlan: {add} to add, {change} to change, {del} to destroy."
    );
    if !destroy {
        out.push_str(&outputs_text(plan));
    }
    out
}

fn outputs_text(plan: &Plan) -> String {
    let shown: Vec<_> = plan
        .outputs
        .iter()
        .filter(|(k, (v, _))| plan.prior_outputs.get(*k) != Some(v))
        .collect();
    if shown.is_empty() || !plan.has_changes() {
        return String::new();
    }
    let w = shown.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let mut out = String::from("\nChanges to Outputs:\n");
    for (k, (v, sensitive)) in shown {
        let text = if *sensitive {
            "(sensitive value)".to_string()
        } else {
            hcl_literal(v, 4)
        };
        match plan.prior_outputs.get(k) {
            Some(old) => {
                let _ = writeln!(out, "  ~ {k:<w$} = {} -> {text}", hcl_literal(old, 4));
            }
            None => {
                let _ = writeln!(out, "  + {k:<w$} = {text}");
            }
        }
    }
    out
}

fn change_text(c: &Change) -> String {
    let (what, marker) = match c.action {
        Action::Create => ("will be created", "  +"),
        Action::Update => ("will be updated in-place", "  ~"),
        Action::Delete => ("will be destroyed", "  -"),
        Action::Replace => ("must be replaced", "-/+"),
        Action::NoOp => ("", "   "),
    };
    let mut out = format!("  # {} {what}\n", c.address);
    let _ = writeln!(
        out,
        "{marker} resource \"{}\" \"{}\" {{",
        c.type_name, c.name
    );
    let mut r = Renderer {
        out: String::new(),
        replace: &c.replace_paths,
    };
    r.attrs(c.schema.attrs, c.before.as_ref(), c.after.as_ref(), 6, true);
    out.push_str(&r.out);
    out.push_str("    }\n");
    out
}

struct Renderer<'a> {
    out: String,
    replace: &'a std::collections::BTreeSet<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Mark {
    Add,
    Remove,
    Change,
    Same,
}

impl Mark {
    fn sym(self) -> &'static str {
        match self {
            Mark::Add => "+ ",
            Mark::Remove => "- ",
            Mark::Change => "~ ",
            Mark::Same => "  ",
        }
    }
}

fn mark(before: Option<&Value>, after: Option<&Value>, creating: bool) -> Option<Mark> {
    let b = before.filter(|v| !v.is_null());
    let a = after.filter(|v| !v.is_null());
    match (b, a) {
        (None, None) => None,
        (None, Some(_)) => Some(Mark::Add),
        (Some(_), None) if creating => None,
        (Some(_), None) => Some(Mark::Remove),
        (Some(x), Some(y)) if x == y => Some(Mark::Same),
        _ => Some(Mark::Change),
    }
}

impl Renderer<'_> {
    fn attrs(
        &mut self,
        attrs: &[Attr],
        before: Option<&Value>,
        after: Option<&Value>,
        indent: usize,
        top: bool,
    ) {
        let rows: Vec<(&Attr, Mark)> = attrs
            .iter()
            .filter_map(|a| {
                let m = mark(
                    before.and_then(|v| v.get(a.name)),
                    after.and_then(|v| v.get(a.name)),
                    before.is_none(),
                )?;
                let shown = m != Mark::Same || (top && matches!(a.name, "name" | "id"));
                shown.then_some((a, m))
            })
            .collect();
        let hidden = attrs
            .iter()
            .filter(|a| {
                mark(
                    before.and_then(|v| v.get(a.name)),
                    after.and_then(|v| v.get(a.name)),
                    false,
                ) == Some(Mark::Same)
            })
            .count()
            - rows.iter().filter(|(_, m)| *m == Mark::Same).count();
        // Terraform aligns over every non-null attribute, hidden ones included.
        let w = attrs
            .iter()
            .filter(|a| {
                mark(
                    before.and_then(|v| v.get(a.name)),
                    after.and_then(|v| v.get(a.name)),
                    before.is_none(),
                )
                .is_some()
            })
            .map(|a| a.name.len())
            .max()
            .unwrap_or(0);
        for (a, m) in &rows {
            self.row(
                a,
                *m,
                before.and_then(|v| v.get(a.name)),
                after.and_then(|v| v.get(a.name)),
                indent,
                w,
                top,
            );
        }
        if hidden > 0 && before.is_some() && after.is_some() {
            let noun = if hidden == 1 {
                "attribute"
            } else {
                "attributes"
            };
            let _ = writeln!(
                self.out,
                "{}  # ({hidden} unchanged {noun} hidden)",
                " ".repeat(indent)
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn row(
        &mut self,
        a: &Attr,
        m: Mark,
        b: Option<&Value>,
        af: Option<&Value>,
        indent: usize,
        w: usize,
        top: bool,
    ) {
        let pad = " ".repeat(indent);
        let _ = write!(self.out, "{pad}{}{:<w$} = ", m.sym(), a.name);
        let suffix = if top && self.replace.contains(a.name) {
            " # forces replacement"
        } else {
            ""
        };
        let text = if a.sensitive {
            sensitive_pair(m)
        } else {
            self.value(&a.ty, m, b, af, indent)
        };
        self.out.push_str(&text);
        self.out.push_str(suffix);
        self.out.push('\n');
    }

    /// The right-hand side of one attribute row.
    fn value(
        &self,
        ty: &Ty,
        m: Mark,
        b: Option<&Value>,
        af: Option<&Value>,
        indent: usize,
    ) -> String {
        let known = |v: Option<&Value>| !matches!(v, Some(Value::Unknown));
        match (ty, m) {
            (Ty::Object(inner), Mark::Add | Mark::Same) if is_obj(af) => {
                self.nested(inner, None, af, indent)
            }
            (Ty::Object(inner), Mark::Remove) if is_obj(b) => self.nested(inner, b, None, indent),
            (Ty::Object(inner), Mark::Change) if is_obj(b) && is_obj(af) => {
                self.nested(inner, b, af, indent)
            }
            (Ty::ListNested(inner) | Ty::SetNested(inner), _)
                if known(b) && known(af) && is_list_or_null(b, af) =>
            {
                self.list(m, b, af, indent, Some(inner))
            }
            (Ty::StringList | Ty::StringListList, _)
                if known(b) && known(af) && is_list_or_null(b, af) =>
            {
                self.list(m, b, af, indent, None)
            }
            (_, Mark::Add | Mark::Same) => value_text(af, indent + 2),
            (_, Mark::Remove) => format!("{} -> null", value_text(b, indent + 2)),
            (_, Mark::Change) => format!(
                "{} -> {}",
                value_text(b, indent + 2),
                value_text(af, indent + 2)
            ),
        }
    }

    fn nested(
        &self,
        inner: &[Attr],
        b: Option<&Value>,
        af: Option<&Value>,
        indent: usize,
    ) -> String {
        let mut sub = Renderer {
            out: String::new(),
            replace: self.replace,
        };
        sub.attrs(inner, b, af, indent + 4, false);
        if sub.out.is_empty() {
            return "{}".into();
        }
        format!("{{\n{}{}  }}", sub.out, " ".repeat(indent))
    }

    /// Lists render element by element: `+`/`-` per element, unchanged hidden.
    fn list(
        &self,
        m: Mark,
        b: Option<&Value>,
        af: Option<&Value>,
        indent: usize,
        inner: Option<&[Attr]>,
    ) -> String {
        let items = |v: Option<&Value>| match v {
            Some(Value::List(items)) => items.clone(),
            _ => Vec::new(),
        };
        let (before, after) = (items(b), items(af));
        if before.is_empty() && after.is_empty() {
            return if m == Mark::Remove {
                "[] -> null".into()
            } else {
                "[]".into()
            };
        }
        let pad = " ".repeat(indent + 4);
        let mut out = String::from("[\n");
        let mut hidden = 0;
        for x in before.iter().filter(|x| !after.contains(x)) {
            out.push_str(&self.element(Mark::Remove, x, &pad, indent, inner));
        }
        for x in &after {
            if before.contains(x) && m != Mark::Add {
                hidden += 1;
            } else {
                out.push_str(&self.element(Mark::Add, x, &pad, indent, inner));
            }
        }
        if hidden > 0 {
            let noun = if hidden == 1 { "element" } else { "elements" };
            let _ = writeln!(out, "{pad}  # ({hidden} unchanged {noun} hidden)");
        }
        let _ = write!(out, "{}  ]", " ".repeat(indent));
        if m == Mark::Remove {
            out.push_str(" -> null");
        }
        out
    }

    fn element(
        &self,
        m: Mark,
        x: &Value,
        pad: &str,
        indent: usize,
        inner: Option<&[Attr]>,
    ) -> String {
        match inner {
            Some(attrs) => {
                let (b, a) = if m == Mark::Remove {
                    (Some(x), None)
                } else {
                    (None, Some(x))
                };
                let mut sub = Renderer {
                    out: String::new(),
                    replace: self.replace,
                };
                sub.attrs(attrs, b, a, indent + 8, false);
                format!("{pad}{}{{\n{}{pad}  }},\n", m.sym(), sub.out)
            }
            None => format!("{pad}{}{},\n", m.sym(), hcl_literal(x, indent + 6)),
        }
    }
}

fn is_list_or_null(b: Option<&Value>, af: Option<&Value>) -> bool {
    let ok = |v: Option<&Value>| matches!(v, None | Some(Value::Null) | Some(Value::List(_)));
    ok(b) && ok(af)
}

fn is_obj(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Object(_)))
}

fn sensitive_pair(m: Mark) -> String {
    match m {
        Mark::Change => "(sensitive value)".into(),
        Mark::Remove => "(sensitive value) -> null".into(),
        _ => "(sensitive value)".into(),
    }
}

fn value_text(v: Option<&Value>, indent: usize) -> String {
    match v {
        None | Some(Value::Null) => "null".into(),
        Some(v) => hcl_literal(v, indent),
    }
}
