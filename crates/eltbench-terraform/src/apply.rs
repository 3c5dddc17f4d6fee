//! Executing a plan against the Airbyte API the way the provider does:
//! create = POST then GET, update = PUT (sources, destinations) or PATCH
//! (connections) then GET, delete = DELETE; replacements delete first.
//! Prints Terraform's progress lines and records the new state.

use std::io::Write;
use std::time::Instant;

use serde_json::Value as Json;

use crate::client::{Client, Verb};
use crate::config::Module;
use crate::diagnostics::Diagnostic;
use crate::eval::Scope;
use crate::payload;
use crate::plan::{self, Action, Change, Plan};
use crate::state::{
    InstanceState, PROVIDER_ADDR, ResourceState, State, sensitive_paths, type_json,
};
use crate::value::Value;

/// Applies `plan`, updating `state` as each change completes.
/// Returns the number of (added, changed, destroyed) and any error.
pub fn apply(
    module: &Module,
    plan: &Plan,
    client: &Client,
    state: &mut State,
    out: &mut dyn Write,
) -> ((usize, usize, usize), Vec<Diagnostic>) {
    let mut counts = (0, 0, 0);
    let mut scope = plan.scope.clone();
    let destroys: Vec<&Change> = plan
        .changes
        .iter()
        .filter(|c| matches!(c.action, Action::Delete | Action::Replace))
        .collect();
    for c in destroys
        .iter()
        .rev()
        .filter(|c| c.action == Action::Replace)
        .chain(destroys.iter().filter(|c| c.action == Action::Delete))
    {
        if let Err(d) = destroy(c, client, state, out) {
            return (counts, vec![*d]);
        }
        if c.action == Action::Delete {
            counts.2 += 1;
        }
    }
    for c in plan.changes.iter().filter(|c| {
        matches!(
            c.action,
            Action::Create | Action::Update | Action::Replace | Action::NoOp
        )
    }) {
        let result = match c.action {
            Action::NoOp => Ok(c.after.clone().unwrap_or(Value::Null)),
            _ => create_or_update(module, c, &mut scope, client, out),
        };
        match result {
            Ok(v) => {
                match c.action {
                    Action::Create => counts.0 += 1,
                    Action::Replace => {
                        counts.0 += 1;
                        counts.2 += 1;
                    }
                    Action::Update => counts.1 += 1,
                    _ => {}
                }
                record(state, c, &v);
                expose(&mut scope, c, v);
            }
            Err(d) => return (counts, vec![*d]),
        }
    }
    (counts, Vec::new())
}

fn elapsed(t: Instant) -> String {
    format!("{}s", t.elapsed().as_secs())
}

#[allow(clippy::boxed_local)]
fn provider_error(c: &Change, d: Box<Diagnostic>) -> Box<Diagnostic> {
    let mut d = d.with_address(c.address.clone());
    d.subject = c.span.clone();
    Box::new(d)
}

fn destroy(
    c: &Change,
    client: &Client,
    state: &mut State,
    out: &mut dyn Write,
) -> Result<(), Box<Diagnostic>> {
    let id = c
        .before
        .as_ref()
        .and_then(|b| b.get(c.schema.id_attr()))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let _ = writeln!(out, "{}: Destroying...", c.address);
    let t = Instant::now();
    let path = format!("{}/{}", c.schema.collection(), id);
    client
        .call(Verb::Delete, &path, None, &[403, 404])
        .map_err(|d| provider_error(c, d))?;
    let _ = writeln!(
        out,
        "{}: Destruction complete after {}",
        c.address,
        elapsed(t)
    );
    remove(state, c);
    Ok(())
}

fn create_or_update(
    module: &Module,
    c: &Change,
    scope: &mut Scope,
    client: &Client,
    out: &mut dyn Write,
) -> Result<Value, Box<Diagnostic>> {
    let mut v = c.after.clone().unwrap_or(Value::Null);
    if v.has_unknown() {
        v = plan::reevaluate(module, c, scope).map_err(|d| provider_error(c, d))?;
    }
    let t = Instant::now();
    let updating = c.action == Action::Update;
    let _ = writeln!(
        out,
        "{}: {}...",
        c.address,
        if updating { "Modifying" } else { "Creating" }
    );
    let resp = if updating {
        let id = v
            .get(c.schema.id_attr())
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let verb = if c.schema.kind == crate::schema::Kind::Connection {
            Verb::Patch
        } else {
            Verb::Put
        };
        let body = payload::update_body(c.schema, &v);
        let path = format!("{}/{}", c.schema.collection(), id);
        client
            .call(verb, &path, Some(&body), &[403, 404])
            .map_err(|d| provider_error(c, d))?;
        Json::Null
    } else {
        let body = payload::create_body(c.schema, &v);
        client
            .call(Verb::Post, c.schema.collection(), Some(&body), &[400, 403])
            .map_err(|d| provider_error(c, d))?
            .body
    };
    if !resp.is_null() {
        payload::refresh(c.schema, &mut v, &resp);
    }
    let id = v
        .get(c.schema.id_attr())
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let got = client
        .call(
            Verb::Get,
            &format!("{}/{}", c.schema.collection(), id),
            None,
            &[403, 404],
        )
        .map_err(|d| provider_error(c, d))?;
    payload::refresh(c.schema, &mut v, &got.body);
    let done = if updating {
        "Modifications complete"
    } else {
        "Creation complete"
    };
    let _ = writeln!(out, "{}: {done} after {}", c.address, elapsed(t));
    Ok(clear_unknown(v))
}

