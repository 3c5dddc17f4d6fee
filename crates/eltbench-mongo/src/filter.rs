//! Query filters (`find`'s `filter`, `$match`, `count`'s `query`, `delete`'s `q`):
//! parsed once into a [`Filter`], then matched against many documents. Supports field
//! equality (also against array elements, and `null` matching a missing field),
//! `$eq $ne $gt $gte $lt $lte $in $nin $exists $not` and top-level `$and $or $nor`, over
//! dotted paths. Unknown operators are rejected with MongoDB's `BadValue`, never ignored.

use std::cmp::Ordering;

use bson::{Bson, Document};

use crate::compare::{compare, equal, type_rank};
use crate::error::CommandError;
use crate::expr::lookup;

/// A parsed filter: every clause must match.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    clauses: Vec<Clause>,
}

#[derive(Debug, Clone)]
enum Clause {
    Field { path: String, preds: Vec<Pred> },
    And(Vec<Filter>),
    Or(Vec<Filter>),
    Nor(Vec<Filter>),
}

#[derive(Debug, Clone)]
enum Pred {
    Eq(Bson),
    Ne(Bson),
    Cmp(Ordering, bool, Bson),
    In(Vec<Bson>),
    Nin(Vec<Bson>),
    Exists(bool),
    Not(Vec<Pred>),
}

impl Filter {
    /// Parses a filter document.
    pub fn parse(spec: &Document) -> Result<Self, CommandError> {
        let clauses = spec
            .iter()
            .map(|(key, value)| parse_clause(key, value))
            .collect::<Result<_, _>>()?;
        Ok(Self { clauses })
    }

    /// Parses an optional filter field of a command (missing or null: match everything).
    pub fn from_field(body: &Document, field: &str) -> Result<Self, CommandError> {
        match body.get(field) {
            None | Some(Bson::Null) => Ok(Self::default()),
            Some(Bson::Document(d)) => Self::parse(d),
            Some(other) => Err(CommandError::type_mismatch(format!(
                "BSON field '{field}' is the wrong type '{}', expected type 'object'",
                type_name(other)
            ))),
        }
    }

    /// True when `doc` satisfies every clause.
    pub fn matches(&self, doc: &Document) -> bool {
        self.clauses.iter().all(|c| c.matches(doc))
    }
}

fn parse_clause(key: &str, value: &Bson) -> Result<Clause, CommandError> {
    match key {
        "$and" => Ok(Clause::And(parse_list(key, value)?)),
        "$or" => Ok(Clause::Or(parse_list(key, value)?)),
        "$nor" => Ok(Clause::Nor(parse_list(key, value)?)),
        k if k.starts_with('$') => Err(CommandError::bad_value(format!(
            "unknown top level operator: {k}"
        ))),
        path => Ok(Clause::Field {
            path: path.to_owned(),
            preds: parse_condition(value)?,
        }),
    }
}

fn parse_list(op: &str, value: &Bson) -> Result<Vec<Filter>, CommandError> {
    let Bson::Array(items) = value else {
        return Err(CommandError::bad_value(format!("{op} must be an array")));
    };
    if items.is_empty() {
        return Err(CommandError::bad_value(format!(
            "{op}/$or/$nor must be a nonempty array"
        )));
    }
    items
        .iter()
        .map(|item| match item {
            Bson::Document(d) => Filter::parse(d),
            _ => Err(CommandError::bad_value(format!(
                "{op}/$or/$nor entries need to be full objects"
            ))),
        })
        .collect()
}

/// A field's condition: an operator document, or a value to compare for equality.
fn parse_condition(value: &Bson) -> Result<Vec<Pred>, CommandError> {
    match value {
        Bson::Document(d) if d.keys().next().is_some_and(|k| k.starts_with('$')) => {
            d.iter().map(|(op, arg)| parse_operator(op, arg)).collect()
        }
        other => Ok(vec![Pred::Eq(other.clone())]),
    }
}

fn parse_operator(op: &str, arg: &Bson) -> Result<Pred, CommandError> {
    Ok(match op {
        "$eq" => Pred::Eq(arg.clone()),
        "$ne" => Pred::Ne(arg.clone()),
        "$gt" => Pred::Cmp(Ordering::Greater, false, arg.clone()),
        "$gte" => Pred::Cmp(Ordering::Greater, true, arg.clone()),
        "$lt" => Pred::Cmp(Ordering::Less, false, arg.clone()),
        "$lte" => Pred::Cmp(Ordering::Less, true, arg.clone()),
        "$in" => Pred::In(array_arg(op, arg)?),
        "$nin" => Pred::Nin(array_arg(op, arg)?),
        "$exists" => Pred::Exists(truthy(arg)),
        "$not" => match arg {
            Bson::Document(d) => Pred::Not(parse_condition(&Bson::Document(d.clone()))?),
            _ => return Err(CommandError::bad_value("$not needs a regex or a document")),
        },
        other => {
            return Err(CommandError::bad_value(format!(
                "unknown operator: {other}"
            )));
        }
    })
}

fn array_arg(op: &str, arg: &Bson) -> Result<Vec<Bson>, CommandError> {
    match arg {
        Bson::Array(items) => Ok(items.clone()),
        _ => Err(CommandError::bad_value(format!("{op} needs an array"))),
    }
}

/// MongoDB's truthiness for flags such as `$exists` and projection values.
pub fn truthy(value: &Bson) -> bool {
    match value {
        Bson::Boolean(b) => *b,
        Bson::Int32(v) => *v != 0,
        Bson::Int64(v) => *v != 0,
        Bson::Double(v) => *v != 0.0,
        Bson::Null | Bson::Undefined => false,
        _ => true,
    }
}

