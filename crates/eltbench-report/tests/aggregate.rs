//! The aggregate of the sample job, checked against hand-computed figures.

mod common;

use eltbench_report::{JobReport, KindKey};
use eltbench_score::Rate;
use eltbench_task::SourceKind;

fn report() -> JobReport {
    JobReport::from_records(&common::sample_records(), &common::suite_info())
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[test]
fn rates_count_scored_trials_without_harness_failures() {
    let r = report();
    let c = r.trials;
    assert_eq!(
        (
            c.total,
            c.counted,
            c.harness_failed,
            c.unscored,
            c.sandboxed,
            c.unsandboxed,
            c.tasks
        ),
        (10, 8, 1, 1, 8, 1, 4)
    );
    assert_eq!(r.srdel, Rate::new(6, 8));
    assert_eq!(r.srdt, Rate::new(2, 14));
    assert_eq!(r.srdt_run_date_dependent, Rate::new(1, 3));
    assert_eq!(r.srdt_ungated, Rate::new(2, 14));
    assert_eq!(r.harness_failures.len(), 1);
    assert_eq!(r.harness_failures[0].trial_id, "books__2");
    assert_eq!(r.harness_failures[0].attempts, 2);
}

#[test]
fn pass_k_runs_to_the_most_trials_of_a_task() {
    let r = report();
    let ks: Vec<u64> = r.pass_k.iter().map(|p| p.k).collect();
    assert_eq!(ks, [1, 2, 3]);
    // SRDEL tallies: airline 2/3, books 2/2, cookbook 2/3.
    assert!(close(
        r.pass_k[0].srdel_pass_at_k,
        (2.0 / 3.0 + 1.0 + 2.0 / 3.0) / 3.0
    ));
    assert!(close(
        r.pass_k[1].srdel_pass_hat_k,
        (1.0 / 3.0 + 1.0 + 1.0 / 3.0) / 3.0
    ));
    assert!(close(r.pass_k[2].srdel_pass_at_k, 1.0));
    assert!(close(r.pass_k[2].srdel_pass_hat_k, 0.0));
}

#[test]
fn stage1_is_grouped_by_source_kind() {
    let r = report();
    let kinds: Vec<KindKey> = r.by_kind.iter().map(|k| k.kind).collect();
    let expected = [
        SourceKind::Postgres,
        SourceKind::Mongodb,
        SourceKind::CustomApi,
        SourceKind::AwsS3,
        SourceKind::FlatFiles,
    ];
    assert_eq!(kinds, expected.map(KindKey::Known));
    let pg = r.by_kind[0];
    assert_eq!(
        (pg.tables, pg.landed, pg.missing, pg.not_base_table),
        (9, 7, 1, 1)
    );
    let s3 = r.by_kind[3];
    assert_eq!((s3.tables, s3.landed, s3.wrong_count), (3, 2, 1));
}

#[test]
fn stage2_taxonomy_counts_every_category() {
    let e = report().stage2_errors;
    assert_eq!(e.agent_runtime_error, 3);
    assert_eq!(e.dbt_compilation_error, 1);
    assert_eq!(
        (
            e.wrong_schema,
            e.missing_columns,
            e.wrong_size,
            e.wrong_values
        ),
        (1, 1, 1, 1)
    );
    assert_eq!((e.unclassified, e.blocked_by_stage1), (0, 4));
}

#[test]
fn per_task_rows_costs_and_statuses() {
    let r = report();
    let dbs: Vec<&str> = r.tasks.iter().map(|t| t.db.as_str()).collect();
    assert_eq!(dbs, ["airline", "books", "cookbook"]);
    assert_eq!(r.tasks[0].srdt, Rate::new(1, 6));
    assert_eq!(r.tasks[1].srdt, Rate::new(1, 2));
    assert!((r.cost_usd.total - 3.23).abs() < 1e-9);
    assert!(close(r.cost_usd.median, 0.275));
    assert_eq!((r.steps.total, r.steps.median), (124.0, Some(11.5)));
    let statuses: Vec<(&str, usize)> = r
        .agent_status
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(
        statuses,
        [
            ("cancelled", 1),
            ("finished", 6),
            ("harness_failure", 1),
            ("llm_error", 1),
            ("step_limit", 1)
        ]
    );
    let ids: Vec<&str> = r.rows.iter().map(|t| t.trial_id.as_str()).collect();
    assert_eq!(
        ids[..4],
        ["airline__0", "airline__1", "airline__2", "books__0"]
    );
    assert_eq!(r.rows[9].trial_id, "disney__0");
    assert_eq!(r.rows[9].srdel, None);
}

#[test]
fn output_does_not_depend_on_record_order() {
    let mut records = common::sample_records();
    let a = JobReport::from_records(&records, &common::suite_info());
    records.reverse();
    let b = JobReport::from_records(&records, &common::suite_info());
    assert_eq!(a, b);
    assert_eq!(
        eltbench_report::render_html(&a),
        eltbench_report::render_html(&b)
    );
}
