//! Expression evaluation against a scope of variables, locals, resource
//! attributes and iterator symbols, with Terraform's error wording.
//!
//! Unknown values ("known after apply") propagate through every operation.
//! Never performs I/O; functions live in `functions.rs`.

use std::collections::BTreeMap;

use crate::diagnostics::{Diagnostic, Span};
use crate::functions;
use crate::hcl::ast::{BinOp, ForExpr, UnOp};
use crate::hcl::{Expr, ExprKind, TemplatePart};
use crate::value::{Value, format_number};

pub type EResult = Result<Value, Box<Diagnostic>>;

/// Everything an expression may refer to.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub vars: BTreeMap<String, Value>,
    pub locals: BTreeMap<String, Value>,
    /// `type -> name -> value` (an object, or a list/map for count/for_each).
    pub resources: BTreeMap<String, BTreeMap<String, Value>>,
    /// `path`, `terraform`, and iterator symbols (`each`, `count`, for-vars).
    pub symbols: BTreeMap<String, Value>,
}

impl Scope {
    pub fn eval(&self, e: &Expr) -> EResult {
        Evaluator { scope: self }.eval(e, None)
    }
}

struct Evaluator<'a> {
    scope: &'a Scope,
}

pub(crate) fn err(summary: &str, detail: impl Into<String>, span: &Span) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(summary, detail).at(span))
}

