//! Loading a root module: every `*.tf` file of the working directory, parsed
//! and sorted into terraform/provider/variable/locals/resource/output blocks,
//! with Terraform's errors for unexpected or duplicate top-level items.
//!
//! No evaluation happens here and nothing is written.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::diagnostics::{Diagnostic, Sources, Span};
use crate::hcl::template::literal_value;
use crate::hcl::{Attribute, Block, Body, Expr, parse_file};

#[derive(Debug, Clone)]
pub struct RequiredProvider {
    pub local_name: String,
    pub source: Option<String>,
    pub version: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Variable {
    pub name: String,
    pub default: Option<Expr>,
    pub type_expr: Option<Expr>,
    pub sensitive: bool,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ResourceConfig {
    pub type_name: String,
    pub name: String,
    pub block: Block,
}

impl ResourceConfig {
    pub fn address(&self) -> String {
        format!("{}.{}", self.type_name, self.name)
    }

    pub fn header(&self) -> String {
        self.block.header()
    }
}

#[derive(Debug, Clone)]
pub struct Output {
    pub name: String,
    pub value: Option<Expr>,
    pub sensitive: bool,
    pub block: Block,
}

#[derive(Debug, Default)]
pub struct Module {
    pub sources: Sources,
    pub required_providers: Vec<RequiredProvider>,
    pub providers: Vec<Block>,
    pub variables: BTreeMap<String, Variable>,
    pub locals: Vec<Attribute>,
    pub resources: Vec<ResourceConfig>,
    pub outputs: Vec<Output>,
    pub data_blocks: Vec<Block>,
}

impl Module {
    pub fn resource(&self, type_name: &str, name: &str) -> Option<&ResourceConfig> {
        self.resources
            .iter()
            .find(|r| r.type_name == type_name && r.name == name)
    }
}

/// Reads and parses every `.tf` file in `dir` (sorted by name).
pub fn load(dir: &Path) -> (Module, Vec<Diagnostic>) {
    let mut module = Module::default();
    let mut diags = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.retain(|n| n.ends_with(".tf"));
    names.sort();
    for name in names {
        let text = match std::fs::read_to_string(dir.join(&name)) {
            Ok(t) => t,
            Err(e) => {
                diags.push(Diagnostic::error(
                    "Failed to read file",
                    format!("The file {name:?} could not be read: {e}."),
                ));
                continue;
            }
        };
        let file: Arc<str> = Arc::from(name.as_str());
        let parsed = parse_file(&text, file.clone());
        module.sources.add(file.clone(), text, parsed.blocks);
        match parsed.body {
            Ok(body) => add_body(&mut module, body, &mut diags),
            Err(d) => diags.push(*d),
        }
    }
    (module, diags)
}

fn add_body(m: &mut Module, body: Body, diags: &mut Vec<Diagnostic>) {
    for a in &body.attributes {
        diags.push(
            Diagnostic::error(
                "Unsupported argument",
                format!("An argument named \"{}\" is not expected here.", a.name),
            )
            .at(&a.name_span),
        );
    }
    for block in body.blocks {
        add_block(m, block, diags);
    }
}

fn add_block(m: &mut Module, block: Block, diags: &mut Vec<Diagnostic>) {
    let want_labels = match block.kind.as_str() {
        "terraform" | "locals" => 0,
        "provider" | "variable" | "output" | "module" => 1,
        "resource" | "data" => 2,
        other => {
            diags.push(
                Diagnostic::error(
                    "Unsupported block type",
                    format!("Blocks of type \"{other}\" are not expected here."),
                )
                .at(&block.span),
            );
            return;
        }
    };
    if block.labels.len() != want_labels {
        diags.push(label_error(&block, want_labels));
        return;
    }
    match block.kind.as_str() {
        "terraform" => add_terraform(m, &block, diags),
        "locals" => m.locals.extend(block.body.attributes.iter().cloned()),
        "provider" => m.providers.push(block),
        "variable" => add_variable(m, block, diags),
        "output" => add_output(m, block),
        "resource" => add_resource(m, block, diags),
        "data" => m.data_blocks.push(block),
        _ => diags.push(
            Diagnostic::error(
                "Module not installed",
                "This module is not yet installed. Run \"terraform init\" to install all modules required by this configuration.",
            )
            .at(&block.span),
        ),
    }
}

fn label_error(block: &Block, want: usize) -> Diagnostic {
    let (summary, detail) = if block.labels.len() < want {
        (
            "Missing name for ".to_string() + &block.kind,
            format!("All {} blocks must have {} labels.", block.kind, want),
        )
    } else {
        (
            "Extraneous label for ".to_string() + &block.kind,
            format!(
                "Only {want} labels (name) are expected for {} blocks.",
                block.kind
            ),
        )
    };
    Diagnostic::error(summary, detail).at(&block.span)
}

fn add_terraform(m: &mut Module, block: &Block, diags: &mut Vec<Diagnostic>) {
    for rp in block
        .body
        .blocks
        .iter()
        .filter(|b| b.kind == "required_providers")
    {
        for a in &rp.body.attributes {
            let (source, version) = provider_requirement(&a.expr);
            if source.is_none() && version.is_none() {
                diags.push(
                    Diagnostic::error(
                        "Invalid required_providers object",
                        "required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block.",
                    )
                    .at(&a.expr.span),
                );
            }
            m.required_providers.push(RequiredProvider {
                local_name: a.name.clone(),
                source,
                version,
            });
        }
    }
}

fn provider_requirement(e: &Expr) -> (Option<String>, Option<String>) {
    use crate::hcl::ExprKind;
    match &e.kind {
        ExprKind::Object(items) => {
            let get = |key: &str| {
                items.iter().find_map(|(k, v)| {
                    let name = match &k.kind {
                        ExprKind::Variable(n) => Some(n.clone()),
                        _ => literal_value(k),
                    };
                    (name.as_deref() == Some(key))
                        .then(|| literal_value(v))
                        .flatten()
                })
            };
            (get("source"), get("version"))
        }
        // The legacy form `airbyte = "0.6.5"` is a version constraint only.
        _ => (None, literal_value(e)),
    }
}

fn add_variable(m: &mut Module, block: Block, diags: &mut Vec<Diagnostic>) {
    let name = block.labels[0].clone();
    if let Some(prev) = m.variables.get(&name) {
        diags.push(duplicate("Duplicate variable declaration", &format!("A variable named \"{name}\" was already declared at {}. Variable names must be unique within a module.", at(&prev.span)), &block.span));
        return;
    }
    let body = &block.body;
    let sensitive = body
        .attribute("sensitive")
        .is_some_and(|a| matches!(a.expr.kind, crate::hcl::ExprKind::Bool(true)));
    m.variables.insert(
        name.clone(),
        Variable {
            name,
            default: body.attribute("default").map(|a| a.expr.clone()),
            type_expr: body.attribute("type").map(|a| a.expr.clone()),
            sensitive,
            span: block.span.clone(),
        },
    );
}

fn add_output(m: &mut Module, block: Block) {
    let body = &block.body;
    let sensitive = body
        .attribute("sensitive")
        .is_some_and(|a| matches!(a.expr.kind, crate::hcl::ExprKind::Bool(true)));
    m.outputs.push(Output {
        name: block.labels[0].clone(),
        value: body.attribute("value").map(|a| a.expr.clone()),
        sensitive,
        block,
    });
}

fn add_resource(m: &mut Module, block: Block, diags: &mut Vec<Diagnostic>) {
    let (type_name, name) = (block.labels[0].clone(), block.labels[1].clone());
    if let Some(prev) = m.resource(&type_name, &name) {
        diags.push(duplicate(
            &format!("Duplicate resource \"{type_name}\" configuration"),
            &format!("A {type_name} resource named \"{name}\" was already declared at {}. Resource names must be unique per type in each module.", at(&prev.block.span)),
            &block.span,
        ));
        return;
    }
    m.resources.push(ResourceConfig {
        type_name,
        name,
        block,
    });
}

fn duplicate(summary: &str, detail: &str, span: &Span) -> Diagnostic {
    Diagnostic::error(summary, detail).at(span)
}

fn at(span: &Span) -> String {
    format!(
        "{}:{},{}-{}",
        span.file, span.start.line, span.start.col, span.end.col
    )
}
