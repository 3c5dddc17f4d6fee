//! The `$group` stage: documents grouped by an `_id` expression (numbers of different
//! types group together, as in MongoDB), with the accumulators `$sum`, `$count`, `$avg`,
//! `$min`, `$max`, `$first`, `$last` and `$push`. Groups come out in first-seen order.
//! Unknown accumulators are rejected, never skipped.

use std::collections::HashMap;

use bson::{Bson, Document};

use crate::compare::{as_f64, compare};
use crate::error::CommandError;
use crate::expr::Expr;

/// A parsed `$group` specification.
#[derive(Debug, Clone)]
pub struct Group {
    key: Expr,
    fields: Vec<(String, AccKind, Expr)>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum AccKind {
    Sum,
    Avg,
    Min,
    Max,
    First,
    Last,
    Push,
}

/// Running state of one accumulator in one group.
#[derive(Debug, Clone)]
enum Acc {
    Sum {
        ints: i64,
        float: f64,
        widest: u8,
        overflow: bool,
    },
    Avg {
        total: f64,
        n: u64,
    },
    Extreme {
        best: Option<Bson>,
        max: bool,
    },
    First(Option<Option<Bson>>),
    Last(Option<Bson>),
    Push(Vec<Bson>),
}

impl Group {
    /// Parses `{_id: <expr>, <name>: {<accumulator>: <expr>}, ...}`.
    pub fn parse(spec: &Document) -> Result<Self, CommandError> {
        let key = spec.get("_id").ok_or_else(|| {
            CommandError::new(
                15955,
                "Location15955",
                "a group specification must include an _id",
            )
        })?;
        let key = Expr::parse(key)?;
        let fields = spec
            .iter()
            .filter(|(name, _)| *name != "_id")
            .map(|(name, acc)| parse_field(name, acc))
            .collect::<Result<_, _>>()?;
        Ok(Self { key, fields })
    }

    /// Groups `docs`, one output document per distinct key.
    pub fn run(&self, docs: Vec<Document>) -> Vec<Document> {
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut groups: Vec<(Bson, Vec<Acc>)> = Vec::new();
        for doc in docs {
            let key = self.key.eval(&doc).unwrap_or(Bson::Null);
            let slot = *index.entry(group_key(&key)).or_insert_with(|| {
                groups.push((
                    key,
                    self.fields.iter().map(|(_, k, _)| Acc::new(*k)).collect(),
                ));
                groups.len() - 1
            });
            for ((_, _, expr), acc) in self.fields.iter().zip(&mut groups[slot].1) {
                acc.add(expr.eval(&doc));
            }
        }
        groups
            .into_iter()
            .map(|(key, accs)| self.output(key, accs))
            .collect()
    }

    fn output(&self, key: Bson, accs: Vec<Acc>) -> Document {
        let mut out = Document::new();
        out.insert("_id", key);
        for ((name, _, _), acc) in self.fields.iter().zip(accs) {
            out.insert(name.clone(), acc.finish());
        }
        out
    }
}

fn parse_field(name: &str, acc: &Bson) -> Result<(String, AccKind, Expr), CommandError> {
    let bad = || {
        CommandError::new(
            40234,
            "Location40234",
            format!("The field '{name}' must be an accumulator object"),
        )
    };
    let Bson::Document(d) = acc else {
        return Err(bad());
    };
    let (op, arg) = d.iter().next().filter(|_| d.len() == 1).ok_or_else(bad)?;
    let (kind, expr) = match op.as_str() {
        "$count" => (AccKind::Sum, Expr::Literal(Bson::Int32(1))),
        "$sum" => (AccKind::Sum, Expr::parse(arg)?),
        "$avg" => (AccKind::Avg, Expr::parse(arg)?),
        "$min" => (AccKind::Min, Expr::parse(arg)?),
        "$max" => (AccKind::Max, Expr::parse(arg)?),
        "$first" => (AccKind::First, Expr::parse(arg)?),
        "$last" => (AccKind::Last, Expr::parse(arg)?),
        "$push" => (AccKind::Push, Expr::parse(arg)?),
        other => {
            return Err(CommandError::new(
                15952,
                "Location15952",
                format!("unknown group operator '{other}'"),
            ));
        }
    };
    Ok((name.to_owned(), kind, expr))
}

/// A hashable key under which MongoDB-equal values coincide (numbers as doubles).
fn group_key(value: &Bson) -> Vec<u8> {
    fn canonical(v: &Bson) -> Bson {
        match v {
            Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_) => Bson::Double(as_f64(v) + 0.0),
            Bson::Undefined => Bson::Null,
            Bson::Array(items) => Bson::Array(items.iter().map(canonical).collect()),
            Bson::Document(d) => {
                Bson::Document(d.iter().map(|(k, v)| (k.clone(), canonical(v))).collect())
            }
            other => other.clone(),
        }
    }
    let mut wrapper = Document::new();
    wrapper.insert("k", canonical(value));
    bson::to_vec(&wrapper).unwrap_or_default()
}

impl Acc {
    fn new(kind: AccKind) -> Self {
        match kind {
            AccKind::Sum => Self::Sum {
                ints: 0,
                float: 0.0,
                widest: 0,
                overflow: false,
            },
            AccKind::Avg => Self::Avg { total: 0.0, n: 0 },
            AccKind::Min => Self::Extreme {
                best: None,
                max: false,
            },
            AccKind::Max => Self::Extreme {
                best: None,
                max: true,
            },
            AccKind::First => Self::First(None),
            AccKind::Last => Self::Last(None),
            AccKind::Push => Self::Push(Vec::new()),
        }
    }

