//! The HTML report's structure: self-contained, five accessible charts,
//! every data string escaped.

mod common;

use eltbench_report::{JobReport, render_html};

fn report_with_hostile_names() -> JobReport {
    let mut records = common::sample_records();
    let mut evil = common::record(
        "<script>",
        1,
        "finished\"><img src=x onerror=alert(1)>",
        5,
        0.1,
        None,
    );
    evil.trial_id = "<script>alert('x')</script>".into();
    evil.agent = None;
    evil.harness_errors = vec!["boom & <b>bold</b>".into()];
    records.push(evil);
    let score = common::task_score(
        "<script>",
        &[("t&t", common::ok(1))],
        &[common::matched("m<1>")],
    );
    records.push(common::record(
        "<script>",
        2,
        "finished",
        4,
        0.1,
        Some(score),
    ));
    JobReport::from_records(&records, &common::suite_info())
}

#[test]
fn has_five_labelled_svg_charts() {
    let html = render_html(&JobReport::from_records(
        &common::sample_records(),
        &common::suite_info(),
    ));
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(html.ends_with("</html>\n"));
    assert_eq!(html.matches("<svg ").count(), 5);
    assert_eq!(html.matches("</svg>").count(), 5);
    for id in [
        "chart-kind",
        "chart-tasks",
        "chart-passk",
        "chart-cost",
        "chart-steps",
    ] {
        let open = format!("<svg id=\"{id}\" class=\"chart\" role=\"img\"");
        assert!(html.contains(&open), "{id} missing");
        assert!(
            html.contains(&format!("<title id=\"{id}-title\">")),
            "{id} has no title"
        );
        assert!(
            html.contains(&format!("<desc id=\"{id}-desc\">")),
            "{id} has no desc"
        );
    }
    // One bar per source kind (5) and per task (3); four pass@k series of 3 points.
    let kind_chart = section(&html, "chart-kind");
    assert_eq!(kind_chart.matches("<rect").count(), 5);
    assert!(kind_chart.contains("aws_s3: 66.7% (2/3)"));
    assert_eq!(section(&html, "chart-tasks").matches("<rect").count(), 3);
    assert_eq!(
        section(&html, "chart-passk").matches("<polyline").count(),
        4
    );
    assert_eq!(
        html.matches("<table>").count(),
        html.matches("</table>").count()
    );
}

#[test]
fn is_self_contained() {
    let html = render_html(&JobReport::from_records(
        &common::sample_records(),
        &common::suite_info(),
    ));
    for forbidden in [
        "<script", "<link", "@import", "url(", "src=", "href=", "https:",
    ] {
        assert!(!html.contains(forbidden), "found {forbidden}");
    }
    let http = html.matches("http:").count();
    assert_eq!(
        http,
        html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count()
    );
}

#[test]
fn escapes_every_data_string() {
    let html = render_html(&report_with_hostile_names());
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    assert!(html.contains("boom &amp; &lt;b&gt;bold&lt;/b&gt;"));
    assert!(html.contains("finished&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
    assert!(!html.contains("<img") && !html.contains("<b>"));
    // The task appears escaped in the SRDT-per-task chart.
    assert!(section(&html, "chart-tasks").contains("&lt;script&gt;"));
}

/// The text of the `<svg>` with this id.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html.find(&format!("<svg id=\"{id}\"")).unwrap();
    let end = start + html[start..].find("</svg>").unwrap();
    &html[start..end]
}
