//! Static validation of a loaded module against the provider 0.6.5 schemas:
//! resource types, arguments, blocks, read-only attributes, required
//! arguments, and every reference (`var.x`, `local.x`, `type.name.attr`),
//! with Terraform's summaries, details and "Did you mean" suggestions.
//!
//! Value types are checked after evaluation, in `typecheck.rs`.

use crate::config::{Module, ResourceConfig};
use crate::diagnostics::{Diagnostic, Span};
use crate::hcl::{Block, Body, Expr, Step, Traversal};
use crate::schema::{self, Mode, ResourceSchema, Support};

const META_ARGS: &[&str] = &["count", "depends_on", "for_each", "provider"];
const PROVIDER: &str = "airbytehq/airbyte";

/// Runs every static check; returns the diagnostics in source order.
pub fn validate(m: &Module) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for p in &m.providers {
        check_provider_block(p, &mut diags);
    }
    for d in &m.data_blocks {
        diags.push(
            Diagnostic::error(
                "Invalid data source",
                format!(
                    "The provider {PROVIDER} does not support data source \"{}\".",
                    d.labels[0]
                ),
            )
            .at(&d.span),
        );
    }
    for r in &m.resources {
        check_resource(m, r, &mut diags);
    }
    for a in &m.locals {
        check_refs(m, &a.expr, None, &mut diags);
    }
    for o in &m.outputs {
        match &o.value {
            Some(e) => check_refs(m, e, None, &mut diags),
            None => diags.push(missing_argument("value", &o.block.span)),
        }
    }
    diags
}

fn check_provider_block(p: &Block, diags: &mut Vec<Diagnostic>) {
    if p.labels[0] != "airbyte" {
        return;
    }
    check_body_args(
        &p.body,
        &|n| schema::PROVIDER.iter().any(|a| a.name == n) || n == "alias",
        diags,
    );
}

fn check_resource(m: &Module, r: &ResourceConfig, diags: &mut Vec<Diagnostic>) {
    let Some(schema) = schema::resource(&r.type_name) else {
        diags.push(invalid_type(r));
        return;
    };
    let body = &r.block.body;
    let known = |n: &str| schema.attr(n).is_some() || META_ARGS.contains(&n);
    check_body_args(body, &known, diags);
    for a in &body.attributes {
        if schema
            .attr(&a.name)
            .is_some_and(|x| x.mode == Mode::Computed)
        {
            diags.push(
                Diagnostic::error(
                    "Value for unconfigurable attribute",
                    format!("Can't configure a value for \"{}\": its value will be decided automatically based on the result of applying this configuration.", a.name),
                )
                .at(&a.expr.span),
            );
        }
    }
    for a in schema.attrs.iter().filter(|a| a.mode == Mode::Required) {
        if body.attribute(a.name).is_none() {
            diags.push(missing_argument(a.name, &r.block.span));
        }
    }
    if body.attribute("count").is_some() && body.attribute("for_each").is_some() {
        diags.push(
            Diagnostic::error(
                "Invalid combination of \"count\" and \"for_each\"",
                "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.",
            )
            .at(&r.block.span),
        );
    }
    for a in &body.attributes {
        check_refs(m, &a.expr, Some(r), diags);
    }
    if let Support::Rejected(summary, detail) = schema.support {
        diags.push(
            Diagnostic::error(summary, detail)
                .at(&r.block.span)
                .with_address(r.address()),
        );
    }
}

fn invalid_type(r: &ResourceConfig) -> Diagnostic {
    let known: Vec<&str> = schema::RESOURCES.iter().map(|s| s.type_name).collect();
    let mut detail = format!(
        "The provider {PROVIDER} does not support resource type \"{}\".",
        r.type_name
    );
    if let Some(s) = suggest(&r.type_name, &known) {
        detail.push_str(&format!(" Did you mean \"{s}\"?"));
    } else if r.type_name.starts_with("airbyte_") {
        detail.push_str(&format!(
            "\n\nThis environment emulates provider 0.6.5 for the resource types ELT-Bench pipelines use: {}.",
            known.join(", ")
        ));
    }
    Diagnostic::error("Invalid resource type", detail).at(&r.block.span)
}