impl Evaluator<'_> {
    fn eval(&self, e: &Expr, splat: Option<&Value>) -> EResult {
        match &e.kind {
            ExprKind::Null => Ok(Value::Null),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Number(n) => Ok(Value::Number(*n)),
            ExprKind::Template(parts) => self.template(parts, splat),
            ExprKind::Tuple(items) => items
                .iter()
                .map(|x| self.eval(x, splat))
                .collect::<Result<_, _>>()
                .map(Value::List),
            ExprKind::Object(items) => self.object(items, splat),
            ExprKind::Variable(name) => self.variable(name, &e.span),
            ExprKind::GetAttr(x, name) => get_attr(self.eval(x, splat)?, name, &e.span),
            ExprKind::Index(x, i) => index(self.eval(x, splat)?, self.eval(i, splat)?, &e.span),
            ExprKind::Splat(x, rhs) => self.splat(self.eval(x, splat)?, rhs),
            ExprKind::SplatItem => Ok(splat.cloned().unwrap_or(Value::Null)),
            ExprKind::Call(name, args, expand) => self.call(name, args, *expand, &e.span, splat),
            ExprKind::Conditional(c, t, f) => self.conditional(c, t, f, splat),
            ExprKind::Binary(op, l, r) => {
                binary(*op, self.eval(l, splat)?, self.eval(r, splat)?, &e.span)
            }
            ExprKind::Unary(op, x) => unary(*op, self.eval(x, splat)?, &e.span),
            ExprKind::Paren(x) => self.eval(x, splat),
            ExprKind::For(f) => self.for_expr(f, &e.span),
        }
    }

    fn template(&self, parts: &[TemplatePart], splat: Option<&Value>) -> EResult {
        let mut out = String::new();
        let mut unknown = false;
        for p in parts {
            match p {
                TemplatePart::Literal(s) => out.push_str(s),
                TemplatePart::Interp(x) => match self.eval(x, splat)? {
                    Value::Unknown => unknown = true,
                    Value::Null => {
                        return Err(err(
                            "Invalid template interpolation value",
                            "The expression result is null. Cannot include a null value in a string template.",
                            &x.span,
                        ));
                    }
                    v => match v.to_string_lossy() {
                        Some(s) => out.push_str(&s),
                        None => {
                            return Err(err(
                                "Invalid template interpolation value",
                                format!(
                                    "Cannot include the given value in a string template: string required, but have {}.",
                                    v.type_name()
                                ),
                                &x.span,
                            ));
                        }
                    },
                },
            }
        }
        Ok(if unknown {
            Value::Unknown
        } else {
            Value::String(out)
        })
    }

    fn object(&self, items: &[(Expr, Expr)], splat: Option<&Value>) -> EResult {
        let mut m = BTreeMap::new();
        for (k, v) in items {
            let key = match &k.kind {
                ExprKind::Variable(name) => name.clone(),
                _ => match self.eval(k, splat)? {
                    Value::Unknown => return Ok(Value::Unknown),
                    kv => kv.to_string_lossy().ok_or_else(|| {
                        err(
                            "Incorrect key type",
                            "Can't use this value as a key: string required.",
                            &k.span,
                        )
                    })?,
                },
            };
            m.insert(key, self.eval(v, splat)?);
        }
        Ok(Value::Object(m))
    }

    fn variable(&self, name: &str, span: &Span) -> EResult {
        let s = self.scope;
        let found = match name {
            "var" => Some(Value::Object(s.vars.clone())),
            "local" => Some(Value::Object(s.locals.clone())),
            _ => s
                .symbols
                .get(name)
                .cloned()
                .or_else(|| s.resources.get(name).map(|r| Value::Object(r.clone()))),
        };
        found.ok_or_else(|| {
            err(
                "Reference to undeclared resource",
                format!(
                    "A managed resource type \"{name}\" has not been declared in the root module."
                ),
                span,
            )
        })
    }

    fn splat(&self, base: Value, rhs: &Expr) -> EResult {
        match base {
            Value::Unknown => Ok(Value::Unknown),
            Value::Null => Ok(Value::List(Vec::new())),
            Value::List(items) => items
                .iter()
                .map(|it| self.eval(rhs, Some(it)))
                .collect::<Result<_, _>>()
                .map(Value::List),
            other => Ok(Value::List(vec![self.eval(rhs, Some(&other))?])),
        }
    }

    fn call(
        &self,
        name: &str,
        args: &[Expr],
        expand: bool,
        span: &Span,
        splat: Option<&Value>,
    ) -> EResult {
        let mut vals = args
            .iter()
            .map(|a| self.eval(a, splat))
            .collect::<Result<Vec<_>, _>>()?;
        if expand && let Some(Value::List(last)) = vals.pop() {
            vals.extend(last);
        }
        functions::call(name, vals, span)
    }

    fn conditional(&self, c: &Expr, t: &Expr, f: &Expr, splat: Option<&Value>) -> EResult {
        match self.eval(c, splat)? {
            Value::Bool(true) => self.eval(t, splat),
            Value::Bool(false) => self.eval(f, splat),
            Value::Unknown => Ok(Value::Unknown),
            Value::String(s) if s == "true" || s == "false" => {
                self.eval(if s == "true" { t } else { f }, splat)
            }
            other => Err(err(
                "Incorrect condition type",
                format!(
                    "The condition expression must be of type bool, but have {}.",
                    other.type_name()
                ),
                &c.span,
            )),
        }
    }

    fn for_expr(&self, f: &ForExpr, span: &Span) -> EResult {
        let coll = self.eval(&f.collection, None)?;
        let pairs: Vec<(Value, Value)> = match coll {
            Value::Unknown => return Ok(Value::Unknown),
            Value::List(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, v)| (Value::Number(i as f64), v))
                .collect(),
            Value::Object(m) => m.into_iter().map(|(k, v)| (Value::String(k), v)).collect(),
            other => {
                return Err(err(
                    "Iteration over non-iterable value",
                    format!(
                        "A value of type {} cannot be used as the collection in a 'for' expression.",
                        other.type_name()
                    ),
                    &f.collection.span,
                ));
            }
        };
        let mut list = Vec::new();
        let mut obj: BTreeMap<String, Value> = BTreeMap::new();
        for (k, v) in pairs {
            let mut inner = self.scope.clone();
            inner.symbols.insert(f.value_var.clone(), v);
            if let Some(kv) = &f.key_var {
                inner.symbols.insert(kv.clone(), k);
            }
            let ev = Evaluator { scope: &inner };
            if let Some(c) = &f.cond
                && ev.eval(c, None)? != Value::Bool(true)
            {
                continue;
            }
            let value = ev.eval(&f.value, None)?;
            match &f.key {
                None => list.push(value),
                Some(kx) => {
                    let key = ev.eval(kx, None)?.to_string_lossy().ok_or_else(|| {
                        err(
                            "Invalid object key",
                            "Key expression in 'for' expression must be a string.",
                            &kx.span,
                        )
                    })?;
                    if f.grouping {
                        let e = obj.entry(key).or_insert_with(|| Value::List(Vec::new()));
                        if let Value::List(items) = e {
                            items.push(value);
                        }
                    } else if obj.insert(key.clone(), value).is_some() {
                        return Err(err(
                            "Duplicate object key",
                            format!(
                                "Two different items produced the key \"{key}\" in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key."
                            ),
                            span,
                        ));
                    }
                }
            }
        }
        Ok(if f.key.is_some() {
            Value::Object(obj)
        } else {
            Value::List(list)
        })
    }
}