/// Anything the API did not fill in is null in state (never unknown).
fn clear_unknown(v: Value) -> Value {
    match v {
        Value::Unknown => Value::Null,
        Value::List(items) => Value::List(items.into_iter().map(clear_unknown).collect()),
        Value::Object(m) => {
            Value::Object(m.into_iter().map(|(k, x)| (k, clear_unknown(x))).collect())
        }
        other => other,
    }
}

fn expose(scope: &mut Scope, c: &Change, v: Value) {
    let by_type = scope.resources.entry(c.type_name.clone()).or_default();
    match &c.index_key {
        None => {
            by_type.insert(c.name.clone(), v);
        }
        Some(Json::String(k)) => {
            if let Some(Value::Object(m)) = by_type.get_mut(&c.name) {
                m.insert(k.clone(), v);
            }
        }
        Some(Json::Number(n)) => {
            if let Some(Value::List(items)) = by_type.get_mut(&c.name)
                && let Some(slot) = n.as_u64().and_then(|i| items.get_mut(i as usize))
            {
                *slot = v;
            }
        }
        Some(_) => {}
    }
}

fn record(state: &mut State, c: &Change, v: &Value) {
    let inst = InstanceState {
        index_key: c.index_key.clone(),
        schema_version: 0,
        attributes: v.to_json(),
        sensitive_attributes: sensitive_paths(v, c.schema.attrs),
        dependencies: c.dependencies.clone(),
    };
    let pos = state
        .resources
        .iter()
        .position(|r| r.type_name == c.type_name && r.name == c.name);
    let res = match pos {
        Some(i) => &mut state.resources[i],
        None => {
            state.resources.push(ResourceState {
                mode: "managed".into(),
                type_name: c.type_name.clone(),
                name: c.name.clone(),
                provider: PROVIDER_ADDR.into(),
                instances: Vec::new(),
            });
            let last = state.resources.len() - 1;
            &mut state.resources[last]
        }
    };
    res.instances.retain(|i| i.index_key != c.index_key);
    res.instances.push(inst);
    res.instances
        .sort_by_key(|i| i.index_key.as_ref().map(Json::to_string));
}

fn remove(state: &mut State, c: &Change) {
    for r in state
        .resources
        .iter_mut()
        .filter(|r| r.type_name == c.type_name && r.name == c.name)
    {
        r.instances.retain(|i| i.index_key != c.index_key);
    }
    state.resources.retain(|r| !r.instances.is_empty());
}

/// Re-evaluates outputs against the applied values and stores them in state.
pub fn record_outputs(
    state: &mut State,
    module: &Module,
    plan: &Plan,
    diags: &mut Vec<Diagnostic>,
) {
    let mut scope = plan.scope.clone();
    for (addr, r, i) in state.instances() {
        let _ = addr;
        let v = Value::from_json(&i.attributes);
        let by_type = scope.resources.entry(r.type_name.clone()).or_default();
        match &i.index_key {
            None => {
                by_type.insert(r.name.clone(), v);
            }
            Some(Json::String(k)) => {
                let e = by_type
                    .entry(r.name.clone())
                    .or_insert_with(|| Value::Object(Default::default()));
                if let Value::Object(m) = e {
                    m.insert(k.clone(), v);
                }
            }
            Some(_) => {
                let e = by_type
                    .entry(r.name.clone())
                    .or_insert_with(|| Value::List(Vec::new()));
                if let Value::List(items) = e {
                    items.push(v);
                }
            }
        }
    }
    state.outputs.clear();
    for o in &module.outputs {
        let Some(e) = &o.value else { continue };
        match scope.eval(e) {
            Ok(v) => {
                state.outputs.insert(
                    o.name.clone(),
                    crate::state::OutputState {
                        value: v.to_json(),
                        ty: type_json(&v),
                        sensitive: o.sensitive,
                    },
                );
            }
            Err(d) => diags.push(*d),
        }
    }
}
