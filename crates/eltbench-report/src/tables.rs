//! The report's tables, built once from a [`JobReport`] and drawn by every
//! renderer (terminal, Markdown, HTML), so all three show the same rows in
//! the same order.
//!
//! Cells hold raw text from the data: each renderer escapes for its own
//! output. This module never escapes and never formats for one output.

use crate::aggregate::JobReport;
use crate::format::{dollars, number, pass_fail, percent, rate, sandbox_cell, seconds};

/// How a column is aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text.
    Left,
    /// Numbers.
    Right,
}

/// One titled table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Anchor id (`[a-z0-9-]`).
    pub id: &'static str,
    /// Section title.
    pub title: &'static str,
    /// Column headers with their alignment.
    pub columns: Vec<(&'static str, Align)>,
    /// Rows of cells, one per column.
    pub rows: Vec<Vec<String>>,
    /// A sentence on how to read it (empty: none).
    pub note: &'static str,
    /// Per row, a link for its first cell (HTML only; may be shorter than `rows`).
    pub links: Vec<Option<String>>,
}

impl Table {
    fn new(id: &'static str, title: &'static str, columns: &[(&'static str, Align)]) -> Self {
        Self {
            id,
            title,
            columns: columns.to_vec(),
            rows: Vec::new(),
            note: "",
            links: Vec::new(),
        }
    }

    fn row<const N: usize>(&mut self, cells: [String; N]) {
        self.rows.push(cells.into());
    }
}

use Align::{Left as L, Right as R};

/// Every table, in reading order; empty optional tables are left out.
pub fn tables(report: &JobReport) -> Vec<Table> {
    let all = [
        job(report),
        summary(report),
        pass_k(report),
        by_kind(report),
        stage2(report),
        tasks(report),
        costs(report),
        agent_status(report),
        harness_failures(report),
        trials(report),
    ];
    all.into_iter()
        .filter(|t| !t.rows.is_empty() || t.id == "trials")
        .collect()
}

fn job(report: &JobReport) -> Table {
    let mut t = Table::new("job", "Job", &[("field", L), ("value", L)]);
    for (k, v) in &report.job {
        t.row([k.clone(), v.clone()]);
    }
    t
}

fn summary(report: &JobReport) -> Table {
    let mut t = Table::new("summary", "Summary", &[("metric", L), ("value", R)]);
    let c = &report.trials;
    t.note = "Rates count scored trials without a harness failure. SRDT counts \
              date-independent models (a model of a task that failed SRDEL counts as not \
              matched); run-date-dependent models are counted apart; ungated ignores SRDEL.";
    t.row(["trials".into(), c.total.to_string()]);
    t.row(["trials counted".into(), c.counted.to_string()]);
    t.row(["harness failures".into(), c.harness_failed.to_string()]);
    t.row(["unscored trials".into(), c.unscored.to_string()]);
    t.row([
        "sandboxed trials".into(),
        format!("{}/{}", c.sandboxed, c.total),
    ]);
    t.row([
        "unsandboxed trials".into(),
        format!("{}/{}", c.unsandboxed, c.total),
    ]);
    t.row(["tasks".into(), c.tasks.to_string()]);
    t.row(["SRDEL".into(), rate(&report.srdel)]);
    t.row(["SRDT".into(), rate(&report.srdt)]);
    t.row([
        "SRDT run-date-dependent".into(),
        rate(&report.srdt_run_date_dependent),
    ]);
    t.row(["SRDT ungated".into(), rate(&report.srdt_ungated)]);
    t.row([
        "warehouses unavailable".into(),
        report.warehouses_unavailable.to_string(),
    ]);
    t.row(["total cost".into(), dollars(Some(report.cost_usd.total))]);
    t.row([
        "tokens in / out".into(),
        format!("{} / {}", report.tokens.input, report.tokens.output),
    ]);
    t
}

fn pass_k(report: &JobReport) -> Table {
    let cols = [
        ("k", R),
        ("SRDEL pass@k", R),
        ("SRDEL pass^k", R),
        ("SRDT pass@k", R),
        ("SRDT pass^k", R),
    ];
    let mut t = Table::new("pass-k", "pass@k and pass^k", &cols);
    t.note = "Unbiased estimators, averaged over tasks (SRDEL) or date-independent models \
              (SRDT) with at least k counted trials.";
    for p in &report.pass_k {
        t.row([
            p.k.to_string(),
            percent(p.srdel_pass_at_k),
            percent(p.srdel_pass_hat_k),
            percent(p.srdt_pass_at_k),
            percent(p.srdt_pass_hat_k),
        ]);
    }
    t
}

fn by_kind(report: &JobReport) -> Table {
    let cols = [
        ("source kind", L),
        ("tables", R),
        ("landed", R),
        ("missing table", R),
        ("wrong count", R),
        ("view", R),
        ("SRDEL", R),
    ];
    let mut t = Table::new("stage1", "Stage 1 (SRDEL) by source kind", &cols);
    t.note = "Table-trials of each source kind: landed with the exact row count, or the \
              stage-1 error found.";
    for k in &report.by_kind {
        t.row([
            k.kind.label().to_owned(),
            k.tables.to_string(),
            k.landed.to_string(),
            k.missing.to_string(),
            k.wrong_count.to_string(),
            k.not_base_table.to_string(),
            rate(&k.rate()),
        ]);
    }
    t
}

fn stage2(report: &JobReport) -> Table {
    let cols = [("category", L), ("subcategory", L), ("models", R)];
    let mut t = Table::new("stage2", "Stage 2 (SRDT) errors", &cols);
    t.note = "Failed date-independent model-trials. Absent models are agent runtime errors \
              when the agent did not finish, dbt compilation errors when it did.";
    for (category, sub, count) in report.stage2_errors.rows() {
        t.row([category.to_owned(), sub.to_owned(), count.to_string()]);
    }
    t
}

fn tasks(report: &JobReport) -> Table {
    let cols = [
        ("task", L),
        ("trials", R),
        ("SRDEL", R),
        ("SRDT", R),
        ("SRDT run-date", R),
    ];
    let mut t = Table::new("tasks", "Per task", &cols);
    for task in &report.tasks {
        t.row([
            task.db.clone(),
            task.trials.to_string(),
            rate(&task.srdel),
            rate(&task.srdt),
            rate(&task.srdt_run_date_dependent),
        ]);
    }
    t
}

fn costs(report: &JobReport) -> Table {
    let cols = [
        ("per trial", L),
        ("total", R),
        ("mean", R),
        ("median", R),
        ("min", R),
        ("max", R),
    ];
    let mut t = Table::new("costs", "Cost, steps and duration", &cols);
    t.note = "Over every trial, harness failures included.";
    let c = &report.cost_usd;
    t.row([
        "cost".into(),
        dollars(Some(c.total)),
        dollars(c.mean),
        dollars(c.median),
        dollars(c.min),
        dollars(c.max),
    ]);
    let s = &report.steps;
    t.row([
        "steps".into(),
        number(Some(s.total)),
        number(s.mean),
        number(s.median),
        number(s.min),
        number(s.max),
    ]);
    let d = &report.duration_s;
    t.row([
        "duration".into(),
        seconds(Some(d.total)),
        seconds(d.mean),
        seconds(d.median),
        seconds(d.min),
        seconds(d.max),
    ]);
    t
}

fn agent_status(report: &JobReport) -> Table {
    let mut t = Table::new(
        "agent-status",
        "Agent status",
        &[("status", L), ("trials", R)],
    );
    for (status, count) in &report.agent_status {
        t.row([status.clone(), count.to_string()]);
    }
    t
}

fn harness_failures(report: &JobReport) -> Table {
    let cols = [
        ("trial", L),
        ("task", L),
        ("index", R),
        ("attempts", R),
        ("failure", L),
    ];
    let mut t = Table::new("harness-failures", "Harness failures", &cols);
    t.note = "Not the agent's fault: left out of every rate.";
    for f in &report.harness_failures {
        t.row([
            f.trial_id.clone(),
            f.db.clone(),
            f.index.to_string(),
            f.attempts.to_string(),
            f.message.clone(),
        ]);
    }
    t
}

fn trials(report: &JobReport) -> Table {
    let cols = [
        ("trial", L),
        ("task", L),
        ("index", R),
        ("agent", L),
        ("SRDEL", L),
        ("SRDT", R),
        ("steps", R),
        ("cost", R),
        ("duration", R),
        ("sandboxed", L),
    ];
    let mut t = Table::new("trials", "Trials", &cols);
    for r in &report.rows {
        t.row([
            r.trial_id.clone(),
            r.db.clone(),
            r.index.to_string(),
            r.agent_status.clone(),
            pass_fail(r.srdel).to_owned(),
            r.srdt.as_ref().map_or_else(|| "-".to_owned(), rate),
            r.steps.to_string(),
            dollars(Some(r.cost_usd)),
            seconds(Some(r.duration_s)),
            sandbox_cell(r.sandboxed, r.sandbox_mode.as_deref()),
        ]);
        t.links.push(r.page.clone());
    }
    t
}