    fn add(&mut self, value: Option<Bson>) {
        match self {
            Self::Sum {
                ints,
                float,
                widest,
                overflow,
            } => add_sum(value, ints, float, widest, overflow),
            Self::Avg { total, n } => {
                if let Some(v @ (Bson::Int32(_) | Bson::Int64(_) | Bson::Double(_))) = value {
                    *total += as_f64(&v);
                    *n += 1;
                }
            }
            Self::Extreme { best, max } => add_extreme(best, *max, value),
            Self::First(slot) => {
                if slot.is_none() {
                    *slot = Some(value);
                }
            }
            Self::Last(slot) => *slot = value,
            Self::Push(items) => items.extend(value),
        }
    }

    fn finish(self) -> Bson {
        match self {
            Self::Sum {
                ints,
                float,
                widest,
                overflow,
            } => finish_sum(ints, float, widest, overflow),
            Self::Avg { total, n } if n > 0 => Bson::Double(total / n as f64),
            Self::Avg { .. } => Bson::Null,
            Self::Extreme { best, .. } => best.unwrap_or(Bson::Null),
            Self::First(slot) => slot.flatten().unwrap_or(Bson::Null),
            Self::Last(slot) => slot.unwrap_or(Bson::Null),
            Self::Push(items) => Bson::Array(items),
        }
    }
}

/// Keeps the smallest (or largest) non-null value in MongoDB's order.
fn add_extreme(best: &mut Option<Bson>, want_max: bool, value: Option<Bson>) {
    let Some(v) = value.filter(|v| !matches!(v, Bson::Null | Bson::Undefined)) else {
        return;
    };
    let better = best.as_ref().is_none_or(|b| {
        let order = compare(&v, b);
        if want_max {
            order.is_gt()
        } else {
            order.is_lt()
        }
    });
    if better {
        *best = Some(v);
    }
}

/// `widest`: 0 int32, 1 int64, 2 double; non-numbers are ignored as in MongoDB.
fn add_sum(
    value: Option<Bson>,
    ints: &mut i64,
    float: &mut f64,
    widest: &mut u8,
    overflow: &mut bool,
) {
    let (as_int, rank) = match value {
        Some(Bson::Int32(v)) => (Some(i64::from(v)), 0),
        Some(Bson::Int64(v)) => (Some(v), 1),
        Some(Bson::Double(v)) => {
            *float += v;
            *widest = 2;
            return;
        }
        _ => return,
    };
    *widest = (*widest).max(rank);
    if let Some(v) = as_int {
        match ints.checked_add(v) {
            Some(sum) => *ints = sum,
            None => {
                *overflow = true;
                *float += v as f64;
            }
        }
    }
}

fn finish_sum(ints: i64, float: f64, widest: u8, overflow: bool) -> Bson {
    if widest == 2 || overflow {
        return Bson::Double(float + ints as f64);
    }
    match i32::try_from(ints) {
        Ok(small) if widest == 0 => Bson::Int32(small),
        _ => Bson::Int64(ints),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn group(spec: Document, docs: Vec<Document>) -> Vec<Document> {
        Group::parse(&spec).unwrap().run(docs)
    }

    #[test]
    fn groups_with_every_accumulator() {
        let docs = vec![
            doc! {"city": "a", "n": 1, "x": 2.0},
            doc! {"city": "b", "n": 5},
            doc! {"city": "a", "n": 3_i64, "x": null},
        ];
        let spec = doc! {
            "_id": "$city", "total": {"$sum": "$n"}, "c": {"$count": {}}, "avg": {"$avg": "$n"},
            "lo": {"$min": "$x"}, "hi": {"$max": "$n"}, "f": {"$first": "$n"}, "l": {"$last": "$n"},
            "all": {"$push": "$n"},
        };
        let out = group(spec, docs);
        assert_eq!(
            out[0],
            doc! {
                "_id": "a", "total": 4_i64, "c": 2, "avg": 2.0, "lo": 2.0, "hi": 3_i64, "f": 1,
                "l": 3_i64, "all": [1, 3_i64],
            }
        );
        assert_eq!(out[1].get("total"), Some(&Bson::Int32(5)));
        assert_eq!(out[1].get("lo"), Some(&Bson::Null));
    }

    #[test]
    fn numbers_of_different_types_share_a_group() {
        let docs = vec![doc! {"k": 1}, doc! {"k": 1.0}, doc! {"k": 1_i64}, doc! {}];
        let out = group(doc! {"_id": "$k", "n": {"$sum": 1}}, docs);
        assert_eq!(
            out,
            vec![doc! {"_id": 1, "n": 3}, doc! {"_id": null, "n": 1}]
        );
    }

    #[test]
    fn compound_keys_and_errors() {
        let docs = vec![doc! {"a": 1, "b": 2}, doc! {"a": 1, "b": 2}];
        let out = group(doc! {"_id": {"a": "$a", "b": "$b"}, "n": {"$sum": 1}}, docs);
        assert_eq!(out, vec![doc! {"_id": {"a": 1, "b": 2}, "n": 2}]);
        assert_eq!(
            Group::parse(&doc! {"n": {"$sum": 1}}).unwrap_err().code,
            15955
        );
        assert_eq!(
            Group::parse(&doc! {"_id": null, "n": {"$median": 1}})
                .unwrap_err()
                .code,
            15952
        );
    }
}