fn missing_argument(name: &str, span: &Span) -> Diagnostic {
    Diagnostic::error(
        "Missing required argument",
        format!("The argument \"{name}\" is required, but no definition was found."),
    )
    .at(span)
}

/// "Unsupported argument" / "Unsupported block type" for a body.
fn check_body_args(body: &Body, known: &dyn Fn(&str) -> bool, diags: &mut Vec<Diagnostic>) {
    for a in &body.attributes {
        if !known(&a.name) {
            let mut detail = format!("An argument named \"{}\" is not expected here.", a.name);
            if let Some(s) = suggest_known(&a.name, known) {
                detail.push_str(&format!(" Did you mean \"{s}\"?"));
            }
            diags.push(Diagnostic::error("Unsupported argument", detail).at(&a.name_span));
        }
    }
    for b in &body.blocks {
        if b.kind == "lifecycle" {
            continue;
        }
        let mut detail = format!("Blocks of type \"{}\" are not expected here.", b.kind);
        if known(&b.kind) {
            detail.push_str(&format!(
                " Did you mean to define argument \"{}\"? If so, use the equals sign to assign it a value.",
                b.kind
            ));
        }
        diags.push(Diagnostic::error("Unsupported block type", detail).at(&b.span));
    }
}

fn suggest_known(name: &str, known: &dyn Fn(&str) -> bool) -> Option<String> {
    let mut candidates: Vec<&str> = schema::RESOURCES
        .iter()
        .flat_map(|r| r.attrs.iter().map(|a| a.name))
        .chain(schema::PROVIDER.iter().map(|a| a.name))
        .chain(META_ARGS.iter().copied())
        .filter(|c| known(c))
        .collect();
    candidates.sort();
    candidates.dedup();
    suggest(name, &candidates).map(str::to_string)
}

/// Terraform's nameSuggestion: the first candidate within edit distance 2.
pub fn suggest<'a>(given: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .copied()
        .find(|c| levenshtein(given, c) < 3)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Checks every reference in `e`; `within` is the resource whose body it is in.
pub fn check_refs(
    m: &Module,
    e: &Expr,
    within: Option<&ResourceConfig>,
    diags: &mut Vec<Diagnostic>,
) {
    for t in e.traversals() {
        if let Some(d) = check_traversal(m, &t, within) {
            diags.push(d);
        }
    }
}

fn first_attr(t: &Traversal) -> Option<(&str, &Span)> {
    match t.steps.first() {
        Some(Step::Attr(n, s)) => Some((n.as_str(), s)),
        _ => None,
    }
}

fn check_traversal(
    m: &Module,
    t: &Traversal,
    within: Option<&ResourceConfig>,
) -> Option<Diagnostic> {
    match t.root.as_str() {
        "var" => check_var(m, t),
        "local" => check_local(m, t),
        "path" | "terraform" => None,
        "each" => meta_ref(t, within, "for_each", "each"),
        "count" => meta_ref(t, within, "count", "count"),
        "self" => Some(Diagnostic::error(
            "Invalid \"self\" reference",
            "The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.",
        ).at(&t.span)),
        "data" | "module" => Some(Diagnostic::error(
            "Reference to undeclared resource",
            format!("A {} \"{}\" has not been declared in the root module.", if t.root == "data" { "data resource" } else { "module call" }, first_attr(t).map_or("", |a| a.0)),
        ).at(&t.span)),
        _ => check_resource_ref(m, t),
    }
}

