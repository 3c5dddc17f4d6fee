//! Primary and foreign keys of a task's tables: which columns are keys and
//! where each key column's values come from, so that primary keys are
//! unique and joins on inferred foreign keys find rows.
//!
//! Rules (names compared lower-cased with every non-alphanumeric removed,
//! `customer_ID` ≈ `customerid`):
//! - own key of a table: the DDL's single-column primary key; else its first
//!   `SERIAL`/`UNIQUE` column; else a column named `id`, `<table>id` or
//!   `<singular table>id`;
//! - foreign key: a column named `<other table>id`/`<singular other>id`
//!   (rule a), or named as another table's own key when that is not plain
//!   `id` (rule b, never for the table's own key), whose kind can hold the
//!   other table's keys; the first table in `config.yaml` order wins;
//! - a table with no own key and no DDL key takes its first `*_id` column
//!   that is not a foreign key;
//! - a composite key is a mixed-radix counter over its parts: foreign-key
//!   parts cycle through the referenced keys, the last other part counts
//!   up; a foreign key that cannot stay unique that way is dropped.
//!
//! Key values are numbered: the n-th key of a table is a pure function of n
//! (see [`crate::values::key_value`]), so nothing here reads data.

use crate::plan::{Reference, Source};
use crate::rules;
use crate::types::{ColumnType, Kind};

/// A table before its keys are known.
#[derive(Debug, Clone)]
pub struct Draft {
    pub table: String,
    pub rows: u64,
    pub columns: Vec<DraftColumn>,
    /// The DDL primary key (may name columns the schema lacks).
    pub declared_key: Vec<String>,
}

/// A column before its keys are known.
#[derive(Debug, Clone)]
pub struct DraftColumn {
    pub name: String,
    pub ty: ColumnType,
    pub not_null: bool,
    pub unique: bool,
}

/// The keys of one table: a source per column and the primary key.
#[derive(Debug, Clone)]
pub struct TableKeys {
    pub sources: Vec<Source>,
    pub primary_key: Vec<String>,
}

/// Inference state over all tables of a task.
struct Graph<'a> {
    drafts: &'a [Draft],
    /// Own key column of each table.
    own: Vec<Option<usize>>,
    /// Referenced table of each column.
    refs: Vec<Vec<Option<usize>>>,
}

/// The keys of every table of a task, in the order of `drafts`.
pub fn resolve(drafts: &[Draft]) -> Vec<TableKeys> {
    let own = drafts.iter().map(own_key).collect();
    let mut graph = Graph {
        drafts,
        own,
        refs: Vec::new(),
    };
    graph.refs = (0..drafts.len()).map(|t| graph.table_refs(t)).collect();
    for (t, draft) in drafts.iter().enumerate() {
        if graph.own[t].is_none() && draft.declared_key.is_empty() {
            graph.own[t] = fallback_key(draft, &graph.refs[t]);
        }
    }
    (0..drafts.len()).map(|t| graph.table_keys(t)).collect()
}

/// Lower-case, alphanumeric only.
pub fn norm(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for suffix in ["sses", "xes", "ches", "shes"] {
        if word.ends_with(suffix) {
            return word[..word.len() - 2].to_owned();
        }
    }
    match word.strip_suffix('s') {
        Some(stem) if !stem.ends_with('s') => stem.to_owned(),
        _ => word.to_owned(),
    }
}

fn column_index(draft: &Draft, name: &str) -> Option<usize> {
    draft
        .columns
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(name))
}

fn own_key(draft: &Draft) -> Option<usize> {
    if let [only] = draft.declared_key.as_slice() {
        return column_index(draft, only);
    }
    if !draft.declared_key.is_empty() {
        return None;
    }
    if let Some(unique) = draft.columns.iter().position(|c| c.unique) {
        return Some(unique);
    }
    let table = norm(&draft.table);
    let names = [
        "id".to_owned(),
        format!("{table}id"),
        format!("{}id", singular(&table)),
    ];
    draft
        .columns
        .iter()
        .position(|c| names.contains(&norm(&c.name)))
}

fn fallback_key(draft: &Draft, refs: &[Option<usize>]) -> Option<usize> {
    draft
        .columns
        .iter()
        .zip(refs)
        .position(|(c, r)| r.is_none() && rules::tokens(&c.name).last().is_some_and(|t| t == "id"))
}

