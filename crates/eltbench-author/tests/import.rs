//! `suite import elt-bench` on a fake checkout in the original layout (two
//! tasks, written here): the converted suite validates, the indexes come from
//! table.json, evaluation/*.sql, postgres.sh, the connector manifest and
//! mongo.jsonl, and the task without downloaded data is marked synthetic.

use std::path::Path;

use eltbench_author::{KIND_ORDER, assign, config_yaml, import_elt_bench};
use eltbench_task::{SourceKind, Suite};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn fake_checkout(root: &Path) {
    let alpha = assign::assign(&names(&["a_pg", "b_mongo", "c_api"]), &KIND_ORDER);
    let beta = assign::assign(
        &names(&["d_s3", "e_file"]),
        &[SourceKind::AwsS3, SourceKind::FlatFiles],
    );
    for (db, tables) in [("alpha", &alpha), ("beta", &beta)] {
        let dir = root.join("elt-bench").join(db);
        write(&dir.join("config.yaml"), &config_yaml(db, tables));
        write(
            &dir.join("data_model.yaml"),
            &format!(
                "models:\n  - name: {db}_summary\n    description: d\n    columns:\n      - name: id\n        description: i\n      - name: total\n        description: t\n"
            ),
        );
        for t in tables.iter() {
            write(
                &dir.join("schemas").join(format!("{}.csv", t.table)),
                "column_name,column_description\nid,the id\nv,a value\n",
            );
        }
        write(
            &root
                .join("evaluation")
                .join(db)
                .join(format!("{db}_summary.sql")),
            &format!("select * from {db}.airbyte_schema.{db}_summary\norder by id"),
        );
    }
    write(&root.join("elt-bench/alpha/.DS_Store"), "junk");
    write(
        &root.join("evaluation/table.json"),
        r#"{"alpha": {"a_pg": 2, "b_mongo": 2, "c_api": 2}, "beta": {"d_s3": 5, "e_file": 7}}"#,
    );
    write(
        &root.join("setup/sources/alpha/postgres.sh"),
        "TABLE_NAME=\"a_pg\"\npsql -c \"\nCREATE TABLE $TABLE_NAME\n(\n    id INTEGER NOT NULL,\n    v TEXT,\n    PRIMARY KEY (id)\n);\n\"\n",
    );
    write(
        &root.join("setup/mongo.jsonl"),
        "{\n    \"alpha\": [\n        \"b_mongo\"\n    ]\n}",
    );
    write(
        &root.join("setup/elt_bench.yaml"),
        "definitions:\n  streams:\n    c_api:\n      retriever:\n        requester:\n          path: /alpha/c_api\n      schema_loader:\n        schema:\n          $ref: \"#/schemas/c_api\"\nschemas:\n  c_api:\n    type: object\n    properties:\n      id:\n        type: [number, \"null\"]\n",
    );
}

fn fake_data(dir: &Path) {
    for table in ["a_pg", "b_mongo"] {
        write(
            &dir.join("data/alpha").join(format!("{table}.csv")),
            "id,v\n1,x\n2,y\n",
        );
    }
    write(
        &dir.join("rest_api/data/alpha/c_api.csv"),
        "id,v\n1,x\n2,y\n",
    );
    write(&dir.join("gt/alpha/alpha_summary.csv"), "id,total\n1,3\n");
}

#[test]
fn an_original_checkout_converts_into_a_valid_suite() {
    let tmp = tempfile::tempdir().unwrap();
    let (from, data, to) = (
        tmp.path().join("ELT-Bench"),
        tmp.path().join("dl"),
        tmp.path().join("suite"),
    );
    fake_checkout(&from);
    fake_data(&data);
    let report = import_elt_bench(&from, Some(&data), &to).unwrap();
    assert_eq!(report.tasks, 2);
    assert_eq!(report.tasks_with_data, ["alpha"]);
    assert_eq!(report.synthetic_tasks, ["beta"]);
    assert_eq!(
        (
            report.eval_keys,
            report.postgres_tables,
            report.rest_streams
        ),
        (2, 1, 1)
    );
    let suite = Suite::load(&to).unwrap();
    let errors: Vec<String> = suite
        .validate()
        .iter()
        .filter(|p| p.is_error())
        .map(ToString::to_string)
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(suite.expected_rows_for("beta", "e_file"), Some(7));
    let key = suite.eval_key("alpha", "alpha_summary").unwrap();
    assert_eq!(key.order_by.as_deref(), Some(&["id".to_owned()][..]));
    assert!(suite.data_path("alpha", "c_api").is_some());
    assert!(suite.data_path("beta", "d_s3").is_none());
    assert_eq!(
        suite
            .ground_truth("alpha", "alpha_summary")
            .unwrap()
            .unwrap()
            .rows
            .len(),
        1
    );
    assert!(!to.join("tasks/alpha/.DS_Store").exists());
    let ddl = std::fs::read_to_string(to.join("postgres_ddl.json")).unwrap();
    assert!(
        ddl.contains("\"primary_key\": [\n                \"id\"\n"),
        "{ddl}"
    );
    let synthetic = std::fs::read_to_string(to.join("synthetic_tasks.json")).unwrap();
    assert!(
        synthetic.contains("\"beta\"") && !synthetic.contains("\"alpha\""),
        "{synthetic}"
    );
}

#[test]
fn without_data_every_task_is_synthetic_and_the_suite_still_validates() {
    let tmp = tempfile::tempdir().unwrap();
    let (from, to) = (tmp.path().join("ELT-Bench"), tmp.path().join("suite"));
    fake_checkout(&from);
    let report = import_elt_bench(&from, None, &to).unwrap();
    assert_eq!(report.synthetic_tasks, ["alpha", "beta"]);
    let suite = Suite::load(&to).unwrap();
    assert!(suite.validate().iter().all(|p| !p.is_error()));
    assert!(!to.join("data").exists());
}

#[test]
fn a_directory_that_is_not_a_checkout_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let err = import_elt_bench(tmp.path(), None, &tmp.path().join("out")).unwrap_err();
    assert!(
        err.is_bad_input() && err.to_string().contains("elt-bench/"),
        "{err}"
    );
}
