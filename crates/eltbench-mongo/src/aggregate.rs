//! The aggregation pipeline subset: `$match`, `$group`, `$count`, `$limit`, `$skip`,
//! `$sort`, `$project` and `$unset`, parsed fully before any document is touched (so a
//! bad stage fails the command, not half of it). Unknown stages are rejected with
//! MongoDB's error, never skipped.

use bson::{Bson, Document};

use crate::error::CommandError;
use crate::filter::Filter;
use crate::group::Group;
use crate::projection::Projection;
use crate::sort::SortSpec;

/// One parsed stage.
#[derive(Debug, Clone)]
pub enum Stage {
    Match(Filter),
    Group(Group),
    Count(String),
    Limit(usize),
    Skip(usize),
    Sort(SortSpec),
    Project(Projection),
}

/// A parsed pipeline.
#[derive(Debug, Clone, Default)]
pub struct Pipeline {
    stages: Vec<Stage>,
}

impl Pipeline {
    /// Parses the `pipeline` array of an `aggregate` command.
    pub fn parse(stages: &[Bson]) -> Result<Self, CommandError> {
        let stages = stages.iter().map(parse_stage).collect::<Result<_, _>>()?;
        Ok(Self { stages })
    }

    /// Removes and returns a leading `$match`, so the caller can filter while scanning.
    pub fn take_leading_match(&mut self) -> Filter {
        match self.stages.first() {
            Some(Stage::Match(_)) => match self.stages.remove(0) {
                Stage::Match(f) => f,
                _ => Filter::default(),
            },
            _ => Filter::default(),
        }
    }

    /// Runs every stage over `docs`.
    pub fn run(&self, docs: Vec<Document>) -> Vec<Document> {
        self.stages
            .iter()
            .fold(docs, |docs, stage| run_stage(stage, docs))
    }
}

fn parse_stage(stage: &Bson) -> Result<Stage, CommandError> {
    let Bson::Document(d) = stage else {
        return Err(CommandError::type_mismatch(
            "Each element of the 'pipeline' array must be an object",
        ));
    };
    let (name, arg) = d.iter().next().filter(|_| d.len() == 1).ok_or_else(|| {
        CommandError::new(
            40323,
            "Location40323",
            "A pipeline stage specification object must contain exactly one field.",
        )
    })?;
    Ok(match name.as_str() {
        "$match" => Stage::Match(Filter::parse(object_arg(name, arg)?)?),
        "$group" => Stage::Group(Group::parse(object_arg(name, arg)?)?),
        "$sort" => Stage::Sort(SortSpec::parse(object_arg(name, arg)?)?),
        "$project" => Stage::Project(parse_project(object_arg(name, arg)?)?),
        "$unset" => Stage::Project(parse_unset(arg)?),
        "$count" => Stage::Count(parse_count(arg)?),
        "$limit" => Stage::Limit(count_arg(name, arg, 1)?),
        "$skip" => Stage::Skip(count_arg(name, arg, 0)?),
        other => {
            return Err(CommandError::new(
                40324,
                "Location40324",
                format!("Unrecognized pipeline stage name: '{other}'"),
            ));
        }
    })
}

fn object_arg<'a>(stage: &str, arg: &'a Bson) -> Result<&'a Document, CommandError> {
    match arg {
        Bson::Document(d) => Ok(d),
        _ => Err(CommandError::failed_to_parse(format!(
            "the {stage} stage specification must be an object"
        ))),
    }
}

fn parse_project(spec: &Document) -> Result<Projection, CommandError> {
    if spec.is_empty() {
        return Err(CommandError::new(
            51272,
            "Location51272",
            "projection specification must have at least one field",
        ));
    }
    Projection::parse(spec)
}

fn parse_unset(arg: &Bson) -> Result<Projection, CommandError> {
    let names: Vec<&Bson> = match arg {
        Bson::String(_) => vec![arg],
        Bson::Array(items) => items.iter().collect(),
        _ => {
            return Err(CommandError::failed_to_parse(
                "$unset specification must be a string or an array",
            ));
        }
    };
    let mut spec = Document::new();
    for name in names {
        let Bson::String(n) = name else {
            return Err(CommandError::failed_to_parse(
                "$unset specification must be a string or an array containing only string values",
            ));
        };
        spec.insert(n.clone(), 0);
    }
    Projection::parse(&spec)
}

