use super::*;
use crate::rules::classify;

fn col(name: &str, kind: Kind) -> DraftColumn {
    DraftColumn {
        name: name.into(),
        ty: ColumnType::new(kind, classify(name, ""), name),
        not_null: false,
        unique: false,
    }
}

fn table(name: &str, rows: u64, columns: Vec<DraftColumn>, key: &[&str]) -> Draft {
    Draft {
        table: name.into(),
        rows,
        columns,
        declared_key: key.iter().map(|k| k.to_string()).collect(),
    }
}

const TEXT: Kind = Kind::Text { max_len: None };

fn reference_of(source: &Source) -> Option<(&str, u64)> {
    match source {
        Source::Foreign { references, .. }
        | Source::Key {
            references: Some(references),
            ..
        } => Some((references.table.as_str(), references.rows)),
        _ => None,
    }
}

#[test]
fn composite_key_cycles_the_referenced_keys_and_counts_up_the_rest() {
    // address: zip_data(zip_code) <- area_code(zip_code, area_code), alias(zip_code)
    let drafts = [
        table(
            "zip_data",
            40,
            vec![col("zip_code", Kind::Int), col("city", TEXT)],
            &["zip_code"],
        ),
        table(
            "area_code",
            90,
            vec![col("zip_code", Kind::Int), col("area_code", Kind::Int)],
            &["zip_code", "area_code"],
        ),
        table(
            "alias",
            10,
            vec![col("zip_code", Kind::Int), col("alias", TEXT)],
            &[],
        ),
    ];
    let keys = resolve(&drafts);
    assert_eq!(keys[0].primary_key, ["zip_code"]);
    assert_eq!(keys[1].primary_key, ["zip_code", "area_code"]);
    match &keys[1].sources[0] {
        Source::Key {
            divisor: 1,
            modulus: Some(40),
            references: Some(r),
            ..
        } => {
            assert_eq!(r.table, "zip_data")
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        keys[1].sources[1],
        Source::Key {
            divisor: 40,
            modulus: None,
            references: None,
            ..
        }
    ));
    assert_eq!(reference_of(&keys[2].sources[0]), Some(("zip_data", 40)));
    assert!(keys[2].primary_key.is_empty());
}

#[test]
fn table_named_ids_reference_the_table_and_fallback_keys_skip_them() {
    let drafts = [
        table(
            "orders",
            5,
            vec![col("id", Kind::Int), col("total", TEXT)],
            &[],
        ),
        table(
            "order_items",
            9,
            vec![col("order_id", Kind::Int), col("item_id", Kind::Int)],
            &[],
        ),
        table("categories", 3, vec![col("category_id", TEXT)], &[]),
        table("products", 7, vec![col("CategoryID", TEXT)], &[]),
    ];
    let keys = resolve(&drafts);
    assert_eq!(keys[0].primary_key, ["id"]);
    assert_eq!(reference_of(&keys[1].sources[0]), Some(("orders", 5)));
    assert_eq!(
        keys[1].primary_key,
        ["item_id"],
        "first *_id column that is not a foreign key"
    );
    assert_eq!(keys[2].primary_key, ["category_id"]);
    assert_eq!(reference_of(&keys[3].sources[0]), Some(("categories", 3)));
}

#[test]
fn a_column_that_cannot_hold_the_keys_is_no_foreign_key() {
    let drafts = [
        table("episode", 5, vec![col("episode_id", TEXT)], &[]),
        table("vote", 9, vec![col("episode_id", Kind::Int)], &[]),
    ];
    let keys = resolve(&drafts);
    assert_eq!(reference_of(&keys[1].sources[0]), None);
}

#[test]
fn a_key_that_is_a_foreign_key_needs_enough_referenced_rows() {
    let issue = |rows| table("issue", rows, vec![col("id", Kind::Int)], &["id"]);
    let history = table(
        "issue_closed_history",
        8,
        vec![col("issue_id", Kind::Int)],
        &["issue_id"],
    );
    let keys = resolve(&[issue(10), history.clone()]);
    assert_eq!(reference_of(&keys[1].sources[0]), Some(("issue", 10)));
    let keys = resolve(&[issue(4), history]);
    assert_eq!(reference_of(&keys[1].sources[0]), None);
    assert!(matches!(
        keys[1].sources[0],
        Source::Key { modulus: None, .. }
    ));
}

#[test]
fn an_all_foreign_composite_key_drops_the_last_reference_when_full() {
    let actor = table("actor", 2, vec![col("actor_id", Kind::Int)], &["actor_id"]);
    let film = table("film", 3, vec![col("film_id", Kind::Int)], &["film_id"]);
    let link = |rows| {
        table(
            "film_actor",
            rows,
            vec![col("actor_id", Kind::Int), col("film_id", Kind::Int)],
            &["actor_id", "film_id"],
        )
    };
    let keys = resolve(&[actor.clone(), film.clone(), link(6)]);
    assert_eq!(reference_of(&keys[2].sources[1]), Some(("film", 3)));
    let keys = resolve(&[actor, film, link(7)]);
    assert_eq!(reference_of(&keys[2].sources[0]), Some(("actor", 2)));
    assert_eq!(reference_of(&keys[2].sources[1]), None);
}
