//! Deciding each column's type: the DDL's declaration when the column is declared and
//! every value fits it; text when a declared column holds a value that does not fit
//! (recorded as `TypeOrigin::DdlWidened`, so the load never fails on the data); the
//! inferred type otherwise.
//!
//! Names always come from the CSV header (the one truth); DDL names match them ignoring
//! ASCII case. DDL columns missing from the CSV are ignored. This module never rewrites
//! a value.

use crate::ddl::TableDdl;
use crate::infer::Inference;
use crate::table::{Column, Rows, TypeOrigin};
use crate::types::ColumnType;

/// Per-column state while scanning the rows once.
enum Check {
    Declared {
        ty: ColumnType,
        misfit: Option<(u64, String)>,
    },
    Inferred(Inference),
}

impl Check {
    fn observe(&mut self, value: &str, line: u64) {
        match self {
            Check::Declared { ty, misfit } => {
                if misfit.is_none() && !ty.accepts(value) {
                    *misfit = Some((line, value.to_owned()));
                }
            }
            Check::Inferred(inf) => {
                if !inf.is_settled_text() {
                    inf.observe(value);
                }
            }
        }
    }

    fn finish(self) -> (ColumnType, TypeOrigin) {
        match self {
            Check::Declared { ty, misfit: None } => (ty, TypeOrigin::Ddl),
            Check::Declared {
                ty,
                misfit: Some((line, value)),
            } => (
                ColumnType::Text,
                TypeOrigin::DdlWidened {
                    declared: ty,
                    line,
                    value,
                },
            ),
            Check::Inferred(inf) => (inf.result(), TypeOrigin::Inferred),
        }
    }
}

/// The typed columns and primary key for a header and its rows.
pub(crate) fn resolve_columns(
    header: &[String],
    rows: &Rows,
    ddl: Option<&TableDdl>,
) -> (Vec<Column>, Vec<String>) {
    let declared: Vec<_> = header
        .iter()
        .map(|name| ddl.and_then(|d| d.column(name)))
        .collect();
    let mut checks: Vec<Check> = declared
        .iter()
        .map(|d| match d {
            Some(col) => Check::Declared {
                ty: col.ty,
                misfit: None,
            },
            None => Check::Inferred(Inference::default()),
        })
        .collect();
    let mut has_null = vec![false; header.len()];
    for row in rows.iter() {
        for (i, check) in checks.iter_mut().enumerate() {
            match row.get(i) {
                Some(value) => check.observe(value, row.line()),
                None => has_null[i] = true,
            }
        }
    }
    let columns = header
        .iter()
        .zip(checks)
        .zip(declared.iter().zip(has_null))
        .map(|((name, check), (decl, nulls))| {
            let (ty, origin) = check.finish();
            let not_null = decl.is_some_and(|d| d.not_null) && !nulls;
            let declared_name = decl.map(|d| d.name.clone());
            Column {
                name: name.clone(),
                ty,
                not_null,
                origin,
                declared_name,
            }
        })
        .collect();
    (columns, primary_key(header, ddl))
}

/// The DDL's primary key spelled as in the header; empty unless every key column is there.
fn primary_key(header: &[String], ddl: Option<&TableDdl>) -> Vec<String> {
    let Some(ddl) = ddl else { return Vec::new() };
    let found: Option<Vec<String>> = ddl
        .primary_key
        .iter()
        .map(|k| header.iter().find(|h| h.eq_ignore_ascii_case(k)).cloned())
        .collect();
    found.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ddl::DdlColumn;

    fn rows(data: &[[&str; 3]]) -> Rows {
        let mut rows = Rows::new(3);
        for (i, r) in data.iter().enumerate() {
            rows.push(i as u64 + 2, r.iter().copied()).unwrap();
        }
        rows
    }

    #[test]
    fn declared_types_win_misfits_widen_and_others_are_inferred() {
        let ddl = TableDdl {
            columns: vec![
                DdlColumn {
                    name: "ID".into(),
                    ty: ColumnType::Integer,
                    not_null: true,
                },
                DdlColumn {
                    name: "n".into(),
                    ty: ColumnType::Integer,
                    not_null: true,
                },
            ],
            primary_key: vec!["id".into()],
        };
        let header = ["id".to_owned(), "n".to_owned(), "extra".to_owned()];
        let data = rows(&[["1", "5", "2020-01-01"], ["2", " ", ""]]);
        let (cols, pk) = resolve_columns(&header, &data, Some(&ddl));
        assert_eq!(
            (cols[0].ty, &cols[0].origin, cols[0].not_null),
            (ColumnType::Integer, &TypeOrigin::Ddl, true)
        );
        let widened = TypeOrigin::DdlWidened {
            declared: ColumnType::Integer,
            line: 3,
            value: " ".into(),
        };
        assert_eq!((cols[1].ty, &cols[1].origin), (ColumnType::Text, &widened));
        assert_eq!(
            (cols[2].ty, &cols[2].origin, cols[2].not_null),
            (ColumnType::Date, &TypeOrigin::Inferred, false)
        );
        assert_eq!(pk, ["id"]);
    }

    #[test]
    fn not_null_is_dropped_when_the_data_has_nulls() {
        let ddl = TableDdl {
            columns: vec![DdlColumn {
                name: "a".into(),
                ty: ColumnType::Text,
                not_null: true,
            }],
            primary_key: vec!["missing".into()],
        };
        let header = ["a".to_owned(), "b".to_owned(), "c".to_owned()];
        let (cols, pk) = resolve_columns(&header, &rows(&[["", "x", "y"]]), Some(&ddl));
        assert!(!cols[0].not_null);
        assert!(pk.is_empty());
    }
}
