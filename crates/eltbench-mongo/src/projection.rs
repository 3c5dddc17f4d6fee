//! Projections (`find`'s `projection`, `$project`): inclusion (`{a: 1}`, `_id` kept unless
//! `_id: 0`), exclusion (`{a: 0}`), and in inclusion mode computed fields
//! (`{total: "$amount"}`, literals). Mixing inclusion and exclusion is rejected with
//! MongoDB's error codes, never resolved by guessing. Top-level field names only.

use std::collections::BTreeSet;

use bson::{Bson, Document};

use crate::error::CommandError;
use crate::expr::Expr;
use crate::filter::truthy;

/// A parsed projection.
#[derive(Debug, Clone, Default)]
pub enum Projection {
    /// No projection: documents pass unchanged.
    #[default]
    All,
    Include {
        fields: BTreeSet<String>,
        computed: Vec<(String, Expr)>,
        keep_id: bool,
    },
    Exclude(BTreeSet<String>),
}

impl Projection {
    /// Parses a projection document (empty: no projection).
    pub fn parse(spec: &Document) -> Result<Self, CommandError> {
        let mut fields = BTreeSet::new();
        let mut computed = Vec::new();
        let mut excluded = BTreeSet::new();
        let mut keep_id = true;
        for (name, value) in spec {
            match value {
                Bson::Boolean(_) | Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) => {
                    if name == "_id" {
                        keep_id = truthy(value);
                    } else if truthy(value) {
                        fields.insert(name.clone());
                    } else {
                        excluded.insert(name.clone());
                    }
                }
                other => computed.push((name.clone(), Expr::parse(other)?)),
            }
        }
        Self::build(fields, computed, excluded, keep_id)
    }

    fn build(
        fields: BTreeSet<String>,
        computed: Vec<(String, Expr)>,
        mut excluded: BTreeSet<String>,
        keep_id: bool,
    ) -> Result<Self, CommandError> {
        let including = !fields.is_empty() || !computed.is_empty();
        if including {
            if let Some(name) = excluded.first() {
                return Err(CommandError::new(
                    31254,
                    "Location31254",
                    format!("Cannot do exclusion on field {name} in inclusion projection"),
                ));
            }
            return Ok(Self::Include {
                fields,
                computed,
                keep_id,
            });
        }
        if !keep_id {
            excluded.insert("_id".to_owned());
        }
        Ok(if excluded.is_empty() {
            Self::All
        } else {
            Self::Exclude(excluded)
        })
    }

    /// Applies the projection to one document.
    pub fn apply(&self, doc: Document) -> Document {
        match self {
            Self::All => doc,
            Self::Exclude(names) => doc
                .into_iter()
                .filter(|(k, _)| !names.contains(k))
                .collect(),
            Self::Include {
                fields,
                computed,
                keep_id,
            } => {
                let mut out: Document = doc
                    .iter()
                    .filter(|(k, _)| fields.contains(*k) || (*keep_id && *k == "_id"))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                for (name, expr) in computed {
                    if let Some(v) = expr.eval(&doc) {
                        out.insert(name.clone(), v);
                    }
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn project(spec: Document, d: Document) -> Document {
        Projection::parse(&spec).unwrap().apply(d)
    }

    #[test]
    fn inclusion_keeps_id_unless_excluded() {
        let d = doc! {"_id": 1, "a": 1, "b": 2, "c": 3};
        assert_eq!(
            project(doc! {"a": 1, "c": true}, d.clone()),
            doc! {"_id": 1, "a": 1, "c": 3}
        );
        assert_eq!(project(doc! {"a": 1, "_id": 0}, d), doc! {"a": 1});
    }

    #[test]
    fn exclusion_and_computed_fields() {
        let d = doc! {"_id": 1, "a": 1, "b": {"x": 7}};
        assert_eq!(
            project(doc! {"a": 0}, d.clone()),
            doc! {"_id": 1, "b": {"x": 7}}
        );
        assert_eq!(
            project(doc! {"_id": 0}, d.clone()),
            doc! {"a": 1, "b": {"x": 7}}
        );
        assert_eq!(project(doc! {"x": "$b.x", "_id": 0}, d), doc! {"x": 7});
    }

    #[test]
    fn mixing_is_rejected() {
        let err = Projection::parse(&doc! {"a": 1, "b": 0}).unwrap_err();
        assert_eq!(err.code, 31254);
    }
}