fn get_attr(v: Value, name: &str, span: &Span) -> EResult {
    match v {
        Value::Unknown => Ok(Value::Unknown),
        Value::Object(mut m) => m.remove(name).ok_or_else(|| {
            err(
                "Unsupported attribute",
                format!("This object does not have an attribute named \"{name}\"."),
                span,
            )
        }),
        Value::Null => Err(err(
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.",
            span,
        )),
        other => Err(err(
            "Unsupported attribute",
            format!(
                "Can't access attributes on a primitive-typed value ({}).",
                other.type_name()
            ),
            span,
        )),
    }
}

fn index(v: Value, key: Value, span: &Span) -> EResult {
    match (v, key) {
        (Value::Unknown, _) | (_, Value::Unknown) => Ok(Value::Unknown),
        (Value::List(items), k) => {
            let i = match &k {
                Value::Number(n) => Some(*n),
                Value::String(s) => s.parse::<f64>().ok(),
                _ => None,
            };
            i.and_then(|i| items.get(i as usize).cloned())
                .ok_or_else(|| {
                    err(
                        "Invalid index",
                        "The given key does not identify an element in this collection value.",
                        span,
                    )
                })
        }
        (Value::Object(mut m), k) => {
            let key = k.to_string_lossy().unwrap_or_default();
            m.remove(&key).ok_or_else(|| {
                err(
                    "Invalid index",
                    "The given key does not identify an element in this collection value.",
                    span,
                )
            })
        }
        _ => Err(err(
            "Invalid index",
            "This value does not have any indices.",
            span,
        )),
    }
}

fn num(v: &Value, side: &str, span: &Span) -> Result<f64, Box<Diagnostic>> {
    match v {
        Value::Number(n) => Ok(*n),
        Value::String(s) => s.parse().map_err(|_| {
            err(
                "Invalid operand",
                format!("Unsuitable value for {side} operand: a number is required."),
                span,
            )
        }),
        _ => Err(err(
            "Invalid operand",
            format!("Unsuitable value for {side} operand: a number is required."),
            span,
        )),
    }
}

fn boolean(v: &Value, side: &str, span: &Span) -> Result<bool, Box<Diagnostic>> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" || s == "false" => Ok(s == "true"),
        _ => Err(err(
            "Invalid operand",
            format!("Unsuitable value for {side} operand: bool required."),
            span,
        )),
    }
}

fn binary(op: BinOp, l: Value, r: Value, span: &Span) -> EResult {
    if matches!(l, Value::Unknown) || matches!(r, Value::Unknown) {
        return Ok(Value::Unknown);
    }
    let v = match op {
        BinOp::Eq => Value::Bool(l == r),
        BinOp::Ne => Value::Bool(l != r),
        BinOp::And => Value::Bool(boolean(&l, "left", span)? && boolean(&r, "right", span)?),
        BinOp::Or => Value::Bool(boolean(&l, "left", span)? || boolean(&r, "right", span)?),
        _ => arith(op, num(&l, "left", span)?, num(&r, "right", span)?, span)?,
    };
    Ok(v)
}

