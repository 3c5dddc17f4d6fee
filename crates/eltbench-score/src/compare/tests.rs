//! Frame-level tests of both stage-2 rules, with ground truth built here.
//! Each case is written so that it fails when the rule is wrong.

use eltbench_task::GroundTruth;
use eltbench_warehouse::{ColumnInfo, Frame, ValueKind};

use super::frame::compare_fixed;
use crate::compat::compare_original;
use crate::taxonomy::ModelError;
use crate::{Alignment, FrameComparison};

fn cells(rows: &[&[&str]]) -> Vec<Vec<Option<String>>> {
    rows.iter()
        .map(|r| {
            r.iter()
                .map(|v| (!v.is_empty()).then(|| v.to_string()))
                .collect()
        })
        .collect()
}

fn gt(header: &[&str], rows: &[&[&str]]) -> GroundTruth {
    GroundTruth {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows: cells(rows),
        ..GroundTruth::default()
    }
}

/// A model frame; `columns` are `name:TYPE`.
fn frame(columns: &[&str], rows: &[&[&str]]) -> Frame {
    let columns = columns
        .iter()
        .map(|c| {
            let (name, type_name) = c.split_once(':').unwrap_or((c, "VARCHAR"));
            ColumnInfo {
                name: name.to_string(),
                type_name: type_name.to_string(),
                kind: ValueKind::from_sql_type(type_name),
            }
        })
        .collect();
    Frame {
        columns,
        rows: cells(rows),
    }
}

