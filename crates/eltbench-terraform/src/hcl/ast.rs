//! The syntax tree of HCL native syntax, every node carrying its source span.
//!
//! Pure data: no evaluation and no Terraform semantics live here.

use crate::diagnostics::Span;

/// A body: the attributes and blocks of a file or of a block, in source order.
#[derive(Debug, Clone, Default)]
pub struct Body {
    pub attributes: Vec<Attribute>,
    pub blocks: Vec<Block>,
}

impl Body {
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }
}

#[derive(Debug, Clone)]
pub struct Attribute {
    pub name: String,
    pub name_span: Span,
    pub expr: Expr,
    /// From the name to the end of the expression.
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct Block {
    pub kind: String,
    pub labels: Vec<String>,
    /// The header, from the block type to the opening brace.
    pub span: Span,
    pub body: Body,
}

impl Block {
    /// The header as Terraform quotes it in diagnostics: `resource "a" "b"`.
    pub fn header(&self) -> String {
        let mut s = self.kind.clone();
        for l in &self.labels {
            s.push_str(&format!(" {l:?}"));
        }
        s
    }
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    Null,
    Bool(bool),
    Number(f64),
    /// A quoted or heredoc template; a single literal part is a plain string.
    Template(Vec<TemplatePart>),
    Tuple(Vec<Expr>),
    Object(Vec<(Expr, Expr)>),
    /// A bare name starting a traversal (`var`, `local`, a resource type...).
    Variable(String),
    GetAttr(Box<Expr>, String),
    Index(Box<Expr>, Box<Expr>),
    /// `x[*].name` / `x.*.name`: the traversal applied to each element.
    Splat(Box<Expr>, Box<Expr>),
    /// The element placeholder inside a splat's right-hand side.
    SplatItem,
    Call(String, Vec<Expr>, bool),
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Paren(Box<Expr>),
    For(Box<ForExpr>),
}

#[derive(Debug, Clone)]
pub enum TemplatePart {
    Literal(String),
    Interp(Expr),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Debug, Clone)]
pub struct ForExpr {
    pub key_var: Option<String>,
    pub value_var: String,
    pub collection: Expr,
    /// Present for object-producing `{for ...}` expressions.
    pub key: Option<Expr>,
    pub value: Expr,
    pub cond: Option<Expr>,
    pub grouping: bool,
}

/// One step of a static reference such as `airbyte_source_postgres.pg.source_id`.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Attr(String, Span),
    Index(IndexKey, Span),
}

#[derive(Debug, Clone, PartialEq)]
pub enum IndexKey {
    Number(f64),
    String(String),
    /// An index computed by an expression (e.g. `each.key`).
    Dynamic,
}

/// A reference found in an expression: root name plus the steps after it.
#[derive(Debug, Clone)]
pub struct Traversal {
    pub root: String,
    pub root_span: Span,
    pub steps: Vec<Step>,
    pub span: Span,
}

impl Expr {
    /// Every static reference in this expression (for validation and the graph).
    pub fn traversals(&self) -> Vec<Traversal> {
        let mut out = Vec::new();
        collect(self, &mut out, &[]);
        out
    }
}

fn collect(e: &Expr, out: &mut Vec<Traversal>, bound: &[String]) {
    if let Some(t) = as_traversal(e) {
        if !bound.contains(&t.root) {
            out.push(t);
        }
        collect_indexes(e, out, bound);
        return;
    }
    match &e.kind {
        ExprKind::Template(parts) => parts.iter().for_each(|p| {
            if let TemplatePart::Interp(x) = p {
                collect(x, out, bound)
            }
        }),
        ExprKind::Tuple(items) => items.iter().for_each(|x| collect(x, out, bound)),
        ExprKind::Object(items) => items.iter().for_each(|(k, v)| {
            if !matches!(k.kind, ExprKind::Variable(_)) {
                collect(k, out, bound);
            }
            collect(v, out, bound);
        }),
        ExprKind::GetAttr(x, _) | ExprKind::Unary(_, x) | ExprKind::Paren(x) => {
            collect(x, out, bound)
        }
        ExprKind::Index(x, i) | ExprKind::Splat(x, i) | ExprKind::Binary(_, x, i) => {
            collect(x, out, bound);
            collect(i, out, bound);
        }
        ExprKind::Call(_, args, _) => args.iter().for_each(|x| collect(x, out, bound)),
        ExprKind::Conditional(c, t, f) => [c, t, f].iter().for_each(|x| collect(x, out, bound)),
        ExprKind::For(f) => collect_for(f, out, bound),
        _ => {}
    }
}

fn collect_for(f: &ForExpr, out: &mut Vec<Traversal>, bound: &[String]) {
    collect(&f.collection, out, bound);
    let mut inner = bound.to_vec();
    inner.push(f.value_var.clone());
    inner.extend(f.key_var.clone());
    for x in [Some(&f.value), f.key.as_ref(), f.cond.as_ref()]
        .into_iter()
        .flatten()
    {
        collect(x, out, &inner);
    }
}

/// Index expressions inside a traversal (e.g. `x[var.i]`) hold references too.
fn collect_indexes(e: &Expr, out: &mut Vec<Traversal>, bound: &[String]) {
    match &e.kind {
        ExprKind::GetAttr(x, _) => collect_indexes(x, out, bound),
        ExprKind::Index(x, i) => {
            collect_indexes(x, out, bound);
            if as_traversal(i).is_some()
                || !matches!(i.kind, ExprKind::Number(_) | ExprKind::Template(_))
            {
                collect(i, out, bound);
            }
        }
        _ => {}
    }
}

/// Interprets `e` as a static traversal rooted at a variable, if it is one.
pub fn as_traversal(e: &Expr) -> Option<Traversal> {
    match &e.kind {
        ExprKind::Variable(name) => Some(Traversal {
            root: name.clone(),
            root_span: e.span.clone(),
            steps: Vec::new(),
            span: e.span.clone(),
        }),
        ExprKind::GetAttr(x, name) => {
            let mut t = as_traversal(x)?;
            let step_span = Span {
                file: e.span.file.clone(),
                start: x.span.end,
                end: e.span.end,
            };
            t.steps.push(Step::Attr(name.clone(), step_span));
            t.span = e.span.clone();
            Some(t)
        }
        ExprKind::Index(x, i) => {
            let mut t = as_traversal(x)?;
            let key = match &i.kind {
                ExprKind::Number(n) => IndexKey::Number(*n),
                ExprKind::Template(parts) => match parts.as_slice() {
                    [TemplatePart::Literal(s)] => IndexKey::String(s.clone()),
                    [] => IndexKey::String(String::new()),
                    _ => IndexKey::Dynamic,
                },
                _ => IndexKey::Dynamic,
            };
            t.steps.push(Step::Index(key, i.span.clone()));
            t.span = e.span.clone();
            Some(t)
        }
        _ => None,
    }
}
