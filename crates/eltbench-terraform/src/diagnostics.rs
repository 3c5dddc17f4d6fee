//! Diagnostics in Terraform's shape and wording: a summary, an optional source
//! range with the enclosing block ("in resource \"x\" \"y\""), an optional
//! resource address ("with x.y"), and a detail paragraph, rendered inside the
//! `╷ │ ╵` frame that Terraform prints.
//!
//! This module only formats; it never decides what is an error.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use crate::hcl::BlockRange;

/// A position in a source file (1-based line and column, 0-based byte offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
    pub byte: usize,
}

/// A range in one source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub file: Arc<str>,
    pub start: Pos,
    pub end: Pos,
}

impl Span {
    /// The smallest span covering both `self` and `other` (same file assumed).
    pub fn to(&self, other: &Span) -> Span {
        Span {
            file: self.file.clone(),
            start: self.start,
            end: other.end,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One diagnostic, as Terraform reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub summary: String,
    pub detail: String,
    pub subject: Option<Span>,
    /// The enclosing block header, e.g. `resource "airbyte_connection" "c"`.
    pub context: Option<String>,
    /// The resource address for provider-originated diagnostics (`with x.y,`).
    pub address: Option<String>,
}

impl Diagnostic {
    pub fn error(summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            summary: summary.into(),
            detail: detail.into(),
            subject: None,
            context: None,
            address: None,
        }
    }

    pub fn warning(summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(summary, detail)
        }
    }

    pub fn at(mut self, span: &Span) -> Self {
        self.subject = Some(span.clone());
        self
    }

    pub fn in_block(mut self, context: Option<&str>) -> Self {
        self.context = context.map(str::to_string);
        self
    }

    pub fn with_address(mut self, address: impl Into<String>) -> Self {
        self.address = Some(address.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The text of every loaded file, for printing source snippets.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: BTreeMap<Arc<str>, (String, Vec<BlockRange>)>,
}

impl Sources {
    pub fn add(&mut self, name: Arc<str>, text: String, blocks: Vec<BlockRange>) {
        self.files.insert(name, (text, blocks));
    }

    fn line(&self, file: &str, line: usize) -> Option<&str> {
        let (text, _) = self.files.get(file)?;
        text.lines().nth(line.checked_sub(1)?)
    }

    /// The header of the top-level block containing `byte` (Terraform's "in ...").
    fn context(&self, file: &str, byte: usize) -> Option<&str> {
        let (_, blocks) = self.files.get(file)?;
        blocks
            .iter()
            .filter(|b| b.start <= byte && byte < b.end)
            .max_by_key(|b| b.end - b.start)
            .map(|b| b.header.as_str())
    }
}

/// Renders diagnostics exactly as Terraform prints them (without colour).
pub fn render(diags: &[Diagnostic], sources: &Sources) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&render_one(d, sources));
    }
    out
}

fn render_one(d: &Diagnostic, sources: &Sources) -> String {
    let mut body = String::new();
    let word = match d.severity {
        Severity::Error => "Error",
        Severity::Warning => "Warning",
    };
    let _ = writeln!(body, "{word}: {}", d.summary);
    body.push('\n');
    if let Some(span) = &d.subject {
        if let Some(addr) = &d.address {
            let _ = writeln!(body, "  with {addr},");
        }
        let _ = write!(body, "  on {} line {}", span.file, span.start.line);
        let ctx = d
            .context
            .as_deref()
            .or_else(|| sources.context(&span.file, span.start.byte));
        match ctx {
            Some(ctx) => {
                let _ = writeln!(body, ", in {ctx}:");
            }
            None => {
                let _ = writeln!(body, ":");
            }
        }
        for line in span.start.line..=span.end.line.max(span.start.line) {
            if let Some(text) = sources.line(&span.file, line) {
                let _ = writeln!(body, "{line:>4}: {text}");
            }
        }
        body.push('\n');
    }
    if !d.detail.is_empty() {
        body.push_str(&d.detail);
        body.push('\n');
    }
    frame(&body)
}

fn frame(body: &str) -> String {
    let mut out = String::from("╷\n");
    for line in body.trim_end_matches('\n').split('\n') {
        out.push_str("│ ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("╵\n");
    out
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_terraform_frame_with_snippet() {
        let mut sources = Sources::default();
        let file: Arc<str> = Arc::from("main.tf");
        let text = "resource \"a\" \"b\" {\n  nme = 1\n}\n";
        let blocks = vec![BlockRange {
            start: 0,
            end: text.len() - 1,
            header: "resource \"a\" \"b\"".into(),
        }];
        sources.add(file.clone(), text.into(), blocks);
        let span = Span {
            file,
            start: Pos {
                line: 2,
                col: 3,
                byte: 21,
            },
            end: Pos {
                line: 2,
                col: 6,
                byte: 24,
            },
        };
        let d = Diagnostic::error(
            "Unsupported argument",
            "An argument named \"nme\" is not expected here.",
        )
        .at(&span);
        let text = render(&[d], &sources);
        assert_eq!(
            text,
            "╷\n│ Error: Unsupported argument\n│ \n│   on main.tf line 2, in resource \"a\" \"b\":\n│    2:   nme = 1\n│ \n│ An argument named \"nme\" is not expected here.\n╵\n"
        );
    }
}