fn parse_count(arg: &Bson) -> Result<String, CommandError> {
    match arg {
        Bson::String(s) if !s.is_empty() && !s.starts_with('$') && !s.contains('.') => {
            Ok(s.clone())
        }
        _ => Err(CommandError::new(
            40156,
            "Location40156",
            "the count field must be a non-empty string that does not start with '$' or contain '.'",
        )),
    }
}

fn count_arg(stage: &str, arg: &Bson, min: i64) -> Result<usize, CommandError> {
    let value = match arg {
        Bson::Int32(v) => Some(i64::from(*v)),
        Bson::Int64(v) => Some(*v),
        Bson::Double(v) if v.fract() == 0.0 => Some(*v as i64),
        _ => None,
    };
    value
        .filter(|v| *v >= min)
        .and_then(|v| usize::try_from(v).ok())
        .ok_or_else(|| {
            CommandError::failed_to_parse(format!("invalid argument to {stage} stage: {arg}"))
        })
}

fn run_stage(stage: &Stage, mut docs: Vec<Document>) -> Vec<Document> {
    match stage {
        Stage::Match(filter) => docs.into_iter().filter(|d| filter.matches(d)).collect(),
        Stage::Group(group) => group.run(docs),
        Stage::Count(_) if docs.is_empty() => Vec::new(),
        Stage::Count(name) => vec![count_document(name, docs.len())],
        Stage::Limit(n) => {
            docs.truncate(*n);
            docs
        }
        Stage::Skip(n) => docs.into_iter().skip(*n).collect(),
        Stage::Sort(spec) => {
            spec.sort(&mut docs);
            docs
        }
        Stage::Project(projection) => docs.into_iter().map(|d| projection.apply(d)).collect(),
    }
}

/// `{name: n}`, with `n` an int32 when it fits, as MongoDB returns it.
fn count_document(name: &str, n: usize) -> Document {
    let mut out = Document::new();
    out.insert(name, number(n));
    out
}

/// A count as the smallest BSON integer type that holds it.
pub fn number(n: usize) -> Bson {
    match i32::try_from(n) {
        Ok(small) => Bson::Int32(small),
        Err(_) => Bson::Int64(i64::try_from(n).unwrap_or(i64::MAX)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn run(pipeline: Vec<Document>, docs: Vec<Document>) -> Vec<Document> {
        let stages: Vec<Bson> = pipeline.into_iter().map(Bson::Document).collect();
        Pipeline::parse(&stages).unwrap().run(docs)
    }

    fn sample() -> Vec<Document> {
        (0..10).map(|i| doc! {"i": i, "even": i % 2 == 0}).collect()
    }

    #[test]
    fn match_group_sort() {
        let out = run(
            vec![
                doc! {"$match": {"i": {"$gte": 2}}},
                doc! {"$group": {"_id": "$even", "n": {"$sum": 1}}},
                doc! {"$sort": {"_id": 1}},
            ],
            sample(),
        );
        assert_eq!(
            out,
            vec![doc! {"_id": false, "n": 4}, doc! {"_id": true, "n": 4}]
        );
    }

    #[test]
    fn skip_limit_project_count() {
        let out = run(
            vec![
                doc! {"$skip": 3},
                doc! {"$limit": 2},
                doc! {"$project": {"i": 1, "_id": 0}},
            ],
            sample(),
        );
        assert_eq!(out, vec![doc! {"i": 3}, doc! {"i": 4}]);
        assert_eq!(
            run(vec![doc! {"$count": "total"}], sample()),
            vec![doc! {"total": 10}]
        );
        assert!(run(vec![doc! {"$count": "total"}], Vec::new()).is_empty());
    }

    #[test]
    fn unknown_or_bad_stages_fail() {
        let bad = |d: Document| Pipeline::parse(&[Bson::Document(d)]).unwrap_err().code;
        assert_eq!(bad(doc! {"$lookup": {}}), 40324);
        assert_eq!(bad(doc! {"$limit": 0}), 9);
        assert_eq!(bad(doc! {"$count": "$x"}), 40156);
    }
}