fn arith(op: BinOp, a: f64, b: f64, span: &Span) -> EResult {
    Ok(match op {
        BinOp::Lt => Value::Bool(a < b),
        BinOp::Le => Value::Bool(a <= b),
        BinOp::Gt => Value::Bool(a > b),
        BinOp::Ge => Value::Bool(a >= b),
        BinOp::Add => Value::Number(a + b),
        BinOp::Sub => Value::Number(a - b),
        BinOp::Mul => Value::Number(a * b),
        BinOp::Div | BinOp::Mod if b == 0.0 => {
            return Err(err(
                "Operation failed",
                "Error during operation: can't divide by zero.",
                span,
            ));
        }
        BinOp::Div => Value::Number(a / b),
        BinOp::Mod => Value::Number(a % b),
        _ => Value::Null,
    })
}

fn unary(op: UnOp, v: Value, span: &Span) -> EResult {
    match (op, v) {
        (_, Value::Unknown) => Ok(Value::Unknown),
        (UnOp::Not, v) => Ok(Value::Bool(!boolean(&v, "right", span)?)),
        (UnOp::Neg, v) => Ok(Value::Number(-num(&v, "right", span)?)),
    }
}

/// Renders a value the way `terraform output` and `console` print it.
pub fn hcl_literal(v: &Value, indent: usize) -> String {
    let pad = " ".repeat(indent);
    match v {
        Value::Null => "null".into(),
        Value::Unknown => "(known after apply)".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format_number(*n),
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::List(items) if items.is_empty() => "[]".into(),
        Value::List(items) => {
            let inner: Vec<String> = items
                .iter()
                .map(|i| format!("{pad}  {},\n", hcl_literal(i, indent + 2)))
                .collect();
            format!("[\n{}{pad}]", inner.concat())
        }
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Object(m) => {
            let w = m.keys().map(|k| quote_key(k).len()).max().unwrap_or(0);
            let inner: Vec<String> = m
                .iter()
                .map(|(k, x)| {
                    format!(
                        "{pad}  {:<w$} = {}\n",
                        quote_key(k),
                        hcl_literal(x, indent + 2)
                    )
                })
                .collect();
            format!("{{\n{}{pad}}}", inner.concat())
        }
    }
}

fn quote_key(k: &str) -> String {
    let plain = k
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && k.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if plain {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::hcl::parse_file;

    fn eval_attr(src: &str, scope: &Scope) -> EResult {
        let body = parse_file(src, Arc::from("t.tf")).body.unwrap();
        scope.eval(&body.attributes[0].expr)
    }

    #[test]
    fn evaluates_templates_conditionals_and_for() {
        let mut scope = Scope::default();
        scope.vars.insert("env".into(), Value::str("dev"));
        scope.vars.insert(
            "tables".into(),
            Value::List(vec![Value::str("a"), Value::str("b")]),
        );
        let v = eval_attr("x = \"db-${var.env}\"\n", &scope).unwrap();
        assert_eq!(v, Value::str("db-dev"));
        let v = eval_attr("x = var.env == \"dev\" ? 1 : 2\n", &scope).unwrap();
        assert_eq!(v, Value::Number(1.0));
        let v = eval_attr("x = [for t in var.tables : { name = t }]\n", &scope).unwrap();
        assert_eq!(
            v.to_json(),
            serde_json::json!([{"name": "a"}, {"name": "b"}])
        );
        let v = eval_attr("x = { for t in var.tables : t => upper(t) }\n", &scope).unwrap();
        assert_eq!(v.to_json(), serde_json::json!({"a": "A", "b": "B"}));
    }

    #[test]
    fn unknown_propagates_through_templates() {
        let mut scope = Scope::default();
        let mut pg = BTreeMap::new();
        pg.insert(
            "pg".into(),
            Value::Object(BTreeMap::from([("source_id".into(), Value::Unknown)])),
        );
        scope.resources.insert("airbyte_source_postgres".into(), pg);
        let v = eval_attr(
            "x = \"id-${airbyte_source_postgres.pg.source_id}\"\n",
            &scope,
        )
        .unwrap();
        assert_eq!(v, Value::Unknown);
    }
}
