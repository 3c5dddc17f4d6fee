//! A byte cursor over one HCL file: positions, whitespace and comment
//! skipping, and the syntax-error constructor the parser uses.
//!
//! Knows nothing about the grammar beyond what counts as whitespace.

use std::sync::Arc;

use crate::diagnostics::{Diagnostic, Pos, Span};

/// Whether newlines end the current expression (body, object) or are
/// insignificant (inside parentheses, brackets, function calls).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NewlineMode {
    Significant,
    Ignored,
}

pub(crate) struct Cursor<'a> {
    pub(crate) src: &'a str,
    pub(crate) pos: usize,
    pub(crate) file: Arc<str>,
    line_starts: Vec<usize>,
    modes: Vec<NewlineMode>,
}

pub(crate) type PResult<T> = Result<T, Box<Diagnostic>>;

impl<'a> Cursor<'a> {
    pub(crate) fn new(src: &'a str, file: Arc<str>) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        Cursor {
            src,
            pos: 0,
            file,
            line_starts,
            modes: vec![NewlineMode::Significant],
        }
    }

    pub(crate) fn pos_at(&self, byte: usize) -> Pos {
        let line = self.line_starts.partition_point(|&s| s <= byte);
        let start = self.line_starts[line.saturating_sub(1)];
        let col = self
            .src
            .get(start..byte)
            .map_or(1, |s| s.chars().count() + 1);
        Pos {
            line: line.max(1),
            col,
            byte,
        }
    }

    pub(crate) fn span(&self, from: usize, to: usize) -> Span {
        Span {
            file: self.file.clone(),
            start: self.pos_at(from),
            end: self.pos_at(to),
        }
    }

    /// The span of the character at the cursor (or an empty span at EOF).
    pub(crate) fn here(&self) -> Span {
        let len = self.peek().filter(|c| *c != '\n').map_or(0, char::len_utf8);
        self.span(self.pos, self.pos + len)
    }

    pub(crate) fn error(&self, summary: &str, detail: &str, span: Span) -> Box<Diagnostic> {
        Box::new(Diagnostic::error(summary, detail).at(&span))
    }

    pub(crate) fn rest(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    pub(crate) fn peek_at(&self, n: usize) -> Option<char> {
        self.rest().chars().nth(n)
    }

    pub(crate) fn starts_with(&self, s: &str) -> bool {
        self.rest().starts_with(s)
    }

    pub(crate) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    pub(crate) fn eat(&mut self, s: &str) -> bool {
        if self.starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    pub(crate) fn at_eof(&self) -> bool {
        self.pos >= self.src.len()
    }

    pub(crate) fn push_mode(&mut self, mode: NewlineMode) {
        self.modes.push(mode);
    }

    pub(crate) fn pop_mode(&mut self) {
        self.modes.pop();
    }

    fn newlines_ignored(&self) -> bool {
        self.modes.last() == Some(&NewlineMode::Ignored)
    }

    /// Skips spaces and comments; newlines too when the current mode ignores them.
    pub(crate) fn skip_expr_ws(&mut self) {
        if self.newlines_ignored() {
            self.skip_ws_nl();
        } else {
            self.skip_space();
        }
    }

    /// Skips spaces, tabs, carriage returns and comments, but not newlines
    /// (a `#` or `//` comment stops before its newline).
    pub(crate) fn skip_space(&mut self) {
        loop {
            match self.peek() {
                Some(' ' | '\t' | '\r') => {
                    self.pos += 1;
                }
                Some('#') => self.skip_line_comment(),
                Some('/') if self.peek_at(1) == Some('/') => self.skip_line_comment(),
                Some('/') if self.peek_at(1) == Some('*') => self.skip_block_comment(),
                _ => return,
            }
        }
    }

    /// Skips whitespace including newlines; returns true if a newline was crossed.
    pub(crate) fn skip_ws_nl(&mut self) -> bool {
        let mut crossed = false;
        loop {
            self.skip_space();
            if self.peek() == Some('\n') {
                self.pos += 1;
                crossed = true;
            } else {
                return crossed;
            }
        }
    }

    fn skip_line_comment(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' {
                return;
            }
            self.bump();
        }
    }

    fn skip_block_comment(&mut self) {
        self.pos += 2;
        while !self.at_eof() && !self.starts_with("*/") {
            self.bump();
        }
        self.eat("*/");
    }

    /// Reads an identifier (letters, digits, `_`, `-`; not starting with a digit or `-`).
    pub(crate) fn ident(&mut self) -> Option<(String, Span)> {
        let start = self.pos;
        let first = self.peek()?;
        if !(first.is_alphabetic() || first == '_') {
            return None;
        }
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                self.bump();
            } else {
                break;
            }
        }
        Some((
            self.src[start..self.pos].to_string(),
            self.span(start, self.pos),
        ))
    }
}
