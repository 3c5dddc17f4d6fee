//! Parsing of HCL expressions: operators by precedence, traversals, splats,
//! function calls, tuples, objects, `for` expressions and conditionals.

use super::ast::{BinOp, Expr, ExprKind, ForExpr, UnOp};
use super::cursor::{NewlineMode, PResult};
use super::parse::Parser;

const BINARY_LEVELS: &[&[(&str, BinOp)]] = &[
    &[("||", BinOp::Or)],
    &[("&&", BinOp::And)],
    &[("==", BinOp::Eq), ("!=", BinOp::Ne)],
    &[
        ("<=", BinOp::Le),
        (">=", BinOp::Ge),
        ("<", BinOp::Lt),
        (">", BinOp::Gt),
    ],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Mod)],
];

impl Parser<'_> {
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        let cond = self.binary(0)?;
        let save = self.c.pos;
        self.c.skip_expr_ws();
        if !self.c.eat("?") {
            self.c.pos = save;
            return Ok(cond);
        }
        self.c.skip_expr_ws();
        let t = self.expr()?;
        self.c.skip_expr_ws();
        if !self.c.eat(":") {
            return Err(self.c.error(
                "Missing false expression in conditional",
                "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
                self.c.here(),
            ));
        }
        self.c.skip_expr_ws();
        let f = self.expr()?;
        let span = cond.span.to(&f.span);
        Ok(Expr {
            kind: ExprKind::Conditional(Box::new(cond), Box::new(t), Box::new(f)),
            span,
        })
    }

    fn binary(&mut self, level: usize) -> PResult<Expr> {
        let Some(ops) = BINARY_LEVELS.get(level) else {
            return self.unary();
        };
        let mut lhs = self.binary(level + 1)?;
        loop {
            let save = self.c.pos;
            self.c.skip_expr_ws();
            let op = ops
                .iter()
                .find(|(tok, _)| self.c.starts_with(tok) && !self.is_other_op(tok));
            let Some((tok, op)) = op else {
                self.c.pos = save;
                return Ok(lhs);
            };
            self.c.pos += tok.len();
            self.c.skip_expr_ws();
            let rhs = self.binary(level + 1)?;
            let span = lhs.span.to(&rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary(*op, Box::new(lhs), Box::new(rhs)),
                span,
            };
        }
    }

    /// `<` must not match `<<` (heredoc), `=` comparisons must not match `=>`.
    fn is_other_op(&self, tok: &str) -> bool {
        (tok == "<" && self.c.starts_with("<<")) || (tok == ">" && self.c.starts_with(">="))
    }

    fn unary(&mut self) -> PResult<Expr> {
        let start = self.c.pos;
        let op = match self.c.peek() {
            Some('!') => UnOp::Not,
            Some('-') => UnOp::Neg,
            _ => return self.postfix(),
        };
        self.c.bump();
        self.c.skip_expr_ws();
        let inner = self.unary()?;
        let span = self.c.span(start, inner.span.end.byte);
        Ok(Expr {
            kind: ExprKind::Unary(op, Box::new(inner)),
            span,
        })
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let base = self.primary()?;
        self.traversal_steps(base)
    }

    fn traversal_steps(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            if self.c.starts_with("[*]") || self.c.starts_with(".*") {
                self.c.pos += if self.c.starts_with("[*]") { 3 } else { 2 };
                let item = Expr {
                    kind: ExprKind::SplatItem,
                    span: self.c.span(self.c.pos, self.c.pos),
                };
                let rhs = self.traversal_steps(item)?;
                let span = e.span.to(&self.c.span(self.c.pos, self.c.pos));
                return Ok(Expr {
                    kind: ExprKind::Splat(Box::new(e), Box::new(rhs)),
                    span,
                });
            }
            if self.c.peek() == Some('.') {
                self.c.bump();
                e = self.get_attr(e)?;
            } else if self.c.peek() == Some('[') {
                self.c.bump();
                self.c.push_mode(NewlineMode::Ignored);
                self.c.skip_ws_nl();
                let idx = self.expr()?;
                self.c.skip_ws_nl();
                self.c.pop_mode();
                self.expect(
                    ']',
                    "Missing close bracket on index",
                    "The index operator must end with a closing bracket (\"]\").",
                )?;
                let span = self.c.span(e.span.start.byte, self.c.pos);
                e = Expr {
                    kind: ExprKind::Index(Box::new(e), Box::new(idx)),
                    span,
                };
            } else {
                return Ok(e);
            }
        }
    }

    fn get_attr(&mut self, e: Expr) -> PResult<Expr> {
        if self.c.peek().is_some_and(|c| c.is_ascii_digit()) {
            let idx = self.number()?;
            let span = e.span.to(&idx.span);
            return Ok(Expr {
                kind: ExprKind::Index(Box::new(e), Box::new(idx)),
                span,
            });
        }
        match self.c.ident() {
            Some((name, name_span)) => {
                let span = e.span.to(&name_span);
                Ok(Expr {
                    kind: ExprKind::GetAttr(Box::new(e), name),
                    span,
                })
            }
            None => Err(self.c.error(
                "Invalid attribute name",
                "An attribute name is required after a dot.",
                self.c.here(),
            )),
        }
    }

    pub(crate) fn expect(&mut self, ch: char, summary: &str, detail: &str) -> PResult<()> {
        if self.c.peek() == Some(ch) {
            self.c.bump();
            Ok(())
        } else {
            Err(self.c.error(summary, detail, self.c.here()))
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let start = self.c.pos;
        match self.c.peek() {
            Some(c) if c.is_ascii_digit() => self.number(),
            Some('"') => self.expr_primary_string(),
            Some('<') if self.c.starts_with("<<") => self.heredoc(),
            Some('(') => {
                self.c.bump();
                self.c.push_mode(NewlineMode::Ignored);
                self.c.skip_ws_nl();
                let inner = self.expr()?;
                self.c.skip_ws_nl();
                self.c.pop_mode();
                self.expect(
                    ')',
                    "Unbalanced parentheses",
                    "Expected a closing parenthesis to terminate the expression.",
                )?;
                let span = self.c.span(start, self.c.pos);
                Ok(Expr {
                    kind: ExprKind::Paren(Box::new(inner)),
                    span,
                })
            }
            Some('[') => self.tuple(),
            Some('{') => self.object(),
            Some('\'') => Err(self.c.error(
                "Invalid character",
                "Single quotes are not valid. Use double quotes (\") to enclose strings.",
                self.c.here(),
            )),
            Some(c) if c.is_alphabetic() || c == '_' => self.name_or_call(),
            _ => Err(self.c.error(
                "Invalid expression",
                "Expected the start of an expression, but found an invalid expression token.",
                self.c.here(),
            )),
        }
    }

    fn name_or_call(&mut self) -> PResult<Expr> {
        let start = self.c.pos;
        let Some((name, span)) = self.c.ident() else {
            return Err(self.c.error(
                "Invalid expression",
                "Expected the start of an expression.",
                self.c.here(),
            ));
        };
        let kind = match name.as_str() {
            "true" => ExprKind::Bool(true),
            "false" => ExprKind::Bool(false),
            "null" => ExprKind::Null,
            _ if self.c.peek() == Some('(') => return self.call(name, start),
            _ => ExprKind::Variable(name),
        };
        Ok(Expr { kind, span })
    }

    fn call(&mut self, name: String, start: usize) -> PResult<Expr> {
        self.c.bump();
        self.c.push_mode(NewlineMode::Ignored);
        let mut args = Vec::new();
        let mut expand = false;
        loop {
            self.c.skip_ws_nl();
            if self.c.eat(")") {
                break;
            }
            args.push(self.expr()?);
            self.c.skip_ws_nl();
            if self.c.eat("...") {
                expand = true;
                self.c.skip_ws_nl();
            }
            if self.c.eat(",") {
                continue;
            }
            if self.c.eat(")") {
                break;
            }
            self.c.pop_mode();
            return Err(self.c.error(
                "Missing argument separator",
                "A comma is required to separate each function argument from the next.",
                self.c.here(),
            ));
        }
        self.c.pop_mode();
        let span = self.c.span(start, self.c.pos);
        Ok(Expr {
            kind: ExprKind::Call(name, args, expand),
            span,
        })
    }

    pub(crate) fn number(&mut self) -> PResult<Expr> {
        let start = self.c.pos;
        self.digits();
        if self.c.peek() == Some('.') && self.c.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.c.bump();
            self.digits();
        }
        if matches!(self.c.peek(), Some('e' | 'E')) {
            self.c.bump();
            if matches!(self.c.peek(), Some('+' | '-')) {
                self.c.bump();
            }
            self.digits();
        }
        let text = &self.c.src[start..self.c.pos];
        let span = self.c.span(start, self.c.pos);
        match text.parse::<f64>() {
            Ok(n) => Ok(Expr {
                kind: ExprKind::Number(n),
                span,
            }),
            Err(_) => Err(self.c.error(
                "Invalid number literal",
                "Failed to recognize the value of this number literal.",
                span,
            )),
        }
    }

    fn digits(&mut self) {
        while self.c.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.c.bump();
        }
    }

    fn tuple(&mut self) -> PResult<Expr> {
        let start = self.c.pos;
        self.c.bump();
        self.c.push_mode(NewlineMode::Ignored);
        self.c.skip_ws_nl();
        if self.at_for_keyword() {
            let f = self.for_expr(false)?;
            self.c.pop_mode();
            self.expect(
                ']',
                "Invalid 'for' expression",
                "Expected a closing bracket (\"]\") to end the 'for' expression.",
            )?;
            return Ok(Expr {
                kind: ExprKind::For(Box::new(f)),
                span: self.c.span(start, self.c.pos),
            });
        }
        let mut items = Vec::new();
        loop {
            self.c.skip_ws_nl();
            if self.c.eat("]") {
                break;
            }
            items.push(self.expr()?);
            self.c.skip_ws_nl();
            if self.c.eat(",") {
                continue;
            }
            if self.c.eat("]") {
                break;
            }
            self.c.pop_mode();
            return Err(self.c.error(
                "Missing item separator",
                "Expected a comma to mark the beginning of the next item.",
                self.c.here(),
            ));
        }
        self.c.pop_mode();
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span: self.c.span(start, self.c.pos),
        })
    }

    fn at_for_keyword(&self) -> bool {
        self.c.starts_with("for") && self.c.peek_at(3).is_some_and(char::is_whitespace)
    }

    fn object(&mut self) -> PResult<Expr> {
        let start = self.c.pos;
        self.c.bump();
        self.c.push_mode(NewlineMode::Significant);
        self.c.skip_ws_nl();
        if self.at_for_keyword() {
            self.c.push_mode(NewlineMode::Ignored);
            let f = self.for_expr(true)?;
            self.c.pop_mode();
            self.c.pop_mode();
            self.c.skip_ws_nl();
            self.expect(
                '}',
                "Invalid 'for' expression",
                "Expected a closing brace (\"}\") to end the 'for' expression.",
            )?;
            return Ok(Expr {
                kind: ExprKind::For(Box::new(f)),
                span: self.c.span(start, self.c.pos),
            });
        }
        let items = self.object_items();
        self.c.pop_mode();
        let items = items?;
        Ok(Expr {
            kind: ExprKind::Object(items),
            span: self.c.span(start, self.c.pos),
        })
    }

    fn object_items(&mut self) -> PResult<Vec<(Expr, Expr)>> {
        let mut items = Vec::new();
        loop {
            self.c.skip_ws_nl();
            if self.c.eat("}") {
                return Ok(items);
            }
            if self.c.at_eof() {
                return Err(self.c.error(
                    "Missing closing brace",
                    "An object constructor must end with a closing brace (\"}\").",
                    self.c.here(),
                ));
            }
            let key = self.object_key()?;
            self.c.skip_space();
            if !(self.c.eat("=") || self.c.eat(":")) {
                return Err(self.c.error(
                    "Missing key/value separator",
                    "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                    self.c.here(),
                ));
            }
            self.c.skip_space();
            let value = self.expr()?;
            items.push((key, value));
            self.c.skip_space();
            let comma = self.c.eat(",");
            let newline = self.c.skip_ws_nl();
            if !(comma || newline || self.c.peek() == Some('}')) {
                return Err(self.c.error(
                    "Missing attribute separator",
                    "Expected a newline or comma to mark the beginning of the next attribute.",
                    self.c.here(),
                ));
            }
        }
    }

    fn object_key(&mut self) -> PResult<Expr> {
        self.c.push_mode(NewlineMode::Ignored);
        let key = if self.c.peek() == Some('(') {
            self.primary()
        } else {
            self.unary()
        };
        self.c.pop_mode();
        key
    }

    fn for_expr(&mut self, object: bool) -> PResult<ForExpr> {
        self.c.pos += 3;
        self.c.skip_ws_nl();
        let first = self.for_ident()?;
        self.c.skip_ws_nl();
        let (key_var, value_var) = if self.c.eat(",") {
            self.c.skip_ws_nl();
            (Some(first), self.for_ident()?)
        } else {
            (None, first)
        };
        self.c.skip_ws_nl();
        if !self.c.eat("in") {
            return Err(self.c.error(
                "Invalid 'for' expression",
                "The 'in' keyword is required after the iterator variables.",
                self.c.here(),
            ));
        }
        self.c.skip_ws_nl();
        let collection = self.expr()?;
        self.c.skip_ws_nl();
        self.expect(
            ':',
            "Invalid 'for' expression",
            "The 'for' expression requires a colon after the collection expression.",
        )?;
        self.c.skip_ws_nl();
        let mut key = None;
        let mut value = self.expr()?;
        self.c.skip_ws_nl();
        if object {
            if !self.c.eat("=>") {
                return Err(self.c.error(
                    "Invalid 'for' expression",
                    "Key expression is required when building an object.",
                    self.c.here(),
                ));
            }
            self.c.skip_ws_nl();
            key = Some(value);
            value = self.expr()?;
            self.c.skip_ws_nl();
        }
        let grouping = self.c.eat("...");
        self.c.skip_ws_nl();
        let cond = if self.c.starts_with("if") && self.c.peek_at(2).is_some_and(char::is_whitespace)
        {
            self.c.pos += 2;
            self.c.skip_ws_nl();
            Some(self.expr()?)
        } else {
            None
        };
        self.c.skip_ws_nl();
        Ok(ForExpr {
            key_var,
            value_var,
            collection,
            key,
            value,
            cond,
            grouping,
        })
    }

    fn for_ident(&mut self) -> PResult<String> {
        match self.c.ident() {
            Some((n, _)) => Ok(n),
            None => Err(self.c.error(
                "Invalid 'for' expression",
                "An iterator variable name is required.",
                self.c.here(),
            )),
        }
    }
}
