//! Resource schemas of the Airbyte Terraform provider 0.6.5, as data.
//!
//! Each resource is one table of attributes (name, type, required/optional/
//! computed, sensitive, default, allowed values, "requires replacement", and
//! how the attribute maps to the Airbyte API JSON). The tables were written
//! from the provider's 0.6.5 documentation and resource definitions.
//! Nothing here performs validation; `validate.rs` and `typecheck.rs` read it.

mod connection;
mod destinations;
mod sources;

use crate::value::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    String,
    Number,
    Bool,
    StringList,
    StringListList,
    Object(&'static [Attr]),
    ListNested(&'static [Attr]),
    SetNested(&'static [Attr]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Required,
    Optional,
    Computed,
    OptionalComputed,
}

/// How an attribute becomes Airbyte API JSON inside a connector configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Json {
    /// Same key, same value.
    Plain,
    /// An object whose attributes are alternative variants; the chosen
    /// variant's object is sent with its discriminator (see `Attr::tag`).
    OneOf,
    /// A string holding JSON whose keys are merged into the parent object
    /// (the provider's `additional_properties`).
    MergeParsed,
    /// A string holding JSON, sent parsed (airbyte_source_custom.configuration).
    Parsed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Default {
    Str(&'static str),
    Int(i64),
    Bool(bool),
}

impl Default {
    pub fn value(self) -> Value {
        match self {
            Default::Str(s) => Value::str(s),
            Default::Int(n) => Value::Number(n as f64),
            Default::Bool(b) => Value::Bool(b),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attr {
    pub name: &'static str,
    pub ty: Ty,
    pub mode: Mode,
    pub sensitive: bool,
    pub default: Option<Default>,
    pub one_of: &'static [&'static str],
    pub requires_replace: bool,
    /// Discriminator `(key, value)` added when this variant is chosen.
    pub tag: Option<(&'static str, &'static str)>,
    pub json: Json,
}

const fn attr(name: &'static str, ty: Ty) -> Attr {
    Attr {
        name,
        ty,
        mode: Mode::Optional,
        sensitive: false,
        default: None,
        one_of: &[],
        requires_replace: false,
        tag: None,
        json: Json::Plain,
    }
}

pub(crate) const fn s(name: &'static str) -> Attr {
    attr(name, Ty::String)
}
pub(crate) const fn n(name: &'static str) -> Attr {
    attr(name, Ty::Number)
}
pub(crate) const fn b(name: &'static str) -> Attr {
    attr(name, Ty::Bool)
}
pub(crate) const fn sl(name: &'static str) -> Attr {
    attr(name, Ty::StringList)
}
pub(crate) const fn obj(name: &'static str, attrs: &'static [Attr]) -> Attr {
    attr(name, Ty::Object(attrs))
}
/// A variant of a one-of object: an object sent with discriminator `key = value`.
pub(crate) const fn variant(
    name: &'static str,
    key: &'static str,
    value: &'static str,
    attrs: &'static [Attr],
) -> Attr {
    Attr {
        tag: Some((key, value)),
        ..attr(name, Ty::Object(attrs))
    }
}

impl Attr {
    pub(crate) const fn req(self) -> Self {
        Attr {
            mode: Mode::Required,
            ..self
        }
    }
    pub(crate) const fn computed(self) -> Self {
        Attr {
            mode: Mode::Computed,
            ..self
        }
    }
    pub(crate) const fn opt_computed(self) -> Self {
        Attr {
            mode: Mode::OptionalComputed,
            ..self
        }
    }
    pub(crate) const fn sens(self) -> Self {
        Attr {
            sensitive: true,
            ..self
        }
    }
    pub(crate) const fn def_s(self, v: &'static str) -> Self {
        Attr {
            default: Some(Default::Str(v)),
            mode: Mode::OptionalComputed,
            ..self
        }
    }
    pub(crate) const fn def_n(self, v: i64) -> Self {
        Attr {
            default: Some(Default::Int(v)),
            mode: Mode::OptionalComputed,
            ..self
        }
    }
    pub(crate) const fn def_b(self, v: bool) -> Self {
        Attr {
            default: Some(Default::Bool(v)),
            mode: Mode::OptionalComputed,
            ..self
        }
    }
    pub(crate) const fn one_of(self, values: &'static [&'static str]) -> Self {
        Attr {
            one_of: values,
            ..self
        }
    }
    pub(crate) const fn replace(self) -> Self {
        Attr {
            requires_replace: true,
            ..self
        }
    }
    pub(crate) const fn union(self) -> Self {
        Attr {
            json: Json::OneOf,
            ..self
        }
    }
    pub(crate) const fn merge_parsed(self) -> Self {
        Attr {
            json: Json::MergeParsed,
            ..self
        }
    }
    pub(crate) const fn parsed(self) -> Self {
        Attr {
            json: Json::Parsed,
            ..self
        }
    }
    pub(crate) const fn ty(self, ty: Ty) -> Self {
        Attr { ty, ..self }
    }

    pub fn settable(&self) -> bool {
        self.mode != Mode::Computed
    }

    pub fn computed_ish(&self) -> bool {
        matches!(self.mode, Mode::Computed | Mode::OptionalComputed)
    }
}

/// What a resource is on the Airbyte API side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A source; `Some(sourceType)` is added to the configuration JSON.
    Source(Option<&'static str>),
    Destination(&'static str),
    Connection,
}

/// Whether the local environment can run this resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    Full,
    /// Accepted by the schema; validate/plan/apply stop with this message.
    Rejected(&'static str, &'static str),
}

#[derive(Debug, Clone, Copy)]
pub struct ResourceSchema {
    pub type_name: &'static str,
    pub kind: Kind,
    pub attrs: &'static [Attr],
    pub support: Support,
}

impl ResourceSchema {
    pub fn attr(&self, name: &str) -> Option<&'static Attr> {
        self.attrs.iter().find(|a| a.name == name)
    }

    /// The computed id attribute (`source_id`, `destination_id`, `connection_id`).
    pub fn id_attr(&self) -> &'static str {
        match self.kind {
            Kind::Source(_) => "source_id",
            Kind::Destination(_) => "destination_id",
            Kind::Connection => "connection_id",
        }
    }

    /// The API collection path (`/sources`, `/destinations`, `/connections`).
    pub fn collection(&self) -> &'static str {
        match self.kind {
            Kind::Source(_) => "/sources",
            Kind::Destination(_) => "/destinations",
            Kind::Connection => "/connections",
        }
    }
}

/// Every resource type this emulation of provider 0.6.5 knows.
pub const RESOURCES: &[&ResourceSchema] = &[
    &sources::POSTGRES,
    &sources::MONGODB_V2,
    &sources::S3,
    &sources::FILE,
    &sources::CUSTOM,
    &destinations::DUCKDB,
    &destinations::SNOWFLAKE,
    &connection::CONNECTION,
];

pub fn resource(type_name: &str) -> Option<&'static ResourceSchema> {
    RESOURCES.iter().copied().find(|r| r.type_name == type_name)
}

/// The provider block's arguments.
pub const PROVIDER: &[Attr] = &[
    s("bearer_auth").sens(),
    s("client_id").sens(),
    s("client_secret").sens(),
    s("password").sens(),
    s("server_url"),
    s("username").sens(),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_resource_has_its_id_attribute_computed() {
        for r in RESOURCES {
            let id = r
                .attr(r.id_attr())
                .unwrap_or_else(|| panic!("{} lacks {}", r.type_name, r.id_attr()));
            assert_eq!(id.mode, Mode::Computed, "{}", r.type_name);
        }
    }

    #[test]
    fn attributes_are_sorted_like_the_provider_docs() {
        for r in RESOURCES {
            let names: Vec<_> = r.attrs.iter().map(|a| a.name).collect();
            let mut sorted = names.clone();
            sorted.sort();
            assert_eq!(names, sorted, "{}", r.type_name);
        }
    }
}
