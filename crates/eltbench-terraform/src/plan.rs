//! Planning: evaluating each resource instance (count/for_each expanded) in
//! dependency order, converting it to the schema, merging defaults and prior
//! state as Terraform's proposed-new-state does, and deciding create,
//! update in place, replace (an attribute the provider marks "Requires
//! replacement" changed) or delete.
//!
//! No HTTP here; `apply.rs` executes a plan.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value as Json;

use crate::config::{Module, ResourceConfig};
use crate::diagnostics::{Diagnostic, Span};
use crate::eval::Scope;
use crate::graph;
use crate::hcl::{Expr, ExprKind};
use crate::schema::{self, Attr, Mode, ResourceSchema, Ty};
use crate::state::{State, instance_address};
use crate::typecheck::{self, PathStep};
use crate::value::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    NoOp,
    Create,
    Update,
    Replace,
    Delete,
}

#[derive(Debug, Clone)]
pub struct Change {
    pub address: String,
    pub type_name: String,
    pub name: String,
    pub index_key: Option<Json>,
    pub schema: &'static ResourceSchema,
    pub action: Action,
    pub before: Option<Value>,
    pub after: Option<Value>,
    /// Top-level attributes whose change forces replacement.
    pub replace_paths: BTreeSet<String>,
    pub dependencies: Vec<String>,
    /// The resource block header, for provider diagnostics.
    pub span: Option<Span>,
}

#[derive(Debug, Default)]
pub struct Plan {
    /// Every instance, in dependency order (deletions of orphans last).
    pub changes: Vec<Change>,
    pub outputs: BTreeMap<String, (Value, bool)>,
    /// Output values recorded in the prior state.
    pub prior_outputs: BTreeMap<String, Value>,
    pub scope: Scope,
}

