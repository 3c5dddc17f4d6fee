//! HCL native syntax: a hand-written parser that keeps a source span on every
//! node and reports syntax errors in hclsyntax's wording, so that Terraform's
//! diagnostics (with `on main.tf line N`) can be reproduced.
//!
//! This module parses only; it never evaluates or validates Terraform semantics.

pub mod ast;
mod cursor;
mod expr;
pub mod parse;
pub mod template;

pub use ast::{Attribute, Block, Body, Expr, ExprKind, Step, TemplatePart, Traversal};
pub use parse::{BlockRange, ParsedFile, parse_file};
