//! One trial's page (`trials/<id>/trajectory.html`): the trial's record
//! (agent status, score, cost, sandboxed) and its trajectory step by step:
//! thought, action, observation, tokens, cost and time. Self-contained like
//! the report, with a link back to it.
//!
//! Steps are JSON of any agent: the builtin agent's fields are laid out,
//! any other field is shown as JSON. Everything from data is escaped.

use serde_json::{Map, Value};

use super::STYLE;
use super::svg::escape;
use crate::format::{dollars, sandbox_cell};
use crate::record::TrialRecord;
use crate::trajectory::Trajectory;

/// Step fields laid out specially (the rest are listed as JSON).
const KNOWN: [&str; 12] = [
    "index",
    "started_at",
    "duration_ms",
    "llm_ms",
    "thought",
    "response",
    "action",
    "observation",
    "parse_error",
    "input_tokens",
    "output_tokens",
    "cost_usd",
];

/// The page of trial `trial_id` (its record and trajectory when known).
pub fn render_trajectory(
    trial_id: &str,
    record: Option<&TrialRecord>,
    trajectory: Option<&Trajectory>,
) -> String {
    let title = escape(trial_id);
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title} · eltbench trajectory</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n\
         <p><a href=\"../../report.html\">← report</a></p>\n<header>\n<h1>{title}</h1>\n<p>trial trajectory</p>\n</header>\n"
    );
    if let Some(record) = record {
        out.push_str(&record_table(record));
    }
    match trajectory {
        None => out.push_str("<p class=\"note\">This trial left no trajectory.</p>\n"),
        Some(t) => out.push_str(&trajectory_sections(t)),
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

fn record_table(r: &TrialRecord) -> String {
    let score = r.score.as_ref().map_or_else(
        || "not scored".to_owned(),
        |s| {
            format!(
                "SRDEL {}, models matched {}/{}",
                if s.srdel.passed { "pass" } else { "fail" },
                s.matched_models(),
                s.scored_models()
            )
        },
    );
    let agent = r
        .agent
        .as_ref()
        .map_or_else(|| r.agent_status.clone(), |a| a.label());
    let mut rows = vec![
        ("task", r.db.clone()),
        ("index", r.index.to_string()),
        ("agent status", agent),
        ("score", score),
        ("steps", r.steps.to_string()),
        (
            "tokens in / out",
            format!("{} / {}", r.input_tokens, r.output_tokens),
        ),
        ("cost", dollars(Some(r.cost_usd))),
        ("duration", format!("{:.1} s", r.duration_s)),
        (
            "sandboxed",
            sandbox_cell(r.sandboxed, r.sandbox_mode.as_deref()),
        ),
        ("harness attempts", r.harness_attempts.to_string()),
    ];
    if let Some(failure) = r.harness_failure() {
        rows.push(("harness failure", failure.to_owned()));
    }
    section("Trial", &key_value_table(&rows))
}

fn trajectory_sections(t: &Trajectory) -> String {
    let mut header: Vec<(&str, String)> = t
        .header
        .iter()
        .map(|(k, v)| (k.as_str(), display(v)))
        .collect();
    header.push(("file", t.path.display().to_string()));
    let mut out = section("Run", &key_value_table(&header));
    if let Some(Value::Object(totals)) = &t.totals {
        let rows: Vec<(&str, String)> = totals
            .iter()
            .map(|(k, v)| (k.as_str(), display(v)))
            .collect();
        out.push_str(&section("Totals", &key_value_table(&rows)));
    }
    let mut steps = format!(
        "<section id=\"steps\">\n<h2>Steps ({})</h2>\n",
        t.steps.len()
    );
    for (i, step) in t.steps.iter().enumerate() {
        steps.push_str(&step_html(i, step));
    }
    if t.steps.is_empty() {
        steps.push_str("<p class=\"note\">(no steps)</p>\n");
    }
    steps.push_str("</section>\n");
    out.push_str(&steps);
    out
}

fn step_html(position: usize, step: &Value) -> String {
    let empty = Map::new();
    let map = step.as_object().unwrap_or(&empty);
    let index = map
        .get("index")
        .and_then(Value::as_u64)
        .map_or(position, |i| usize::try_from(i).unwrap_or(position));
    let mut out = format!(
        "<article class=\"step\" id=\"step-{index}\">\n<h3>Step {index}</h3>\n<p class=\"note\">{}</p>\n",
        escape(&step_facts(map))
    );
    if !step.is_object() {
        out.push_str(&block("value", &display(step)));
    }
    for (label, key) in [("thought", "thought"), ("parse error", "parse_error")] {
        if let Some(text) = map.get(key).filter(|v| !v.is_null()) {
            out.push_str(&block(label, &display(text)));
        }
    }
    if let Some(action) = map.get("action") {
        out.push_str(&block(&action_label(action), &action_body(action)));
    }
    if let Some(observation) = map.get("observation") {
        out.push_str(&block("observation", &display(observation)));
    }
    for (key, value) in map.iter().filter(|(k, _)| !KNOWN.contains(&k.as_str())) {
        out.push_str(&block(key, &display(value)));
    }
    out.push_str("</article>\n");
    out
}

/// `1.2 s · tokens 300 in / 40 out · $0.01`.
fn step_facts(map: &Map<String, Value>) -> String {
    let n = |k: &str| map.get(k).and_then(Value::as_u64);
    let mut facts = Vec::new();
    if let Some(ms) = n("duration_ms") {
        facts.push(format!(
            "{:.1} s",
            f64::from(u32::try_from(ms).unwrap_or(u32::MAX)) / 1000.0
        ));
    }
    if let (Some(i), Some(o)) = (n("input_tokens"), n("output_tokens")) {
        facts.push(format!("tokens {i} in / {o} out"));
    }
    if let Some(cost) = map.get("cost_usd").and_then(Value::as_f64) {
        facts.push(dollars(Some(cost)));
    }
    if let Some(at) = map.get("started_at").and_then(Value::as_str) {
        facts.push(at.to_owned());
    }
    facts.join(" · ")
}

fn action_label(action: &Value) -> String {
    match action.get("type").and_then(Value::as_str) {
        Some(kind) => format!("action: {kind}"),
        None if action.is_null() => "action: none (unparsed reply)".to_owned(),
        None => "action".to_owned(),
    }
}

fn action_body(action: &Value) -> String {
    let Some(map) = action.as_object() else {
        return display(action);
    };
    let fields: Vec<String> = map
        .iter()
        .filter(|(k, _)| k.as_str() != "type")
        .map(|(k, v)| match v {
            Value::String(s) if s.contains('\n') => format!("{k}:\n{s}"),
            other => format!("{k}: {}", display(other)),
        })
        .collect();
    fields.join("\n")
}

fn block(label: &str, text: &str) -> String {
    format!(
        "<div class=\"block\"><div class=\"label\">{}</div><pre>{}</pre></div>\n",
        escape(label),
        escape(text)
    )
}

fn display(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "-".to_owned(),
        other => serde_json::to_string_pretty(other).unwrap_or_else(|_| other.to_string()),
    }
}

