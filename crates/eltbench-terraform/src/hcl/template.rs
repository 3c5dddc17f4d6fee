//! Quoted strings and heredocs: escapes, `${...}` interpolation, `$${`
//! escaping, and `<<-EOT` indentation stripping.
//!
//! Template directives (`%{if}`/`%{for}`) are not supported and stay literal.

use super::ast::{Expr, ExprKind, TemplatePart};
use super::cursor::{NewlineMode, PResult};
use super::parse::Parser;

/// The string value of a template with no interpolation.
pub fn literal_value(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Template(parts) => {
            let mut s = String::new();
            for p in parts {
                match p {
                    TemplatePart::Literal(l) => s.push_str(l),
                    TemplatePart::Interp(_) => return None,
                }
            }
            Some(s)
        }
        _ => None,
    }
}

impl Parser<'_> {
    pub(crate) fn expr_primary_string(&mut self) -> PResult<Expr> {
        let start = self.c.pos;
        self.c.bump();
        let mut parts = Vec::new();
        let mut lit = String::new();
        loop {
            match self.c.peek() {
                None => {
                    return Err(self.c.error(
                        "Unterminated template string",
                        "No closing marker was found for the string.",
                        self.c.span(start, self.c.pos),
                    ));
                }
                Some('\n') => {
                    return Err(self.c.error(
                        "Invalid multi-line string",
                        "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                        self.c.span(start, self.c.pos),
                    ));
                }
                Some('"') => {
                    self.c.bump();
                    break;
                }
                Some('\\') => lit.push(self.escape()?),
                Some(_) => self.template_char(&mut lit, &mut parts)?,
            }
        }
        if !lit.is_empty() || parts.is_empty() {
            parts.push(TemplatePart::Literal(lit));
        }
        Ok(Expr {
            kind: ExprKind::Template(parts),
            span: self.c.span(start, self.c.pos),
        })
    }

    /// Consumes one template character, an escaped `$${`, or an interpolation.
    fn template_char(&mut self, lit: &mut String, parts: &mut Vec<TemplatePart>) -> PResult<()> {
        if self.c.eat("$${") {
            lit.push_str("${");
        } else if self.c.eat("%%{") {
            lit.push_str("%{");
        } else if self.c.starts_with("${") {
            if !lit.is_empty() {
                parts.push(TemplatePart::Literal(std::mem::take(lit)));
            }
            parts.push(TemplatePart::Interp(self.interpolation()?));
        } else if let Some(c) = self.c.bump() {
            lit.push(c);
        }
        Ok(())
    }

    fn interpolation(&mut self) -> PResult<Expr> {
        let open = self.c.here();
        self.c.pos += 2;
        self.c.eat("~");
        self.c.push_mode(NewlineMode::Ignored);
        self.c.skip_ws_nl();
        let e = self.expr();
        self.c.skip_ws_nl();
        self.c.pop_mode();
        let e = e?;
        self.c.eat("~");
        if self.c.eat("}") {
            Ok(e)
        } else {
            Err(self.c.error(
                "Unterminated template interpolation",
                "There is no closing brace for this interpolation sequence before the end of the file.",
                open,
            ))
        }
    }

    fn escape(&mut self) -> PResult<char> {
        let start = self.c.pos;
        self.c.bump();
        let c = match self.c.bump() {
            Some('n') => '\n',
            Some('t') => '\t',
            Some('r') => '\r',
            Some('"') => '"',
            Some('\\') => '\\',
            Some('u') => return self.unicode_escape(4, start),
            Some('U') => return self.unicode_escape(8, start),
            _ => {
                return Err(self.c.error(
                    "Invalid escape sequence",
                    "The symbol is not a valid escape sequence selector.",
                    self.c.span(start, self.c.pos),
                ));
            }
        };
        Ok(c)
    }

    fn unicode_escape(&mut self, len: usize, start: usize) -> PResult<char> {
        let hex = self.c.rest().get(..len).unwrap_or("");
        let c = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32);
        match c {
            Some(c) => {
                self.c.pos += len;
                Ok(c)
            }
            None => Err(self.c.error(
                "Invalid escape sequence",
                "The \\u escape sequence must be followed by four hexadecimal digits.",
                self.c.span(start, self.c.pos),
            )),
        }
    }

    pub(crate) fn heredoc(&mut self) -> PResult<Expr> {
        let start = self.c.pos;
        self.c.pos += 2;
        let strip = self.c.eat("-");
        let Some((marker, _)) = self.c.ident() else {
            return Err(self.c.error(
                "Invalid heredoc",
                "A heredoc marker name is required after \"<<\".",
                self.c.here(),
            ));
        };
        if !self.c.eat("\n") && !self.c.eat("\r\n") {
            return Err(self.c.error(
                "Invalid heredoc",
                "The heredoc marker must be followed by a newline.",
                self.c.here(),
            ));
        }
        let body_start = self.c.pos;
        let mut lines = Vec::new();
        loop {
            if self.c.at_eof() {
                return Err(self.c.error(
                    "Unterminated template string",
                    &format!("No closing marker was found for the heredoc; expected a line containing only {marker}."),
                    self.c.span(start, body_start),
                ));
            }
            let line_end = self
                .c
                .rest()
                .find('\n')
                .map_or(self.c.src.len(), |i| self.c.pos + i);
            let line = &self.c.src[self.c.pos..line_end];
            self.c.pos = (line_end + 1).min(self.c.src.len());
            if line.trim() == marker {
                self.c.pos = line_end;
                break;
            }
            lines.push(line.to_string());
        }
        let text = heredoc_text(&lines, strip);
        let parts = self.sub_template(&text)?;
        Ok(Expr {
            kind: ExprKind::Template(parts),
            span: self.c.span(start, self.c.pos),
        })
    }

    /// Parses interpolations inside already-extracted heredoc text.
    fn sub_template(&mut self, text: &str) -> PResult<Vec<TemplatePart>> {
        let mut sub = Parser::for_text(text, self.c.file.clone());
        let mut parts = Vec::new();
        let mut lit = String::new();
        while !sub.c.at_eof() {
            sub.template_char(&mut lit, &mut parts)?;
        }
        if !lit.is_empty() || parts.is_empty() {
            parts.push(TemplatePart::Literal(lit));
        }
        Ok(parts)
    }
}

fn heredoc_text(lines: &[String], strip: bool) -> String {
    let indent = if strip {
        lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0)
    } else {
        0
    };
    let mut out = String::new();
    for l in lines {
        out.push_str(l.get(indent..).unwrap_or(l.trim_start()));
        out.push('\n');
    }
    out
}
