//! The dependency graph between resources: edges from references (direct or
//! through locals) and `depends_on`, and a stable topological order.
//!
//! Works on the syntax tree only; no evaluation.

use std::collections::{BTreeMap, BTreeSet};

use crate::config::Module;
use crate::diagnostics::Diagnostic;
use crate::hcl::{Expr, Step};

/// Resource addresses (`type.name`) each configured resource depends on.
pub fn dependencies(m: &Module) -> BTreeMap<String, BTreeSet<String>> {
    let local_deps = local_dependencies(m);
    let mut out = BTreeMap::new();
    for r in &m.resources {
        let mut deps = BTreeSet::new();
        for a in &r.block.body.attributes {
            deps.extend(expr_deps(m, &a.expr, &local_deps));
        }
        deps.remove(&r.address());
        out.insert(r.address(), deps);
    }
    out
}

/// Resource addresses referenced by an expression, following locals.
pub fn expr_deps(
    m: &Module,
    e: &Expr,
    local_deps: &BTreeMap<String, BTreeSet<String>>,
) -> BTreeSet<String> {
    let mut deps = BTreeSet::new();
    for t in e.traversals() {
        let first = match t.steps.first() {
            Some(Step::Attr(n, _)) => n.clone(),
            _ => continue,
        };
        if t.root == "local" {
            deps.extend(local_deps.get(&first).cloned().unwrap_or_default());
        } else if m.resource(&t.root, &first).is_some() {
            deps.insert(format!("{}.{first}", t.root));
        }
    }
    deps
}

/// For each local, the resources it depends on (transitively through locals).
pub fn local_dependencies(m: &Module) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // Iterate to a fixpoint: locals are few, so a simple relaxation suffices.
    for _ in 0..=m.locals.len() {
        let mut changed = false;
        for a in &m.locals {
            let deps = expr_deps(m, &a.expr, &out);
            let entry = out.entry(a.name.clone()).or_default();
            let before = entry.len();
            entry.extend(deps);
            changed |= entry.len() != before;
        }
        if !changed {
            break;
        }
    }
    out
}

/// Addresses in an order where every resource comes after its dependencies;
/// ties keep configuration order. A cycle is reported as Terraform does.
pub fn order(
    m: &Module,
    deps: &BTreeMap<String, BTreeSet<String>>,
) -> Result<Vec<String>, Box<Diagnostic>> {
    let all: Vec<String> = m.resources.iter().map(|r| r.address()).collect();
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    while out.len() < all.len() {
        let next = all.iter().find(|a| {
            !done.contains(*a)
                && deps
                    .get(*a)
                    .is_none_or(|d| d.iter().all(|x| done.contains(x) || !all.contains(x)))
        });
        match next {
            Some(a) => {
                done.insert(a.clone());
                out.push(a.clone());
            }
            None => {
                let cycle: Vec<String> =
                    all.iter().filter(|a| !done.contains(*a)).cloned().collect();
                return Err(Box::new(Diagnostic::error(
                    format!("Cycle: {}", cycle.join(", ")),
                    "",
                )));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn module(src: &str) -> Module {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.tf"), src).unwrap();
        let (m, diags) = crate::config::load(Path::new(dir.path()));
        assert!(diags.is_empty(), "{diags:?}");
        m
    }

    #[test]
    fn connection_comes_after_its_source_even_through_locals() {
        let m = module(
            "locals {\n  src = airbyte_source_postgres.pg.source_id\n}\nresource \"airbyte_connection\" \"c\" {\n  source_id = local.src\n  destination_id = airbyte_destination_duckdb.d.destination_id\n}\nresource \"airbyte_destination_duckdb\" \"d\" {}\nresource \"airbyte_source_postgres\" \"pg\" {}\n",
        );
        let deps = dependencies(&m);
        let order = order(&m, &deps).unwrap();
        assert_eq!(
            order,
            vec![
                "airbyte_destination_duckdb.d",
                "airbyte_source_postgres.pg",
                "airbyte_connection.c"
            ]
        );
    }

    #[test]
    fn cycles_are_reported() {
        let m = module(
            "resource \"airbyte_connection\" \"a\" {\n  name = airbyte_connection.b.name\n}\nresource \"airbyte_connection\" \"b\" {\n  name = airbyte_connection.a.name\n}\n",
        );
        let err = order(&m, &dependencies(&m)).unwrap_err();
        assert_eq!(
            err.summary,
            "Cycle: airbyte_connection.a, airbyte_connection.b"
        );
    }
}
