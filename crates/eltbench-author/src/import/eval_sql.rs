//! The original's `evaluation/<db>/<model>.sql` (`select * from
//! <db>.airbyte_schema.<model> order by k1, k2`) read into an eval key: the
//! table after the first `from` and the columns after `order by`. A query of
//! another form gives a key without ORDER BY and a note. Never runs SQL.

use eltbench_task::EvalKey;

/// The eval key of one evaluation query.
pub fn eval_key(sql: &str) -> EvalKey {
    let flat = sql.split_whitespace().collect::<Vec<_>>().join(" ");
    let flat = flat.trim_end_matches(';').trim();
    let lower = flat.to_ascii_lowercase();
    let table = lower.find(" from ").map(|at| {
        flat[at + 6..]
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .trim_end_matches(';')
            .to_owned()
    });
    let simple = lower.starts_with("select * from ")
        && !lower.contains(" where ")
        && !lower.contains(" join ");
    let order_by = lower.rfind(" order by ").map(|at| {
        flat[at + 10..]
            .split(',')
            .map(|k| {
                k.split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .trim_matches('"')
                    .to_owned()
            })
            .filter(|k| !k.is_empty())
            .collect::<Vec<_>>()
    });
    match (simple, order_by) {
        (true, Some(keys)) if !keys.is_empty() => EvalKey {
            table,
            order_by: Some(keys),
            note: None,
        },
        (true, _) => EvalKey {
            table,
            order_by: None,
            note: Some("the original's evaluation query has no ORDER BY".into()),
        },
        (false, _) => EvalKey {
            table: None,
            order_by: None,
            note: Some("evaluation file is a full query, not a select of the model table".into()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_queries_give_table_and_keys() {
        let key = eval_key("select * from address.airbyte_schema.states\norder by abbreviation");
        assert_eq!(key.table.as_deref(), Some("address.airbyte_schema.states"));
        assert_eq!(key.order_by, Some(vec!["abbreviation".to_owned()]));
        let key = eval_key("SELECT * FROM a.b.c ORDER BY x DESC, \"y\";");
        assert_eq!(key.order_by, Some(vec!["x".to_owned(), "y".to_owned()]));
    }

    #[test]
    fn other_queries_get_a_note() {
        let key = eval_key("with x as (select * from a.b.c) select a, count(*) from x group by a");
        assert_eq!((key.table, key.order_by), (None, None));
        assert!(key.note.unwrap().contains("full query"));
        let key = eval_key("select * from a.b.c");
        assert_eq!(key.table.as_deref(), Some("a.b.c"));
        assert!(key.note.unwrap().contains("no ORDER BY"));
    }
}
