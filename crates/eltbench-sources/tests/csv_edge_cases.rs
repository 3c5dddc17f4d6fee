//! Reading real-world CSV into canonical tables: BOM, quoted newlines, NULL vs empty,
//! ragged rows, wide tables, and DDL types meeting data that does not fit them.

mod common;

use std::path::Path;

use eltbench_sources::{
    ColumnType, DdlCatalog, TableError, TypeOrigin, read_suite_table, read_table,
};

fn write_csv(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn utf8_bom_is_not_part_of_the_first_column_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_csv(
        dir.path(),
        "t.csv",
        b"\xEF\xBB\xBFid,name\n1,\xC3\xA9t\xC3\xA9\n",
    );
    let table = read_table(&path, "t", None).unwrap();
    assert_eq!(table.columns[0].name, "id");
    assert_eq!(table.columns[0].ty, ColumnType::BigInt);
    assert_eq!(table.rows.get(0).unwrap().get(1), Some("été"));
}

#[test]
fn quoted_fields_keep_newlines_commas_and_quotes() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_csv(
        dir.path(),
        "t.csv",
        b"id,body\r\n1,\"line one\r\nline, \"\"two\"\"\"\r\n2,plain\r\n",
    );
    let table = read_table(&path, "t", None).unwrap();
    assert_eq!(table.len(), 2);
    let first = table.rows.get(0).unwrap();
    assert_eq!(first.get(1), Some("line one\r\nline, \"two\""));
    assert_eq!((first.line(), table.rows.get(1).unwrap().line()), (2, 4));
}

/// The csv crate does not say whether a field was quoted, so `""` is NULL like an
/// empty field (documented in `csv_read`); a blank is kept as a value.
#[test]
fn empty_and_quoted_empty_fields_are_null_but_blanks_are_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_csv(dir.path(), "t.csv", b"a,b,c\n,\"\", \n");
    let table = read_table(&path, "t", None).unwrap();
    let values: Vec<_> = table.rows.get(0).unwrap().values().collect();
    assert_eq!(values, [None, None, Some(" ")]);
}

#[test]
fn ragged_row_names_file_and_line_after_a_multiline_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_csv(dir.path(), "events.csv", b"a,b\n1,\"x\ny\"\n2,3,4\n");
    let err = read_table(&path, "events", None).unwrap_err();
    assert!(
        matches!(
            err,
            TableError::Ragged {
                line: 4,
                expected: 2,
                found: 3,
                ..
            }
        ),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("events.csv:4:") && msg.contains("3 fields") && msg.contains("has 2"),
        "{msg}"
    );
}

#[test]
fn header_problems_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let dup = write_csv(dir.path(), "dup.csv", b"a,a\n1,2\n");
    assert!(
        matches!(read_table(&dup, "dup", None), Err(TableError::DuplicateColumn { column, .. }) if column == "a")
    );
    let empty = write_csv(dir.path(), "empty.csv", b"");
    assert!(matches!(
        read_table(&empty, "empty", None),
        Err(TableError::NoHeader { .. })
    ));
    let bad_utf8 = write_csv(dir.path(), "bin.csv", b"a\n\xFF\n");
    assert!(matches!(
        read_table(&bad_utf8, "bin", None),
        Err(TableError::Utf8 {
            line: 2,
            field: 1,
            ..
        })
    ));
    let missing = read_table(&dir.path().join("nope.csv"), "nope", None).unwrap_err();
    assert!(missing.to_string().contains("nope.csv"));
}

#[test]
fn wide_tables_keep_every_column() {
    let dir = tempfile::tempdir().unwrap();
    let header: Vec<String> = (0..600).map(|i| format!("c{i}")).collect();
    let row: Vec<String> = (0..600).map(|i| i.to_string()).collect();
    let text = format!(
        "{}\n{}\n{}\n",
        header.join(","),
        row.join(","),
        row.join(",")
    );
    let table = read_table(
        &write_csv(dir.path(), "wide.csv", text.as_bytes()),
        "wide",
        None,
    )
    .unwrap();
    assert_eq!((table.columns.len(), table.len()), (600, 2));
    assert_eq!(table.rows.get(1).unwrap().get(599), Some("599"));
}

#[test]
fn ddl_types_apply_case_insensitively_and_misfits_widen_to_text() {
    let suite = common::suite();
    let catalog = DdlCatalog::load(&suite.join("postgres_ddl.json")).unwrap();
    let table = read_suite_table(
        &suite,
        "apple_store",
        "sales_subscription_events",
        Some(&catalog),
    )
    .unwrap();
    let col = |name: &str| table.columns.iter().find(|c| c.name == name).unwrap();
    // Declared INTEGER, but the data holds a single blank: loaded as text, not failed.
    let widened = col("DAYS_CANCELED");
    assert_eq!(widened.declared_name.as_deref(), Some("days_canceled"));
    assert_eq!(widened.ty, ColumnType::Text);
    assert!(
        matches!(&widened.origin, TypeOrigin::DdlWidened { declared: ColumnType::Integer, value, .. } if value == " ")
    );
    let device =
        read_suite_table(&suite, "apple_store", "app_store_device", Some(&catalog)).unwrap();
    let meets = device
        .columns
        .iter()
        .find(|c| c.name == "MEETS_THRESHOLD")
        .unwrap();
    assert_eq!(
        (meets.ty, &meets.origin),
        (ColumnType::Boolean, &TypeOrigin::Ddl)
    );
    // mailchimp.member has a column the DDL lacks: inferred.
    let member = read_suite_table(&suite, "mailchimp", "member", Some(&catalog)).unwrap();
    let extra = member
        .columns
        .iter()
        .find(|c| c.name == "unique_email_id")
        .unwrap();
    assert_eq!(extra.origin, TypeOrigin::Inferred);
}
