//! Field paths and the small expression language of the aggregate subset: `"$a.b"` field
//! references, literals, `{$literal: v}`, and documents of expressions (for compound
//! `$group` keys and `$project` fields). Anything else is rejected with MongoDB's
//! `InvalidPipelineOperator` error, never evaluated partially.

use bson::{Bson, Document};

use crate::error::CommandError;

/// The value at a dotted path (`"a.b"` walks into embedded documents), if present.
pub fn lookup<'a>(doc: &'a Document, path: &str) -> Option<&'a Bson> {
    let mut parts = path.split('.');
    let mut current = doc.get(parts.next()?)?;
    for part in parts {
        current = match current {
            Bson::Document(inner) => inner.get(part)?,
            _ => return None,
        };
    }
    Some(current)
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Field(String),
    Literal(Bson),
    Object(Vec<(String, Expr)>),
}

impl Expr {
    /// Parses an aggregate expression.
    pub fn parse(value: &Bson) -> Result<Self, CommandError> {
        match value {
            Bson::String(s) if s.starts_with("$$") => Err(CommandError::new(
                17276,
                "Location17276",
                format!("Use of undefined variable: {}", &s[2..]),
            )),
            Bson::String(s) if s.len() > 1 && s.starts_with('$') => {
                Ok(Self::Field(s[1..].to_owned()))
            }
            Bson::Document(d) => Self::parse_document(d),
            other => Ok(Self::Literal(other.clone())),
        }
    }

    fn parse_document(d: &Document) -> Result<Self, CommandError> {
        if let Some((key, value)) = d.iter().next()
            && key.starts_with('$')
        {
            return match key.as_str() {
                "$literal" if d.len() == 1 => Ok(Self::Literal(value.clone())),
                _ => Err(CommandError::new(
                    168,
                    "InvalidPipelineOperator",
                    format!("Unrecognized expression '{key}'"),
                )),
            };
        }
        let fields = d
            .iter()
            .map(|(k, v)| Ok((k.clone(), Self::parse(v)?)))
            .collect::<Result<_, CommandError>>()?;
        Ok(Self::Object(fields))
    }

    /// Evaluates against one document; a missing field evaluates to `None`.
    pub fn eval(&self, doc: &Document) -> Option<Bson> {
        match self {
            Self::Field(path) => lookup(doc, path).cloned(),
            Self::Literal(v) => Some(v.clone()),
            Self::Object(fields) => {
                let mut out = Document::new();
                for (k, e) in fields {
                    if let Some(v) = e.eval(doc) {
                        out.insert(k.clone(), v);
                    }
                }
                Some(Bson::Document(out))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn lookup_walks_embedded_documents() {
        let d = doc! {"a": {"b": {"c": 5}}, "x": 1};
        assert_eq!(lookup(&d, "a.b.c"), Some(&Bson::Int32(5)));
        assert_eq!(lookup(&d, "x.y"), None);
        assert_eq!(lookup(&d, "missing"), None);
    }

    #[test]
    fn expressions_evaluate_fields_literals_and_objects() {
        let d = doc! {"city": "Oslo", "n": 3};
        let e = Expr::parse(&Bson::Document(
            doc! {"c": "$city", "k": {"$literal": "$x"}},
        ))
        .unwrap();
        assert_eq!(
            e.eval(&d),
            Some(Bson::Document(doc! {"c": "Oslo", "k": "$x"}))
        );
        assert_eq!(
            Expr::parse(&Bson::String("$nope".into())).unwrap().eval(&d),
            None
        );
    }

    #[test]
    fn operator_expressions_are_rejected() {
        let err = Expr::parse(&Bson::Document(doc! {"$add": [1, 2]})).unwrap_err();
        assert_eq!(err.code, 168);
    }
}
