//! The job report as one self-contained HTML page (`report.html`): inline
//! CSS, inline SVG charts, the same tables as the other renderers. Works
//! without JavaScript and references no URL, font or file.
//!
//! Every string from the data is escaped with [`svg::escape`]; nothing here
//! writes raw data into markup, and nothing reads a clock.

mod charts;
mod histogram;
mod svg;
mod trajectory;

use crate::aggregate::JobReport;
use crate::format::{dollars, number, rate};
use crate::tables::{Align, Table, tables};
use charts::{Bar, Series, bar_chart, line_chart};
use histogram::histogram;
use svg::escape;
pub use trajectory::render_trajectory;

const STYLE: &str = include_str!("style.css");

/// The report as a complete HTML document.
pub fn render_html(report: &JobReport) -> String {
    let title = escape(&report.title);
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title} · eltbench report</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n\
         <header>\n<h1>{title}</h1>\n<p>eltbench job report: SRDEL, SRDT, pass@k and the error taxonomy</p>\n</header>\n"
    );
    out.push_str(&cards(report));
    out.push_str(&charts_section(report));
    for table in tables(report) {
        out.push_str(&render_table(&table));
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

fn cards(report: &JobReport) -> String {
    let c = &report.trials;
    let cards = [
        ("SRDEL", report.srdel.percent(), rate(&report.srdel)),
        ("SRDT", report.srdt.percent(), rate(&report.srdt)),
        (
            "SRDT run-date-dependent",
            report.srdt_run_date_dependent.percent(),
            rate(&report.srdt_run_date_dependent),
        ),
        (
            "Trials counted",
            c.counted.to_string(),
            format!("of {} ({} harness failures)", c.total, c.harness_failed),
        ),
        (
            "Total cost",
            dollars(Some(report.cost_usd.total)),
            format!("median {} per trial", dollars(report.cost_usd.median)),
        ),
        (
            "Median steps",
            number(report.steps.median),
            format!("mean {}", number(report.steps.mean)),
        ),
    ];
    let mut out = String::from("<section class=\"cards\" aria-label=\"Headline figures\">\n");
    for (label, figure, detail) in cards {
        out.push_str(&format!(
            "<div class=\"card\"><div class=\"label\">{}</div><div class=\"figure\">{}</div><div class=\"detail\">{}</div></div>\n",
            escape(label),
            escape(&figure),
            escape(&detail)
        ));
    }
    out.push_str("</section>\n");
    out
}

fn charts_section(report: &JobReport) -> String {
    let charts = [
        kind_chart(report),
        pass_k_chart(report),
        task_chart(report),
        histogram(
            "chart-cost",
            "Cost per trial",
            "Histogram of the LLM cost of every trial in US dollars.",
            "cost per trial (USD)",
            &report.rows.iter().map(|r| r.cost_usd).collect::<Vec<_>>(),
            |v| format!("${v:.2}"),
        ),
        histogram(
            "chart-steps",
            "Steps per trial",
            "Histogram of the number of agent steps of every trial.",
            "steps per trial",
            &report
                .rows
                .iter()
                .map(|r| as_f64(r.steps))
                .collect::<Vec<_>>(),
            |v| number(Some(v)),
        ),
    ];
    let figures: String = charts
        .iter()
        .map(|c| format!("<figure>\n{c}</figure>\n"))
        .collect();
    format!(
        "<section aria-labelledby=\"charts\">\n<h2 id=\"charts\">Charts</h2>\n<div class=\"charts\">\n{figures}</div>\n</section>\n"
    )
}

#[allow(clippy::cast_precision_loss)]
fn as_f64(n: u64) -> f64 {
    n as f64
}

fn kind_chart(report: &JobReport) -> String {
    let bars: Vec<Bar> = report
        .by_kind
        .iter()
        .map(|k| Bar {
            label: k.kind.label().to_owned(),
            value: k.rate().rate,
            text: rate(&k.rate()),
        })
        .collect();
    let desc = "Share of source tables landed with the exact row count, per source kind, over all counted trials.";
    bar_chart(
        "chart-kind",
        "SRDEL by source kind (tables landed)",
        desc,
        "bar bar-srdel",
        &bars,
    )
}

fn task_chart(report: &JobReport) -> String {
    let bars: Vec<Bar> = report
        .tasks
        .iter()
        .map(|t| Bar {
            label: t.db.clone(),
            value: t.srdt.rate,
            text: rate(&t.srdt),
        })
        .collect();
    let desc = "Share of date-independent data models matched per task, over its counted trials.";
    bar_chart("chart-tasks", "SRDT per task", desc, "bar bar-srdt", &bars)
}

fn pass_k_chart(report: &JobReport) -> String {
    let points =
        |f: fn(&eltbench_score::trials::PassAtK) -> Option<f64>| -> Vec<(u64, Option<f64>)> {
            report.pass_k.iter().map(|p| (p.k, f(p))).collect()
        };
    let series = [
        Series {
            name: "SRDEL pass@k".into(),
            class: "series-0",
            square: false,
            points: points(|p| p.srdel_pass_at_k),
        },
        Series {
            name: "SRDEL pass^k".into(),
            class: "series-1",
            square: true,
            points: points(|p| p.srdel_pass_hat_k),
        },
        Series {
            name: "SRDT pass@k".into(),
            class: "series-2",
            square: false,
            points: points(|p| p.srdt_pass_at_k),
        },
        Series {
            name: "SRDT pass^k".into(),
            class: "series-3",
            square: true,
            points: points(|p| p.srdt_pass_hat_k),
        },
    ];
    let desc = "pass@k (at least one of k trials succeeds) and pass^k (all k succeed) for SRDEL over tasks and SRDT over models, k from 1 to the most trials of a task.";
    line_chart("chart-passk", "pass@k and pass^k", desc, &series)
}

fn render_table(table: &Table) -> String {
    let mut out = format!(
        "<section id=\"{}\">\n<h2>{}</h2>\n",
        table.id,
        escape(table.title)
    );
    if !table.note.is_empty() {
        out.push_str(&format!("<p class=\"note\">{}</p>\n", escape(table.note)));
    }
    if table.rows.is_empty() {
        out.push_str("<p class=\"note\">(none)</p>\n</section>\n");
        return out;
    }
    let narrow = if table.columns.len() <= 2 {
        " narrow"
    } else {
        ""
    };
    out.push_str(&format!(
        "<div class=\"scroll{narrow}\"><table>\n<thead><tr>"
    ));
    for (header, align) in &table.columns {
        out.push_str(&format!(
            "<th scope=\"col\"{}>{}</th>",
            class(*align),
            escape(header)
        ));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (i, row) in table.rows.iter().enumerate() {
        out.push_str("<tr>");
        let link = table.links.get(i).and_then(Option::as_deref);
        for (j, (cell, (_, align))) in row.iter().zip(&table.columns).enumerate() {
            let text = match link {
                Some(href) if j == 0 => {
                    format!("<a href=\"{}\">{}</a>", escape(href), escape(cell))
                }
                _ => escape(cell),
            };
            out.push_str(&format!("<td{}>{text}</td>", class(*align)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>\n</section>\n");
    out
}

fn class(align: Align) -> &'static str {
    match align {
        Align::Left => "",
        Align::Right => " class=\"num\"",
    }
}
