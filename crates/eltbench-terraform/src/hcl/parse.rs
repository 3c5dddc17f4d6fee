//! Parsing of HCL bodies (attributes and blocks) with the syntax errors that
//! Terraform reports, worded as hclsyntax words them.
//!
//! Expressions are parsed in `expr.rs`, strings in `template.rs`.

use std::sync::Arc;

use super::ast::{Attribute, Block, Body};
use super::cursor::{Cursor, PResult};
use crate::diagnostics::{Diagnostic, Span};

/// A block's extent in a file, used to say "in resource ..." in diagnostics.
#[derive(Debug, Clone)]
pub struct BlockRange {
    pub start: usize,
    pub end: usize,
    pub header: String,
}

/// A parsed file: its body, or the first syntax error, plus the block ranges
/// seen (complete or not) for diagnostic context.
#[derive(Debug)]
pub struct ParsedFile {
    pub body: Result<Body, Box<Diagnostic>>,
    pub blocks: Vec<BlockRange>,
}

pub fn parse_file(src: &str, file: Arc<str>) -> ParsedFile {
    let mut p = Parser {
        c: Cursor::new(src, file),
        blocks: Vec::new(),
    };
    let body = p.body(None);
    ParsedFile {
        body,
        blocks: p.blocks,
    }
}

pub(crate) struct Parser<'a> {
    pub(crate) c: Cursor<'a>,
    blocks: Vec<BlockRange>,
}

const NEED_DEF: &str = "An argument or block definition is required here.";

impl<'a> Parser<'a> {
    /// A parser over a fragment (heredoc text) that shares the file name.
    pub(crate) fn for_text(text: &'a str, file: Arc<str>) -> Self {
        Parser {
            c: Cursor::new(text, file),
            blocks: Vec::new(),
        }
    }

    /// Parses a body until EOF (top level) or the closing brace of `open`.
    fn body(&mut self, open: Option<&Span>) -> PResult<Body> {
        let mut body = Body::default();
        loop {
            self.c.skip_ws_nl();
            if self.c.at_eof() {
                return match open {
                    Some(span) => Err(self.unclosed(span)),
                    None => Ok(body),
                };
            }
            if self.c.peek() == Some('}') {
                if open.is_some() {
                    self.c.bump();
                    return Ok(body);
                }
                return Err(self.c.error(
                    "Argument or block definition required",
                    NEED_DEF,
                    self.c.here(),
                ));
            }
            self.item(&mut body)?;
        }
    }

    fn unclosed(&self, open: &Span) -> Box<Diagnostic> {
        self.c.error(
            "Unclosed configuration block",
            "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
            open.clone(),
        )
    }

    fn item(&mut self, body: &mut Body) -> PResult<()> {
        let start = self.c.pos;
        let Some((name, name_span)) = self.c.ident() else {
            return Err(self.c.error(
                "Argument or block definition required",
                NEED_DEF,
                self.c.here(),
            ));
        };
        self.c.skip_space();
        match self.c.peek() {
            Some('=') if !self.c.starts_with("==") => {
                self.c.bump();
                self.c.skip_space();
                let expr = self.expr()?;
                let span = self.c.span(start, expr.span.end.byte);
                self.end_of_item("Missing newline after argument", "An argument definition must end with a newline.")?;
                body.attributes.push(Attribute { name, name_span, expr, span });
                Ok(())
            }
            Some('"' | '{') => self.block(name, start, body),
            Some(c) if c.is_alphabetic() || c == '_' => self.block(name, start, body),
            _ => Err(self.c.error(
                "Argument or block definition required",
                "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                name_span,
            )),
        }
    }

    fn block(&mut self, kind: String, start: usize, body: &mut Body) -> PResult<()> {
        let mut labels = Vec::new();
        loop {
            self.c.skip_space();
            match self.c.peek() {
                Some('{') => break,
                Some('"') => labels.push(self.label_string()?),
                Some(c) if c.is_alphabetic() || c == '_' => {
                    labels.extend(self.c.ident().map(|(n, _)| n));
                }
                None | Some('\n') => {
                    return Err(self.c.error(
                        "Invalid block definition",
                        "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.",
                        self.c.here(),
                    ));
                }
                _ => {
                    return Err(self.c.error(
                        "Invalid block definition",
                        "Either a quoted string block label or an opening brace (\"{\") is expected here.",
                        self.c.here(),
                    ));
                }
            }
        }
        let open = self.c.here();
        self.c.bump();
        let header_span = self.c.span(start, self.c.pos);
        let mut block = Block {
            kind,
            labels,
            span: header_span,
            body: Body::default(),
        };
        let idx = self.blocks.len();
        self.blocks.push(BlockRange {
            start,
            end: self.c.src.len(),
            header: block.header(),
        });
        block.body = self.body(Some(&open))?;
        self.blocks[idx].end = self.c.pos;
        self.end_of_item(
            "Missing newline after block definition",
            "A block definition must end with a newline.",
        )?;
        body.blocks.push(block);
        Ok(())
    }

    fn label_string(&mut self) -> PResult<String> {
        let e = self.expr_primary_string()?;
        match super::template::literal_value(&e) {
            Some(s) => Ok(s),
            None => Err(self.c.error(
                "Invalid block label",
                "Block labels cannot contain template interpolation sequences.",
                e.span.clone(),
            )),
        }
    }

    fn end_of_item(&mut self, summary: &str, detail: &str) -> PResult<()> {
        self.c.skip_space();
        match self.c.peek() {
            None | Some('\n') | Some('}') => Ok(()),
            _ => Err(self.c.error(summary, detail, self.c.here())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Result<Body, Box<Diagnostic>> {
        parse_file(src, Arc::from("main.tf")).body
    }

    #[test]
    fn parses_blocks_attributes_and_labels() {
        let body = parse("terraform {\n  required_providers {\n    airbyte = { source = \"airbytehq/airbyte\" }\n  }\n}\nresource \"a\" \"b\" {\n  x = 1 # c\n}\n").unwrap();
        assert_eq!(body.blocks.len(), 2);
        assert_eq!(body.blocks[1].labels, vec!["a", "b"]);
        assert_eq!(body.blocks[1].body.attributes[0].name, "x");
        assert_eq!(body.blocks[1].body.attributes[0].span.start.line, 7);
    }

    #[test]
    fn unclosed_block_is_reported_at_the_brace() {
        let err = parse("resource \"a\" \"b\" {\n  x = 1\n").unwrap_err();
        assert_eq!(err.summary, "Unclosed configuration block");
        assert_eq!(err.subject.unwrap().start.line, 1);
    }

    #[test]
    fn missing_equals_is_reported_with_line() {
        let err = parse("resource \"a\" \"b\" {\n  name \"x\"\n  x = 1 2\n}\n").unwrap_err();
        assert_eq!(err.summary, "Invalid block definition");
        let err = parse("resource \"a\" \"b\" {\n  x = 1 2\n}\n").unwrap_err();
        assert_eq!(err.summary, "Missing newline after argument");
        assert_eq!(err.subject.unwrap().start.line, 2);
    }
}