impl Graph<'_> {
    fn table_refs(&self, t: usize) -> Vec<Option<usize>> {
        (0..self.drafts[t].columns.len())
            .map(|c| self.column_ref(t, c))
            .collect()
    }

    /// The table column `c` of table `t` references (rule a, then rule b).
    fn column_ref(&self, t: usize, c: usize) -> Option<usize> {
        let name = norm(&self.drafts[t].columns[c].name);
        let candidates = || {
            (0..self.drafts.len())
                .filter(move |&p| {
                    p != t && norm(&self.drafts[p].table) != norm(&self.drafts[t].table)
                })
                .filter(|&p| self.own[p].is_some())
        };
        let by_table = candidates().find(|&p| {
            let table = norm(&self.drafts[p].table);
            name == format!("{table}id") || name == format!("{}id", singular(&table))
        });
        let is_own = self.own[t] == Some(c);
        let by_key = || {
            candidates().find(|&p| {
                let key = self.key_name(p).map(norm);
                key.is_some_and(|k| k != "id" && k == name)
            })
        };
        let found = by_table.or_else(|| (!is_own).then(by_key).flatten())?;
        self.compatible(&self.drafts[t].columns[c].ty.kind, &self.root(found, 0)?)
            .then_some(found)
    }

    fn key_name(&self, t: usize) -> Option<&str> {
        self.own[t].map(|c| self.drafts[t].columns[c].name.as_str())
    }

    /// The type the keys of table `t` are written in: its own key's, or, for
    /// a key that is itself a foreign key, the referenced table's.
    fn root(&self, t: usize, depth: usize) -> Option<ColumnType> {
        let c = self.own[t]?;
        let own = self.drafts[t].columns[c].ty.clone();
        match self.key_parent(t, depth) {
            Some(parent) => self.root(parent, depth + 1).or(Some(own)),
            None => Some(own),
        }
    }

    /// The table whose keys table `t`'s own key takes (a key that is also a
    /// foreign key), when it has at least as many rows.
    fn key_parent(&self, t: usize, depth: usize) -> Option<usize> {
        if depth > self.drafts.len() {
            return None; // a cycle of keys referencing keys
        }
        let c = self.own[t]?;
        let parent = (*self.refs.get(t)?.get(c)?)?;
        (self.drafts[t].rows <= self.drafts[parent].rows).then_some(parent)
    }

    /// Whether a column of kind `child` can hold keys written as `parent`.
    fn compatible(&self, child: &Kind, parent: &ColumnType) -> bool {
        match (child, parent.kind) {
            (Kind::Text { max_len: None }, _) => true,
            (Kind::Text { max_len: Some(n) }, _) => *n >= 12,
            (Kind::Int, Kind::Int) => true,
            (
                Kind::Decimal { .. } | Kind::Float,
                Kind::Int | Kind::Decimal { .. } | Kind::Float,
            ) => true,
            (Kind::Date, Kind::Date) | (Kind::Timestamp, Kind::Timestamp) => true,
            _ => false,
        }
    }

    fn reference(&self, p: usize) -> Option<(ColumnType, Reference)> {
        let format = self.root(p, 0)?;
        let references = Reference {
            table: self.drafts[p].table.clone(),
            column: self.key_name(p)?.to_owned(),
            rows: self.drafts[p].rows,
        };
        (references.rows > 0).then_some((format, references))
    }

    fn table_keys(&self, t: usize) -> TableKeys {
        let draft = &self.drafts[t];
        let key = self.primary_key(t);
        let mut sources: Vec<Source> = (0..draft.columns.len())
            .map(|c| self.plain_source(t, c))
            .collect();
        for (c, source) in self.key_sources(t, &key) {
            sources[c] = source;
        }
        let primary_key = key.iter().map(|&c| draft.columns[c].name.clone()).collect();
        TableKeys {
            sources,
            primary_key,
        }
    }

    fn primary_key(&self, t: usize) -> Vec<usize> {
        let draft = &self.drafts[t];
        if draft.declared_key.len() > 1 {
            let parts: Vec<usize> = draft
                .declared_key
                .iter()
                .filter_map(|name| column_index(draft, name))
                .collect();
            if !parts.is_empty() {
                return parts;
            }
        }
        self.own[t].into_iter().collect()
    }

    /// The source of a column outside the primary key.
    fn plain_source(&self, t: usize, c: usize) -> Source {
        let column = &self.drafts[t].columns[c];
        if let Some((format, references)) = self.refs[t][c].and_then(|p| self.reference(p)) {
            return Source::Foreign { format, references };
        }
        if column.unique {
            return Source::Key {
                divisor: 1,
                modulus: None,
                format: column.ty.clone(),
                references: None,
            };
        }
        Source::Random
    }

    /// Sources of the primary-key columns: a mixed-radix counter with the
    /// foreign-key parts first and the last other part counting up.
    fn key_sources(&self, t: usize, key: &[usize]) -> Vec<(usize, Source)> {
        let draft = &self.drafts[t];
        let reference = |c: usize| {
            let parent = if key.len() == 1 {
                self.key_parent(t, 0)
            } else {
                self.refs[t][c]
            };
            parent.and_then(|p| self.reference(p))
        };
        let (mut foreign, plain): (Vec<_>, Vec<_>) = key
            .iter()
            .map(|&c| (c, reference(c)))
            .partition(|(_, r)| r.is_some());
        let mut out = Vec::new();
        let counter = match plain.split_last() {
            Some((last, others)) => {
                // The other plain parts are free values (never NULL).
                out.extend(others.iter().map(|(c, _)| (*c, Source::Random)));
                Some(last.0)
            }
            None => None,
        };
        let mut divisor = 1_u64;
        let last_foreign = foreign.len().saturating_sub(1);
        let counts_up = counter.is_none();
        let product: u64 = foreign
            .iter()
            .filter_map(|(_, r)| r.as_ref().map(|(_, r)| r.rows))
            .fold(1, u64::saturating_mul);
        for (i, (c, r)) in foreign.drain(..).enumerate() {
            let Some((format, references)) = r else {
                continue;
            };
            let is_counter = counts_up && i == last_foreign;
            if is_counter && draft.rows > product {
                // Cannot stay unique within the referenced keys: plain counter.
                out.push((c, counter_source(divisor, draft.columns[c].ty.clone())));
                continue;
            }
            let modulus = (!is_counter).then_some(references.rows);
            out.push((
                c,
                Source::Key {
                    divisor,
                    modulus,
                    format,
                    references: Some(references.clone()),
                },
            ));
            divisor = divisor.saturating_mul(references.rows);
        }
        if let Some(c) = counter {
            out.push((c, counter_source(divisor, draft.columns[c].ty.clone())));
        }
        out
    }
}

fn counter_source(divisor: u64, format: ColumnType) -> Source {
    Source::Key {
        divisor,
        modulus: None,
        format,
        references: None,
    }
}

#[cfg(test)]
mod tests;