fn section(title: &str, body: &str) -> String {
    format!("<section>\n<h2>{}</h2>\n{body}</section>\n", escape(title))
}

fn key_value_table(rows: &[(&str, String)]) -> String {
    let mut out = String::from("<div class=\"scroll narrow\"><table>\n<tbody>\n");
    for (k, v) in rows {
        out.push_str(&format!(
            "<tr><th scope=\"row\">{}</th><td>{}</td></tr>\n",
            escape(k),
            escape(v)
        ));
    }
    out.push_str("</tbody>\n</table></div>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lays_out_builtin_steps_and_escapes_everything() {
        let t = Trajectory {
            header: Map::from_iter([("agent".to_owned(), json!("builtin"))]),
            steps: vec![
                json!({"index": 0, "duration_ms": 1500, "thought": "look <first>",
                       "action": {"type": "bash", "code": "ls\npwd"}, "observation": "a&b",
                       "input_tokens": 300, "output_tokens": 40, "cost_usd": 0.01, "extra": [1]}),
                json!({"index": 1, "action": null, "parse_error": "no action"}),
            ],
            ..Trajectory::default()
        };
        let html = render_trajectory("a__0<x>", None, Some(&t));
        assert!(html.contains("<h1>a__0&lt;x&gt;</h1>"));
        assert!(html.contains("Steps (2)"));
        assert!(html.contains("action: bash"));
        assert!(html.contains("code:\nls\npwd"));
        assert!(html.contains("look &lt;first&gt;") && html.contains("a&amp;b"));
        assert!(html.contains("1.5 s · tokens 300 in / 40 out · $0.01"));
        assert!(html.contains("action: none (unparsed reply)"));
        assert!(html.contains("<div class=\"label\">extra</div>"));
        assert!(!html.contains("<first>"));
    }

    #[test]
    fn says_when_there_is_no_trajectory() {
        let html = render_trajectory("t", None, None);
        assert!(html.contains("left no trajectory"));
    }
}