/// The name MongoDB uses for a value's type in error messages.
pub fn type_name(value: &Bson) -> &'static str {
    match value {
        Bson::Double(_) => "double",
        Bson::String(_) => "string",
        Bson::Document(_) => "object",
        Bson::Array(_) => "array",
        Bson::Binary(_) => "binData",
        Bson::ObjectId(_) => "objectId",
        Bson::Boolean(_) => "bool",
        Bson::DateTime(_) => "date",
        Bson::Null => "null",
        Bson::Int32(_) => "int",
        Bson::Int64(_) => "long",
        Bson::Timestamp(_) => "timestamp",
        Bson::Decimal128(_) => "decimal",
        _ => "other",
    }
}

impl Clause {
    fn matches(&self, doc: &Document) -> bool {
        match self {
            Self::Field { path, preds } => {
                let value = lookup(doc, path);
                preds.iter().all(|p| p.matches(value))
            }
            Self::And(filters) => filters.iter().all(|f| f.matches(doc)),
            Self::Or(filters) => filters.iter().any(|f| f.matches(doc)),
            Self::Nor(filters) => !filters.iter().any(|f| f.matches(doc)),
        }
    }
}

impl Pred {
    fn matches(&self, value: Option<&Bson>) -> bool {
        match self {
            Self::Eq(target) => eq_matches(value, target),
            Self::Ne(target) => !eq_matches(value, target),
            Self::Cmp(want, or_equal, target) => cmp_matches(value, *want, *or_equal, target),
            Self::In(targets) => targets.iter().any(|t| eq_matches(value, t)),
            Self::Nin(targets) => !targets.iter().any(|t| eq_matches(value, t)),
            Self::Exists(wanted) => value.is_some() == *wanted,
            Self::Not(preds) => !preds.iter().all(|p| p.matches(value)),
        }
    }
}

/// Equality as MongoDB matches it: `null` also matches a missing field, and an array
/// field matches when it equals the target or one of its elements does.
fn eq_matches(value: Option<&Bson>, target: &Bson) -> bool {
    let is_null = |v: &Bson| matches!(v, Bson::Null | Bson::Undefined);
    match value {
        None => is_null(target),
        Some(Bson::Array(items)) => {
            let whole = matches!(target, Bson::Array(t)
                if t.len() == items.len() && items.iter().zip(t).all(|(a, b)| equal(a, b)));
            whole || items.iter().any(|i| equal(i, target))
        }
        Some(v) => equal(v, target),
    }
}

/// Range comparison: only values in the target's type bracket can match.
fn cmp_matches(value: Option<&Bson>, want: Ordering, or_equal: bool, target: &Bson) -> bool {
    let one = |v: &Bson| {
        type_rank(v) == type_rank(target) && {
            let order = compare(v, target);
            order == want || (or_equal && order == Ordering::Equal)
        }
    };
    match value {
        None => or_equal && matches!(target, Bson::Null),
        Some(Bson::Array(items)) => items.iter().any(one),
        Some(v) => one(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn check(filter: Document, doc: Document) -> bool {
        Filter::parse(&filter).unwrap().matches(&doc)
    }

    #[test]
    fn equality_and_comparison_operators() {
        let d = doc! {"n": 5, "s": "b", "f": 2.5, "tags": ["x", "y"], "nested": {"k": 1}};
        assert!(check(doc! {"n": 5.0}, d.clone()));
        assert!(check(doc! {"n": {"$gt": 4, "$lte": 5}}, d.clone()));
        assert!(!check(doc! {"n": {"$lt": 5}}, d.clone()));
        assert!(check(doc! {"s": {"$gte": "a"}}, d.clone()));
        assert!(
            !check(doc! {"s": {"$gt": 1}}, d.clone()),
            "no cross-type range matches"
        );
        assert!(check(doc! {"tags": "y"}, d.clone()));
        assert!(check(doc! {"nested.k": 1}, d.clone()));
        assert!(check(doc! {"f": {"$ne": 3}}, d.clone()));
        assert!(!check(doc! {"f": {"$eq": 3}}, d));
    }

    #[test]
    fn membership_existence_and_null() {
        let d = doc! {"n": 5, "z": null};
        assert!(check(doc! {"n": {"$in": [1, 5]}}, d.clone()));
        assert!(check(doc! {"n": {"$nin": [1, 2]}}, d.clone()));
        assert!(check(doc! {"missing": null}, d.clone()));
        assert!(check(doc! {"z": {"$exists": true}}, d.clone()));
        assert!(check(doc! {"missing": {"$exists": false}}, d.clone()));
        assert!(!check(doc! {"missing": {"$exists": 1}}, d.clone()));
        assert!(check(doc! {"n": {"$not": {"$gt": 9}}}, d));
    }

    #[test]
    fn logical_operators() {
        let d = doc! {"a": 1, "b": 2};
        assert!(check(doc! {"$or": [{"a": 9}, {"b": 2}]}, d.clone()));
        assert!(!check(doc! {"$and": [{"a": 1}, {"b": 3}]}, d.clone()));
        assert!(check(doc! {"$nor": [{"a": 9}]}, d));
    }

    #[test]
    fn unknown_operators_are_bad_values() {
        let err = Filter::parse(&doc! {"a": {"$regexx": 1}}).unwrap_err();
        assert_eq!(
            (err.code, err.errmsg.as_str()),
            (2, "unknown operator: $regexx")
        );
        let err = Filter::parse(&doc! {"$where": "1"}).unwrap_err();
        assert_eq!(err.errmsg, "unknown top level operator: $where");
    }
}