fn keys(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

fn fixed(gt: &GroundTruth, model: &Frame, order_by: &[&str]) -> FrameComparison {
    compare_fixed(gt, model, Some(&keys(order_by)), &[])
}

#[test]
fn negative_numbers_match_under_fixed_and_fail_under_original() {
    let expected = gt(&["id", "balance"], &[&["1", "-5"], &["2", "-0.25"]]);
    let model = frame(
        &["ID:INTEGER", "BALANCE:DOUBLE"],
        &[&["1", "-5.0"], &["2", "-0.25"]],
    );
    assert!(fixed(&expected, &model, &["id"]).matched());
    let original = compare_original(&expected, &model, &keys(&["id"]), &[]);
    assert!(!original.matched());
    assert_eq!(original.unmatched_columns[0].column, "balance");
    assert_eq!(original.unmatched_columns[0].rows_differing, 2);
}

#[test]
fn nulls_match_nulls_only_but_original_lets_nan_pass_against_a_number() {
    let expected = gt(&["id", "amount"], &[&["1", ""], &["2", "3"]]);
    let both_null = frame(&["id:INTEGER", "amount:DOUBLE"], &[&["1", ""], &["2", "3"]]);
    assert!(fixed(&expected, &both_null, &["id"]).matched());

    let number_for_null = frame(
        &["id:INTEGER", "amount:DOUBLE"],
        &[&["1", "7"], &["2", "3"]],
    );
    let outcome = fixed(&expected, &number_for_null, &["id"]);
    assert!(!outcome.matched());
    let diff = outcome.unmatched_columns[0].first_diff.clone().unwrap();
    assert_eq!((diff.expected, diff.actual), (None, Some("7".to_string())));
    assert!(compare_original(&expected, &number_for_null, &keys(&["id"]), &[]).matched());
}

#[test]
fn near_equal_floats_pass_within_one_percent_only() {
    let expected = gt(&["id", "x"], &[&["1", "100.0"], &["2", "0.5"]]);
    let close = frame(&["id", "x:DOUBLE"], &[&["1", "100.5"], &["2", "0.4975"]]);
    assert!(fixed(&expected, &close, &["id"]).matched());
    let far = frame(&["id", "x:DOUBLE"], &[&["1", "102.0"], &["2", "0.5"]]);
    let outcome = fixed(&expected, &far, &["id"]);
    assert_eq!(
        ModelError::of_comparison(&outcome),
        Some(ModelError::WrongValues {
            columns: vec!["x".into()]
        })
    );
}

#[test]
fn reordered_rows_match_whatever_the_physical_order() {
    let expected = gt(&["id", "name"], &[&["2", "b"], &["10", "j"], &["9", "i"]]);
    let model = frame(
        &["id:BIGINT", "name"],
        &[&["9", "i"], &["2", "b"], &["10", "j"]],
    );
    let outcome = fixed(&expected, &model, &["id"]);
    assert!(outcome.matched(), "{outcome:#?}");
    assert_eq!(
        outcome.alignment,
        Alignment::EvalKeys {
            keys: keys(&["id"])
        }
    );
    // Swapping two names must be caught: alignment is by key, not by position.
    let swapped = frame(
        &["id:BIGINT", "name"],
        &[&["9", "j"], &["2", "b"], &["10", "i"]],
    );
    assert!(!fixed(&expected, &swapped, &["id"]).matched());
}

#[test]
fn duplicate_keys_are_aligned_by_the_remaining_columns() {
    let expected = gt(&["day", "v"], &[&["2024-01-01", "1"], &["2024-01-01", "2"]]);
    let model = frame(
        &["day:DATE", "v:INTEGER"],
        &[&["2024-01-01", "2"], &["2024-01-01", "1"]],
    );
    assert!(fixed(&expected, &model, &["day"]).matched());
}

#[test]
fn extra_columns_are_allowed_and_names_match_case_insensitively() {
    let expected = gt(&["id", "name"], &[&["1", "a"]]);
    let model = frame(
        &["ID", "NAME", "_airbyte_extracted_at"],
        &[&["1", "a", "x"]],
    );
    let outcome = fixed(&expected, &model, &["ID"]);
    assert!(outcome.matched());
    assert_eq!(outcome.matched_columns, keys(&["id", "name"]));
}

#[test]
fn missing_columns_fail_and_are_named() {
    let expected = gt(&["id", "name", "total"], &[&["1", "a", "3"]]);
    let model = frame(&["id", "name"], &[&["1", "a"]]);
    let outcome = fixed(&expected, &model, &["id"]);
    assert!(!outcome.matched());
    assert_eq!(
        ModelError::of_comparison(&outcome),
        Some(ModelError::MissingColumns {
            columns: vec!["total".into()]
        })
    );
}

#[test]
fn a_different_row_count_fails_as_wrong_size() {
    let expected = gt(&["id"], &[&["1"], &["2"]]);
    let model = frame(&["id"], &[&["1"], &["2"], &["2"]]);
    let outcome = fixed(&expected, &model, &["id"]);
    assert!(!outcome.matched());
    assert_eq!(
        ModelError::of_comparison(&outcome),
        Some(ModelError::WrongSize {
            expected: 2,
            actual: 3
        })
    );
    assert!(!compare_original(&expected, &model, &[], &[]).matched());
}

#[test]
fn dates_timestamps_and_integer_float_spellings_match() {
    let expected = gt(
        &["id", "day", "at", "n"],
        &[&["1", "2024-01-05", "2024-01-05 10:00:00", "3"]],
    );
    let model = frame(
        &[
            "id",
            "day:TIMESTAMP",
            "at:TIMESTAMP WITH TIME ZONE",
            "n:DOUBLE",
        ],
        &[&["1", "2024-01-05 00:00:00", "2024-01-05 10:00:00+00", "3.0"]],
    );
    assert!(fixed(&expected, &model, &["id"]).matched());
    let off_by_a_day = frame(
        &["id", "day:DATE", "at", "n"],
        &[&["1", "2024-01-06", "2024-01-05T10:00:00Z", "3"]],
    );
    let outcome = fixed(&expected, &off_by_a_day, &["id"]);
    assert_eq!(outcome.unmatched_columns.len(), 1);
    assert_eq!(outcome.unmatched_columns[0].column, "day");
}

#[test]
fn first_difference_names_row_key_and_values() {
    let expected = gt(&["id", "v"], &[&["1", "a"], &["2", "b"], &["3", "c"]]);
    let model = frame(&["id", "v"], &[&["3", "c"], &["2", "B"], &["1", "a"]]);
    let outcome = fixed(&expected, &model, &["id"]);
    let mismatch = &outcome.unmatched_columns[0];
    let diff = mismatch.first_diff.as_ref().unwrap();
    assert_eq!(mismatch.column, "v");
    assert_eq!(diff.row, 1);
    assert_eq!(diff.key[0].column, "id");
    assert_eq!(diff.key[0].value.as_deref(), Some("2"));
    assert_eq!(
        (diff.expected.as_deref(), diff.actual.as_deref()),
        (Some("b"), Some("B"))
    );
}

#[test]
fn skipped_columns_are_listed_and_not_compared_nor_used_as_keys() {
    let expected = gt(
        &["day", "repository", "n"],
        &[&["2024-01-01", "", "1"], &["2024-01-02", "", "2"]],
    );
    let model = frame(
        &["day", "repository", "n"],
        &[&["2024-01-02", "r", "2"], &["2024-01-01", "q", "1"]],
    );
    let outcome = compare_fixed(
        &expected,
        &model,
        Some(&keys(&["day", "REPOSITORY"])),
        &keys(&["repository"]),
    );
    assert!(outcome.matched(), "{outcome:#?}");
    assert_eq!(outcome.skipped_columns, keys(&["repository"]));
}

#[test]
fn a_model_without_eval_keys_is_aligned_on_whole_rows() {
    let expected = gt(&["a", "b"], &[&["1", "x"], &["0", "y"]]);
    let model = frame(&["a", "b"], &[&["0", "y"], &["1", "x"]]);
    let outcome = compare_fixed(&expected, &model, None, &[]);
    assert!(outcome.matched());
    assert_eq!(outcome.alignment, Alignment::FullRow);
}

#[test]
fn original_keeps_file_order_against_warehouse_order() {
    // The model arrives in ORDER BY order; a ground truth file in another
    // order fails under the original rule and passes under the fixed one.
    let expected = gt(&["id", "v"], &[&["2", "b"], &["1", "a"]]);
    let model = frame(&["id", "v"], &[&["1", "a"], &["2", "b"]]);
    assert!(!compare_original(&expected, &model, &keys(&["id"]), &[]).matched());
    assert!(fixed(&expected, &model, &["id"]).matched());
}

#[test]
fn original_infers_types_per_column_like_pandas() {
    // "3" vs 3.0 are both numbers after inference; "007" and "7" too.
    let expected = gt(&["n", "code"], &[&["3", "007"]]);
    let model = frame(&["n:DOUBLE", "code"], &[&["3.0", "7"]]);
    assert!(compare_original(&expected, &model, &[], &[]).matched());
    // A column mixing numbers and text stays text: "1" no longer equals "1.0".
    let expected = gt(&["v"], &[&["1"], &["x"]]);
    let model = frame(&["v"], &[&["1.0"], &["x"]]);
    assert!(!compare_original(&expected, &model, &[], &[]).matched());
}