fn check_var(m: &Module, t: &Traversal) -> Option<Diagnostic> {
    let Some((name, _)) = first_attr(t) else {
        return Some(Diagnostic::error("Invalid reference", "The \"var\" object cannot be accessed directly. Instead, access one of its attributes.").at(&t.span));
    };
    if m.variables.contains_key(name) {
        return None;
    }
    let mut detail = format!("An input variable with the name \"{name}\" has not been declared.");
    let names: Vec<&str> = m.variables.keys().map(String::as_str).collect();
    match suggest(name, &names) {
        Some(s) => detail.push_str(&format!(" Did you mean \"{s}\"?")),
        None => detail.push_str(&format!(
            " This variable can be declared with a variable \"{name}\" {{}} block."
        )),
    }
    Some(Diagnostic::error("Reference to undeclared input variable", detail).at(&t.span))
}

fn check_local(m: &Module, t: &Traversal) -> Option<Diagnostic> {
    let Some((name, _)) = first_attr(t) else {
        return Some(Diagnostic::error("Invalid reference", "The \"local\" object cannot be accessed directly. Instead, access one of its attributes.").at(&t.span));
    };
    if m.locals.iter().any(|a| a.name == name) {
        return None;
    }
    let mut detail = format!("A local value with the name \"{name}\" has not been declared.");
    let names: Vec<&str> = m.locals.iter().map(|a| a.name.as_str()).collect();
    if let Some(s) = suggest(name, &names) {
        detail.push_str(&format!(" Did you mean \"{s}\"?"));
    }
    Some(Diagnostic::error("Reference to undeclared local value", detail).at(&t.span))
}

fn meta_ref(
    t: &Traversal,
    within: Option<&ResourceConfig>,
    arg: &str,
    root: &str,
) -> Option<Diagnostic> {
    if within.is_some_and(|r| r.block.body.attribute(arg).is_some()) {
        return None;
    }
    Some(
        Diagnostic::error(
            format!("Reference to \"{root}\" in context without {arg}"),
            format!("The \"{root}\" object can be used only in \"module\" or \"resource\" blocks, and only if the \"{arg}\" argument is set."),
        )
        .at(&t.span),
    )
}

fn check_resource_ref(m: &Module, t: &Traversal) -> Option<Diagnostic> {
    let Some((name, _)) = first_attr(t) else {
        return Some(Diagnostic::error(
            "Invalid reference",
            "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
        ).at(&t.span));
    };
    let Some(r) = m.resource(&t.root, name) else {
        let mut detail = format!(
            "A managed resource \"{}\" \"{name}\" has not been declared in the root module.",
            t.root
        );
        let same_type: Vec<&str> = m
            .resources
            .iter()
            .filter(|r| r.type_name == t.root)
            .map(|r| r.name.as_str())
            .collect();
        if let Some(s) = suggest(name, &same_type) {
            detail.push_str(&format!(" Did you mean \"{s}\"?"));
        }
        return Some(Diagnostic::error("Reference to undeclared resource", detail).at(&t.span));
    };
    let schema = schema::resource(&r.type_name)?;
    let multi =
        r.block.body.attribute("count").is_some() || r.block.body.attribute("for_each").is_some();
    let attr_step = if multi {
        t.steps.get(2)
    } else {
        t.steps.get(1)
    };
    match attr_step {
        Some(Step::Attr(attr, span)) => check_attr_exists(schema, attr, span),
        _ => None,
    }
}

fn check_attr_exists(schema: &ResourceSchema, attr: &str, span: &Span) -> Option<Diagnostic> {
    if schema.attr(attr).is_some() {
        return None;
    }
    let names: Vec<&str> = schema.attrs.iter().map(|a| a.name).collect();
    let mut detail = format!(
        "This object has no argument, nested block, or exported attribute named \"{attr}\"."
    );
    if let Some(s) = suggest(attr, &names) {
        detail.push_str(&format!(" Did you mean \"{s}\"?"));
    }
    Some(Diagnostic::error("Unsupported attribute", detail).at(span))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_follow_terraform_distance() {
        assert_eq!(
            suggest("workspace_idd", &["name", "workspace_id"]),
            Some("workspace_id")
        );
        assert_eq!(suggest("xyz", &["name", "workspace_id"]), None);
    }
}
