//! Sort specifications (`find`'s `sort`, `$sort`): `{field: 1 | -1, ...}` over dotted
//! paths, in MongoDB's value order, missing fields sorting as null. The sort is stable
//! so equal keys keep insertion order. `$meta` sorts are rejected, never ignored.

use std::cmp::Ordering;

use bson::{Bson, Document};

use crate::compare::{as_f64, compare};
use crate::error::CommandError;
use crate::expr::lookup;

/// A parsed sort: keys in priority order, `true` for ascending.
#[derive(Debug, Clone, Default)]
pub struct SortSpec {
    keys: Vec<(String, bool)>,
}

impl SortSpec {
    /// Parses a sort document.
    pub fn parse(spec: &Document) -> Result<Self, CommandError> {
        let keys = spec
            .iter()
            .map(|(field, dir)| Ok((field.clone(), direction(dir)?)))
            .collect::<Result<_, CommandError>>()?;
        Ok(Self { keys })
    }

    /// Sorts documents in place (no-op for an empty spec).
    pub fn sort(&self, docs: &mut [Document]) {
        self.sort_by(docs, |d| d);
    }

    /// Sorts anything that holds a document, by that document.
    pub fn sort_by<T>(&self, items: &mut [T], doc_of: impl Fn(&T) -> &Document) {
        if !self.keys.is_empty() {
            items.sort_by(|a, b| self.compare(doc_of(a), doc_of(b)));
        }
    }

    fn compare(&self, a: &Document, b: &Document) -> Ordering {
        const NULL: Bson = Bson::Null;
        for (path, ascending) in &self.keys {
            let va = lookup(a, path).unwrap_or(&NULL);
            let vb = lookup(b, path).unwrap_or(&NULL);
            let order = compare(va, vb);
            if order != Ordering::Equal {
                return if *ascending { order } else { order.reverse() };
            }
        }
        Ordering::Equal
    }
}

fn direction(value: &Bson) -> Result<bool, CommandError> {
    let n = as_f64(value);
    if n == 1.0 {
        Ok(true)
    } else if n == -1.0 {
        Ok(false)
    } else {
        Err(CommandError::new(
            15975,
            "Location15975",
            "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    #[test]
    fn sorts_by_several_keys_with_missing_as_null() {
        let mut docs = vec![
            doc! {"a": 2, "b": "x"},
            doc! {"a": 1, "b": "y"},
            doc! {"b": "z"},
            doc! {"a": 2, "b": "w"},
        ];
        SortSpec::parse(&doc! {"a": -1, "b": 1})
            .unwrap()
            .sort(&mut docs);
        let order: Vec<_> = docs.iter().map(|d| d.get_str("b").unwrap()).collect();
        assert_eq!(order, ["w", "x", "y", "z"]);
    }

    #[test]
    fn rejects_other_directions() {
        assert_eq!(SortSpec::parse(&doc! {"a": 2}).unwrap_err().code, 15975);
        assert!(SortSpec::parse(&doc! {"a": {"$meta": "textScore"}}).is_err());
    }
}
