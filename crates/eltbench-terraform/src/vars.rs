//! Input variable values, in Terraform's precedence order (later wins):
//! defaults, `TF_VAR_*` environment variables, `terraform.tfvars`,
//! `terraform.tfvars.json`, `*.auto.tfvars(.json)`, then `-var` and
//! `-var-file` in command-line order; and `locals`, evaluated in dependency order.
//!
//! Reads only the tfvars files it is pointed at; never writes.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::config::{Module, Variable};
use crate::diagnostics::Diagnostic;
use crate::eval::Scope;
use crate::hcl::{ExprKind, parse_file};
use crate::value::Value;

/// A `-var` or `-var-file` argument, in command-line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarArg {
    Var(String),
    File(String),
}

/// Resolves every declared variable's value.
pub fn resolve(
    module: &Module,
    dir: &Path,
    args: &[VarArg],
    env: &BTreeMap<String, String>,
) -> (BTreeMap<String, Value>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut values: BTreeMap<String, Value> = BTreeMap::new();
    for (k, v) in env {
        if let Some(name) = k.strip_prefix("TF_VAR_")
            && let Some(decl) = module.variables.get(name)
        {
            values.insert(name.to_string(), raw_value(decl, v));
        }
    }
    for file in auto_files(dir) {
        load_file(
            module,
            &dir.join(&file),
            &file,
            false,
            &mut values,
            &mut diags,
        );
    }
    for arg in args {
        match arg {
            VarArg::Var(s) => cli_var(module, s, &mut values, &mut diags),
            VarArg::File(f) => load_file(module, &dir.join(f), f, true, &mut values, &mut diags),
        }
    }
    let mut out = BTreeMap::new();
    for (name, decl) in &module.variables {
        match values.remove(name).or_else(|| default(decl, &mut diags)) {
            Some(v) => {
                out.insert(name.clone(), v);
            }
            None => diags.push(Diagnostic::error(
                "No value for required variable",
                format!("The root module input variable \"{name}\" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable."),
            ).at(&decl.span)),
        }
    }
    (out, diags)
}

fn default(decl: &Variable, diags: &mut Vec<Diagnostic>) -> Option<Value> {
    let e = decl.default.as_ref()?;
    match Scope::default().eval(e) {
        Ok(v) => Some(v),
        Err(d) => {
            diags.push(*d);
            None
        }
    }
}

fn auto_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.retain(|n| n.ends_with(".auto.tfvars") || n.ends_with(".auto.tfvars.json"));
    names.sort();
    let mut out: Vec<String> = ["terraform.tfvars", "terraform.tfvars.json"]
        .iter()
        .filter(|n| dir.join(n).is_file())
        .map(|n| n.to_string())
        .collect();
    out.extend(names);
    out
}

/// Whether the declared type takes `-var` strings literally.
fn is_string_typed(decl: &Variable) -> bool {
    match &decl.type_expr {
        None => true,
        Some(e) => matches!(&e.kind, ExprKind::Variable(t) if t == "string" || t == "any"),
    }
}

fn raw_value(decl: &Variable, raw: &str) -> Value {
    if is_string_typed(decl) {
        return Value::str(raw);
    }
    let src = format!("v = {raw}\n");
    match parse_file(&src, Arc::from("<value>")).body {
        Ok(body) => body
            .attributes
            .first()
            .and_then(|a| Scope::default().eval(&a.expr).ok())
            .unwrap_or_else(|| Value::str(raw)),
        Err(_) => Value::str(raw),
    }
}

fn cli_var(
    module: &Module,
    arg: &str,
    values: &mut BTreeMap<String, Value>,
    diags: &mut Vec<Diagnostic>,
) {
    let Some((name, raw)) = arg.split_once('=') else {
        diags.push(Diagnostic::error(
            "Invalid -var option",
            format!("The given -var option {arg:?} is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\"."),
        ));
        return;
    };
    match module.variables.get(name) {
        Some(decl) => {
            values.insert(name.to_string(), raw_value(decl, raw));
        }
        None => diags.push(Diagnostic::error(
            "Value for undeclared variable",
            format!("A variable named \"{name}\" was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration."),
        )),
    }
}

fn load_file(
    module: &Module,
    path: &Path,
    shown: &str,
    explicit: bool,
    values: &mut BTreeMap<String, Value>,
    diags: &mut Vec<Diagnostic>,
) {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(_) if !explicit => return,
        Err(e) => {
            diags.push(Diagnostic::error(
                "Failed to read variables file",
                format!("Given variables file {shown} does not exist: {e}."),
            ));
            return;
        }
    };
    let assigned = if shown.ends_with(".json") {
        json_vars(&text, shown, diags)
    } else {
        hcl_vars(&text, shown, diags)
    };
    for (name, v) in assigned {
        if module.variables.contains_key(&name) {
            values.insert(name, v);
        } else {
            diags.push(Diagnostic::warning(
                "Value for undeclared variable",
                format!("The root module does not declare a variable named \"{name}\" but a value was found in file \"{shown}\". If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option."),
            ));
        }
    }
}

fn hcl_vars(text: &str, shown: &str, diags: &mut Vec<Diagnostic>) -> Vec<(String, Value)> {
    let body = match parse_file(text, Arc::from(shown)).body {
        Ok(b) => b,
        Err(d) => {
            diags.push(*d);
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for a in body.attributes {
        match Scope::default().eval(&a.expr) {
            Ok(v) => out.push((a.name, v)),
            Err(d) => diags.push(*d),
        }
    }
    out
}

fn json_vars(text: &str, shown: &str, diags: &mut Vec<Diagnostic>) -> Vec<(String, Value)> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(m)) => m
            .iter()
            .map(|(k, v)| (k.clone(), Value::from_json(v)))
            .collect(),
        _ => {
            diags.push(Diagnostic::error(
                "Invalid JSON variables file",
                format!("The file {shown} must contain a JSON object."),
            ));
            Vec::new()
        }
    }
}

/// Evaluates `locals` in dependency order (a local may use vars and other locals).
pub fn eval_locals(module: &Module, scope: &mut Scope, diags: &mut Vec<Diagnostic>) {
    let mut pending: Vec<_> = module.locals.iter().collect();
    while !pending.is_empty() {
        let before = pending.len();
        pending.retain(|a| {
            let ready = a.expr.traversals().iter().all(|t| {
                t.root != "local"
                    || t.steps.first().is_none_or(|s| match s {
                        crate::hcl::Step::Attr(n, _) => scope.locals.contains_key(n),
                        _ => true,
                    })
            });
            if !ready {
                return true;
            }
            match scope.eval(&a.expr) {
                Ok(v) => {
                    scope.locals.insert(a.name.clone(), v);
                }
                Err(d) => diags.push(*d),
            }
            false
        });
        if pending.len() == before {
            for a in &pending {
                diags.push(Diagnostic::error(
                    "Cycle in local values",
                    format!("The local value \"{}\" depends on itself, directly or through other local values.", a.name),
                ).at(&a.span));
            }
            return;
        }
    }
}