impl Plan {
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut c = (0, 0, 0);
        for ch in &self.changes {
            match ch.action {
                Action::Create => c.0 += 1,
                Action::Update => c.1 += 1,
                Action::Replace => {
                    c.0 += 1;
                    c.2 += 1;
                }
                Action::Delete => c.2 += 1,
                Action::NoOp => {}
            }
        }
        c
    }

    pub fn has_changes(&self) -> bool {
        self.changes.iter().any(|c| c.action != Action::NoOp)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanMode {
    Normal,
    Destroy,
}

/// Builds a plan from the module, the variable values and the prior state.
pub fn build(
    m: &Module,
    vars: BTreeMap<String, Value>,
    prior: &State,
    mode: PlanMode,
) -> (Plan, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut plan = Plan::default();
    plan.scope.vars = vars;
    plan.scope.symbols.insert("path".into(), path_object());
    for r in &m.resources {
        plan.scope
            .resources
            .entry(r.type_name.clone())
            .or_default()
            .insert(r.name.clone(), Value::Unknown);
    }
    if mode == PlanMode::Destroy {
        plan.changes = destroy_all(prior);
        return (plan, diags);
    }
    let deps = graph::dependencies(m);
    let order = match graph::order(m, &deps) {
        Ok(o) => o,
        Err(d) => return (plan, vec![*d]),
    };
    let prior_by_addr: BTreeMap<String, Value> = prior
        .instances()
        .into_iter()
        .map(|(a, _, i)| (a, Value::from_json(&i.attributes)))
        .collect();
    let mut planned_addrs = BTreeSet::new();
    for addr in &order {
        let Some(r) = m.resources.iter().find(|r| &r.address() == addr) else {
            continue;
        };
        refresh_locals(m, &mut plan.scope, &mut diags);
        let r_deps: Vec<String> = deps
            .get(addr)
            .map(|d| d.iter().cloned().collect())
            .unwrap_or_default();
        let changes = plan_resource(r, &mut plan.scope, &prior_by_addr, r_deps, &mut diags);
        planned_addrs.extend(changes.iter().map(|c| c.address.clone()));
        plan.changes.extend(changes);
    }
    plan.changes.extend(orphans(prior, &planned_addrs));
    refresh_locals(m, &mut plan.scope, &mut diags);
    plan.outputs = eval_outputs(m, &plan.scope, &mut diags);
    plan.prior_outputs = prior
        .outputs
        .iter()
        .map(|(k, o)| (k.clone(), Value::from_json(&o.value)))
        .collect();
    (plan, diags)
}

/// Re-evaluates one planned instance at apply time, when the values that
/// were unknown during planning (ids of resources created earlier) are known.
pub fn reevaluate(m: &Module, c: &Change, scope: &mut Scope) -> Result<Value, Box<Diagnostic>> {
    let mut diags = Vec::new();
    let missing = || {
        Box::new(Diagnostic::error(
            "Resource instance no longer configured",
            format!(
                "{} disappeared from the configuration during apply.",
                c.address
            ),
        ))
    };
    let r = m.resource(&c.type_name, &c.name).ok_or_else(missing)?;
    refresh_locals(m, scope, &mut diags);
    let spec = expand(r, scope, &mut diags)
        .and_then(|specs| specs.into_iter().find(|s| s.key == c.index_key))
        .ok_or_else(missing)?;
    let mut inst_scope = scope.clone();
    inst_scope.symbols.extend(spec.symbols);
    let config = eval_config(r, c.schema, &inst_scope, &c.address, &mut diags);
    match (config, diags.into_iter().find(Diagnostic::is_error)) {
        (Some(config), None) => {
            let prior = if c.action == Action::Update {
                c.before.as_ref()
            } else {
                None
            };
            Ok(propose(c.schema.attrs, &config, prior))
        }
        (_, Some(d)) => Err(Box::new(d)),
        (None, None) => Err(missing()),
    }
}

fn path_object() -> Value {
    Value::Object(BTreeMap::from([
        ("module".to_string(), Value::str(".")),
        ("root".to_string(), Value::str(".")),
        ("cwd".to_string(), Value::str(".")),
    ]))
}

fn refresh_locals(m: &Module, scope: &mut Scope, diags: &mut Vec<Diagnostic>) {
    scope.locals.clear();
    let mut local_diags = Vec::new();
    crate::vars::eval_locals(m, scope, &mut local_diags);
    for d in local_diags {
        if !diags.contains(&d) {
            diags.push(d);
        }
    }
}

fn destroy_all(prior: &State) -> Vec<Change> {
    let mut out: Vec<Change> = prior
        .instances()
        .into_iter()
        .filter_map(|(addr, r, i)| delete_change(addr, r.type_name.clone(), r.name.clone(), i))
        .collect();
    out.reverse();
    out
}

fn delete_change(
    addr: String,
    type_name: String,
    name: String,
    i: &crate::state::InstanceState,
) -> Option<Change> {
    let schema = schema::resource(&type_name)?;
    Some(Change {
        address: addr,
        type_name,
        name,
        index_key: i.index_key.clone(),
        schema,
        action: Action::Delete,
        before: Some(Value::from_json(&i.attributes)),
        after: None,
        replace_paths: BTreeSet::new(),
        dependencies: i.dependencies.clone(),
        span: None,
    })
}

fn orphans(prior: &State, planned: &BTreeSet<String>) -> Vec<Change> {
    let mut out: Vec<Change> = prior
        .instances()
        .into_iter()
        .filter(|(addr, ..)| !planned.contains(addr))
        .filter_map(|(addr, r, i)| delete_change(addr, r.type_name.clone(), r.name.clone(), i))
        .collect();
    out.reverse();
    out
}

/// One instance to plan: its key and iterator symbols.
struct InstanceSpec {
    key: Option<Json>,
    symbols: Vec<(String, Value)>,
}

fn expand(
    r: &ResourceConfig,
    scope: &Scope,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<InstanceSpec>> {
    let body = &r.block.body;
    if let Some(a) = body.attribute("count") {
        let n = match scope.eval(&a.expr) {
            Ok(Value::Number(n)) if n >= 0.0 => n as usize,
            Ok(_) => {
                diags.push(Diagnostic::error("Invalid count argument", "The given \"count\" argument value is unsuitable: must be a whole number, known before apply.").at(&a.expr.span));
                return None;
            }
            Err(d) => {
                diags.push(*d);
                return None;
            }
        };
        let specs = (0..n)
            .map(|i| InstanceSpec {
                key: Some(Json::from(i)),
                symbols: vec![(
                    "count".into(),
                    Value::Object(BTreeMap::from([(
                        "index".to_string(),
                        Value::Number(i as f64),
                    )])),
                )],
            })
            .collect();
        return Some(specs);
    }
    if let Some(a) = body.attribute("for_each") {
        return for_each_specs(&a.expr, scope, diags);
    }
    Some(vec![InstanceSpec {
        key: None,
        symbols: Vec::new(),
    }])
}

fn for_each_specs(
    e: &Expr,
    scope: &Scope,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<InstanceSpec>> {
    let pairs: Vec<(String, Value)> = match scope.eval(e) {
        Ok(Value::Object(m)) => m.into_iter().collect(),
        Ok(Value::List(items)) if items.iter().all(|i| matches!(i, Value::String(_))) => items
            .into_iter()
            .filter_map(|i| i.as_str().map(|s| (s.to_string(), i.clone())))
            .collect(),
        Ok(Value::Unknown) => {
            diags.push(Diagnostic::error("Invalid for_each argument", "The \"for_each\" map includes keys or set values that cannot be determined until apply, and so Terraform cannot determine the full set of keys that will identify the instances of this resource.").at(&e.span));
            return None;
        }
        Ok(other) => {
            diags.push(Diagnostic::error("Invalid for_each argument", format!("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.", other.type_name())).at(&e.span));
            return None;
        }
        Err(d) => {
            diags.push(*d);
            return None;
        }
    };
    let specs = pairs
        .into_iter()
        .map(|(k, v)| InstanceSpec {
            key: Some(Json::String(k.clone())),
            symbols: vec![(
                "each".into(),
                Value::Object(BTreeMap::from([
                    ("key".to_string(), Value::str(k)),
                    ("value".to_string(), v),
                ])),
            )],
        })
        .collect();
    Some(specs)
}

fn plan_resource(
    r: &ResourceConfig,
    scope: &mut Scope,
    prior: &BTreeMap<String, Value>,
    deps: Vec<String>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Change> {
    let Some(schema) = schema::resource(&r.type_name) else {
        return Vec::new();
    };
    let Some(specs) = expand(r, scope, diags) else {
        return Vec::new();
    };
    let mut changes = Vec::new();
    let mut by_key: BTreeMap<String, Value> = BTreeMap::new();
    let mut by_index: Vec<Value> = Vec::new();
    for spec in specs {
        let address = instance_address(&r.type_name, &r.name, spec.key.as_ref());
        let mut inst_scope = scope.clone();
        inst_scope.symbols.extend(spec.symbols);
        let Some(config) = eval_config(r, schema, &inst_scope, &address, diags) else {
            continue;
        };
        let change = plan_instance(
            r,
            schema,
            address,
            spec.key.clone(),
            config,
            prior,
            deps.clone(),
        );
        let visible = change.after.clone().unwrap_or(Value::Unknown);
        match &spec.key {
            Some(Json::String(k)) => {
                by_key.insert(k.clone(), visible);
            }
            Some(_) => by_index.push(visible),
            None => {
                scope
                    .resources
                    .entry(r.type_name.clone())
                    .or_default()
                    .insert(r.name.clone(), visible);
            }
        }
        changes.push(change);
    }
    let body = &r.block.body;
    let collection = if body.attribute("for_each").is_some() {
        Some(Value::Object(by_key))
    } else if body.attribute("count").is_some() {
        Some(Value::List(by_index))
    } else {
        None
    };
    if let Some(v) = collection {
        scope
            .resources
            .entry(r.type_name.clone())
            .or_default()
            .insert(r.name.clone(), v);
    }
    changes
}

/// Evaluates and converts the configured attributes of one instance.
fn eval_config(
    r: &ResourceConfig,
    schema: &ResourceSchema,
    scope: &Scope,
    address: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<BTreeMap<String, Value>> {
    let mut out = BTreeMap::new();
    let mut ok = true;
    for a in &r.block.body.attributes {
        let Some(attr) = schema.attr(&a.name) else {
            continue;
        };
        let v = match scope.eval(&a.expr) {
            Ok(v) => v,
            Err(d) => {
                diags.push(*d);
                ok = false;
                continue;
            }
        };
        match typecheck::convert(&v, &attr.ty) {
            Ok(c) => {
                let mut found = Vec::new();
                typecheck::check_values(&c, attr, &mut Vec::new(), &mut found);
                for f in found {
                    let span = locate(&a.expr, &f.path[1..]).unwrap_or(&a.expr.span);
                    diags.push(
                        Diagnostic::error("Invalid Attribute Value Match", f.detail)
                            .at(span)
                            .with_address(address),
                    );
                    ok = false;
                }
                out.insert(a.name.clone(), c);
            }
            Err(msg) => {
                diags.push(
                    Diagnostic::error(
                        "Incorrect attribute value type",
                        format!("Inappropriate value for attribute \"{}\": {msg}.", a.name),
                    )
                    .at(&a.expr.span),
                );
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

/// Finds the expression for a nested attribute path inside object/tuple literals.
fn locate<'e>(e: &'e Expr, path: &[PathStep]) -> Option<&'e Span> {
    let Some((first, rest)) = path.split_first() else {
        return Some(&e.span);
    };
    match (&e.kind, first) {
        (ExprKind::Object(items), PathStep::Attr(name)) => items
            .iter()
            .find(|(k, _)| {
                matches!(&k.kind, ExprKind::Variable(n) if n == name)
                    || crate::hcl::template::literal_value(k).as_deref() == Some(name)
            })
            .and_then(|(_, v)| locate(v, rest)),
        (ExprKind::Tuple(items), PathStep::Index(i)) => items.get(*i).and_then(|v| locate(v, rest)),
        _ => None,
    }
}

fn plan_instance(
    r: &ResourceConfig,
    schema: &'static ResourceSchema,
    address: String,
    index_key: Option<Json>,
    config: BTreeMap<String, Value>,
    prior: &BTreeMap<String, Value>,
    dependencies: Vec<String>,
) -> Change {
    let before = prior.get(&address).cloned();
    let proposed = propose(schema.attrs, &config, before.as_ref());
    let mut change = Change {
        address,
        type_name: r.type_name.clone(),
        name: r.name.clone(),
        index_key,
        schema,
        action: Action::Create,
        before: before.clone(),
        after: Some(proposed.clone()),
        replace_paths: BTreeSet::new(),
        dependencies,
        span: Some(r.block.span.clone()),
    };
    let Some(prior) = before else { return change };
    let differing: Vec<&Attr> = schema
        .attrs
        .iter()
        .filter(|a| !same(proposed.get(a.name), prior.get(a.name), &a.ty))
        .collect();
    if differing.is_empty() {
        change.action = Action::NoOp;
        change.after = Some(prior);
        return change;
    }
    change.replace_paths = differing
        .iter()
        .filter(|a| a.requires_replace && config.get(a.name).is_some_and(|v| !v.is_null()))
        .map(|a| a.name.to_string())
        .collect();
    if change.replace_paths.is_empty() {
        change.action = Action::Update;
    } else {
        change.action = Action::Replace;
        change.after = Some(propose(schema.attrs, &config, None));
    }
    change
}

/// Terraform's proposed new state: configured values, provider defaults,
/// and prior values (or unknown) for unconfigured computed attributes.
fn propose(attrs: &[Attr], config: &BTreeMap<String, Value>, prior: Option<&Value>) -> Value {
    let mut out = BTreeMap::new();
    for a in attrs {
        let prior_v = prior.and_then(|p| p.get(a.name));
        let v = match config.get(a.name).filter(|v| !v.is_null()) {
            Some(v) => merge_nested(v, &a.ty, prior_v),
            None => match (a.default, a.mode) {
                (Some(d), _) => d.value(),
                (None, Mode::Computed | Mode::OptionalComputed) => {
                    prior_v.cloned().unwrap_or(Value::Unknown)
                }
                _ => Value::Null,
            },
        };
        out.insert(a.name.to_string(), v);
    }
    Value::Object(out)
}

fn merge_nested(v: &Value, ty: &Ty, prior: Option<&Value>) -> Value {
    match (ty, v) {
        (Ty::Object(attrs), Value::Object(m)) => propose(attrs, m, prior),
        (Ty::ListNested(attrs) | Ty::SetNested(attrs), Value::List(items)) => {
            let prior_items = match prior {
                Some(Value::List(p)) => p.clone(),
                _ => Vec::new(),
            };
            let merged = items
                .iter()
                .map(|item| {
                    let Value::Object(m) = item else {
                        return item.clone();
                    };
                    let matching = match_prior(item, &prior_items, matches!(ty, Ty::SetNested(_)));
                    propose(attrs, m, matching)
                })
                .collect();
            Value::List(merged)
        }
        _ => v.clone(),
    }
}

/// The prior element an element corresponds to: same `name` for sets
/// (connection streams are unique by name), same position otherwise.
fn match_prior<'p>(item: &Value, prior: &'p [Value], set: bool) -> Option<&'p Value> {
    if set {
        let name = item.get("name")?;
        prior.iter().find(|p| p.get("name") == Some(name))
    } else {
        None
    }
}

fn same(a: Option<&Value>, b: Option<&Value>, ty: &Ty) -> bool {
    let norm = |v: Option<&Value>| -> Value {
        let v = v.cloned().unwrap_or(Value::Null);
        sort_sets(v, ty)
    };
    norm(a) == norm(b)
}

fn sort_sets(v: Value, ty: &Ty) -> Value {
    match (ty, v) {
        (Ty::SetNested(attrs), Value::List(items)) => {
            let mut items: Vec<Value> = items
                .into_iter()
                .map(|i| sort_sets(i, &Ty::Object(attrs)))
                .collect();
            items.sort_by_key(|i| i.to_json().to_string());
            Value::List(items)
        }
        (Ty::Object(attrs), Value::Object(m)) => Value::Object(
            m.into_iter()
                .map(|(k, x)| {
                    let t = attrs
                        .iter()
                        .find(|a| a.name == k)
                        .map_or(Ty::String, |a| a.ty);
                    (k, sort_sets(x, &t))
                })
                .collect(),
        ),
        (_, v) => v,
    }
}

fn eval_outputs(
    m: &Module,
    scope: &Scope,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, (Value, bool)> {
    let mut out = BTreeMap::new();
    for o in &m.outputs {
        let Some(e) = &o.value else { continue };
        match scope.eval(e) {
            Ok(v) => {
                out.insert(o.name.clone(), (v, o.sensitive));
            }
            Err(d) => diags.push(*d),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proposed_state_fills_defaults_and_keeps_prior_computed_values() {
        let pg = schema::resource("airbyte_source_postgres").unwrap();
        let config = BTreeMap::from([
            ("name".to_string(), Value::str("pg")),
            (
                "configuration".to_string(),
                Value::from_json(
                    &serde_json::json!({"host": "h", "database": "d", "username": "u", "port": null}),
                ),
            ),
        ]);
        let fresh = propose(pg.attrs, &config, None);
        assert_eq!(fresh.get("source_id"), Some(&Value::Unknown));
        assert_eq!(
            fresh.get("configuration").and_then(|c| c.get("port")),
            Some(&Value::Number(5432.0))
        );
        let prior = Value::from_json(&serde_json::json!({"source_id": "abc"}));
        let again = propose(pg.attrs, &config, Some(&prior));
        assert_eq!(again.get("source_id"), Some(&Value::str("abc")));
    }
}
