//! `eltbench tasks list|show|validate`: what a suite holds and whether it
//! is consistent. Reads the suite through `eltbench-task`; never writes it.

use std::path::Path;
use std::process::ExitCode;

use eltbench_task::{Problem, Severity, SourceKind, Suite, Task};
use serde::Serialize;

use crate::cli::{TasksAction, TasksArgs};
use crate::printer::{BadInput, Printer};

pub fn run(args: TasksArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    match args.action {
        TasksAction::List { suite } => list(&suite.suite, printer),
        TasksAction::Show { suite, db } => show(&suite.suite, &db, printer),
        TasksAction::Validate { suite } => validate(&suite.suite, printer),
        TasksAction::New(args) => super::task_new::run(args, printer),
        TasksAction::Verify(args) => super::task_verify::run(args, printer),
    }
}

/// Loads a suite past broken tasks, warning about each file that could not
/// be read (validation reports them in full).
fn load(root: &Path, printer: &Printer) -> anyhow::Result<Suite> {
    let suite = Suite::load_lenient(root)?;
    let broken: Vec<_> = suite
        .load_problems()
        .iter()
        .filter(|p| p.is_error())
        .collect();
    for problem in &broken {
        printer.warn(&format!("skipped: {problem}"));
    }
    if !broken.is_empty() {
        printer.warn("run `eltbench tasks validate` for every problem of the suite");
    }
    Ok(suite)
}

/// Whether a task has a set of files: all, some or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Presence {
    Yes,
    Partial,
    No,
}

impl Presence {
    fn of(present: usize, total: usize) -> Self {
        match present {
            0 => Self::No,
            n if n == total => Self::Yes,
            _ => Self::Partial,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Yes => "yes",
            Self::Partial => "partial",
            Self::No => "no",
        }
    }
}

#[derive(Debug, Serialize)]
struct ListRow {
    db: String,
    sources: Vec<SourceKind>,
    tables: usize,
    models: usize,
    data: Presence,
    ground_truth: Presence,
}

fn list_row(suite: &Suite, task: &Task) -> ListRow {
    let tables = task.source_tables();
    let with_data = tables
        .iter()
        .filter(|t| suite.data_path(&task.db, &t.name).is_some())
        .count();
    let with_gt = task
        .models
        .iter()
        .filter(|m| suite.ground_truth_path(&task.db, &m.name).is_some())
        .count();
    ListRow {
        db: task.db.clone(),
        sources: task.source_kinds().into_iter().collect(),
        tables: tables.len(),
        models: task.models.len(),
        data: Presence::of(with_data, tables.len()),
        ground_truth: Presence::of(with_gt, task.models.len()),
    }
}

fn list(root: &Path, printer: &Printer) -> anyhow::Result<ExitCode> {
    let suite = load(root, printer)?;
    let rows: Vec<ListRow> = suite.tasks().map(|task| list_row(&suite, task)).collect();
    printer.json_out(&rows)?;
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let sources: Vec<_> = r.sources.iter().map(ToString::to_string).collect();
            let (tables, models) = (r.tables.to_string(), r.models.to_string());
            vec![
                r.db.clone(),
                sources.join(","),
                tables,
                models,
                r.data.as_str().into(),
                r.ground_truth.as_str().into(),
            ]
        })
        .collect();
    printer.out(&render_table(
        &["db", "sources", "tables", "models", "data", "ground truth"],
        &table,
    ));
    printer.out(&list_totals(&rows));
    Ok(ExitCode::SUCCESS)
}

fn list_totals(rows: &[ListRow]) -> String {
    let tables: usize = rows.iter().map(|r| r.tables).sum();
    let models: usize = rows.iter().map(|r| r.models).sum();
    let count =
        |f: fn(&ListRow) -> Presence, p: Presence| rows.iter().filter(|r| f(r) == p).count();
    let (data, data_partial) = (
        count(|r| r.data, Presence::Yes),
        count(|r| r.data, Presence::Partial),
    );
    let (gt, gt_partial) = (
        count(|r| r.ground_truth, Presence::Yes),
        count(|r| r.ground_truth, Presence::Partial),
    );
    format!(
        "{} tasks, {tables} source tables, {models} models; data: {data} tasks ({data_partial} partial); ground truth: {gt} tasks ({gt_partial} partial)",
        rows.len()
    )
}

/// Left-aligned columns separated by two spaces, header first.
fn render_table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        padded.join("  ").trim_end().to_owned()
    };
    let mut lines = vec![line(header.to_vec())];
    lines.extend(
        rows.iter()
            .map(|r| line(r.iter().map(String::as_str).collect())),
    );
    lines.join("\n")
}

#[derive(Debug, Serialize)]
struct ShowTask<'a> {
    db: &'a str,
    dir: String,
    sources: Vec<ShowSource>,
    models: Vec<ShowModel<'a>>,
    gold_dir: Option<String>,
    config: &'a eltbench_task::TaskConfig,
}

#[derive(Debug, Serialize)]
struct ShowSource {
    kind: SourceKind,
    tables: Vec<ShowTable>,
}

#[derive(Debug, Serialize)]
struct ShowTable {
    name: String,
    expected_rows: Option<u64>,
    columns: Option<usize>,
    schema_file: Option<String>,
    data_file: Option<String>,
}

#[derive(Debug, Serialize)]
struct ShowModel<'a> {
    name: &'a str,
    description: &'a str,
    columns: Vec<&'a str>,
    eval_key: Option<&'a eltbench_task::EvalKey>,
    ground_truth_file: Option<String>,
    gt_meta: Option<&'a eltbench_task::GtMeta>,
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

fn show_task<'a>(suite: &'a Suite, task: &'a Task) -> ShowTask<'a> {
    let sources = task.config.sources().into_iter().map(|block| ShowSource {
        kind: block.kind(),
        tables: block
            .tables()
            .into_iter()
            .map(|name| show_table(suite, task, name))
            .collect(),
    });
    let models = task.models.iter().map(|m| ShowModel {
        name: &m.name,
        description: &m.description,
        columns: m.columns.iter().map(|c| c.name.as_str()).collect(),
        eval_key: suite.eval_key(&task.db, &m.name),
        ground_truth_file: suite
            .ground_truth_path(&task.db, &m.name)
            .as_deref()
            .map(display),
        gt_meta: suite.gt_meta(&task.db, &m.name),
    });
    ShowTask {
        db: &task.db,
        dir: display(&task.dir),
        sources: sources.collect(),
        models: models.collect(),
        gold_dir: suite.gold_dir(&task.db).as_deref().map(display),
        config: &task.config,
    }
}

fn show_table(suite: &Suite, task: &Task, name: &str) -> ShowTable {
    let schema = task.schema(name);
    ShowTable {
        name: name.to_owned(),
        expected_rows: suite.expected_rows_for(&task.db, name),
        columns: schema.map(|s| s.columns.len()),
        schema_file: schema.map(|s| display(&s.path)),
        data_file: suite.data_path(&task.db, name).as_deref().map(display),
    }
}

fn show(root: &Path, db: &str, printer: &Printer) -> anyhow::Result<ExitCode> {
    let suite = load(root, printer)?;
    let Some(task) = suite.task(db) else {
        return Err(unknown_task(&suite, db).into());
    };
    let shown = show_task(&suite, task);
    printer.json_out(&shown)?;
    printer.out(&render_show(&shown));
    Ok(ExitCode::SUCCESS)
}

fn unknown_task(suite: &Suite, db: &str) -> BadInput {
    let near = suite.near_task_names(db);
    let hint = match near.as_slice() {
        [] => "run `eltbench tasks list` to see them".to_owned(),
        names => format!("did you mean: {}?", names.join(", ")),
    };
    let count = suite.tasks().count();
    BadInput(format!(
        "no task `{db}` in suite {} ({count} tasks); {hint}",
        suite.root().display()
    ))
}

fn yes_no<T>(value: &Option<T>) -> &'static str {
    if value.is_some() { "yes" } else { "no" }
}

fn render_show(shown: &ShowTask<'_>) -> String {
    let mut out = vec![format!("{}  ({})", shown.db, shown.dir)];
    let rows: Vec<Vec<String>> = shown
        .sources
        .iter()
        .flat_map(|s| s.tables.iter().map(|t| table_cells(s.kind, t)))
        .collect();
    out.push(format!("sources ({} tables):", rows.len()));
    let table = render_table(
        &["kind", "table", "expected rows", "columns", "data"],
        &rows,
    );
    out.extend(table.lines().map(|l| format!("  {l}")));
    out.push("models:".to_owned());
    for model in &shown.models {
        out.extend(model_lines(model));
    }
    out.push(format!(
        "gold solution: {}",
        shown.gold_dir.as_deref().unwrap_or("no")
    ));
    out.join("\n")
}

fn table_cells(kind: SourceKind, t: &ShowTable) -> Vec<String> {
    let rows = t
        .expected_rows
        .map_or_else(|| "?".to_owned(), |r| r.to_string());
    let columns = t
        .columns
        .map_or_else(|| "no schema".to_owned(), |c| c.to_string());
    vec![
        kind.to_string(),
        t.name.clone(),
        rows,
        columns,
        yes_no(&t.data_file).to_owned(),
    ]
}

fn model_lines(model: &ShowModel<'_>) -> Vec<String> {
    let key = match model.eval_key {
        None => "none".to_owned(),
        Some(key) => match (&key.table, &key.order_by) {
            (Some(table), Some(order)) => format!("{table} order by {}", order.join(", ")),
            _ => format!(
                "no table or ORDER BY key ({})",
                key.note.as_deref().unwrap_or("none in the original")
            ),
        },
    };
    let mut gt = yes_no(&model.ground_truth_file).to_owned();
    if let Some(meta) = model.gt_meta {
        let rows = meta
            .rows
            .map_or_else(String::new, |r| format!(", {r} rows"));
        let date = if meta.depends_on_run_date {
            ", depends on run date"
        } else {
            ""
        };
        gt.push_str(&format!("{rows}{date}"));
    }
    vec![
        format!("  {} ({} columns)", model.name, model.columns.len()),
        format!("    columns: {}", model.columns.join(", ")),
        format!("    eval key: {key}"),
        format!("    ground truth: {gt}"),
    ]
}

#[derive(Debug, Serialize)]
struct ValidateReport<'a> {
    tasks: usize,
    source_tables: usize,
    models: usize,
    errors: usize,
    warnings: usize,
    problems: &'a [Problem],
}

fn validate(root: &Path, printer: &Printer) -> anyhow::Result<ExitCode> {
    let suite = Suite::load_lenient(root)?;
    let problems = suite.validate();
    let count = |s: Severity| problems.iter().filter(|p| p.severity == s).count();
    let report = ValidateReport {
        tasks: suite.tasks().count(),
        source_tables: suite.tasks().map(|t| t.source_tables().len()).sum(),
        models: suite.tasks().map(|t| t.models.len()).sum(),
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        problems: &problems,
    };
    printer.json_out(&report)?;
    for problem in &problems {
        printer.out(&problem.to_string());
    }
    let summary = format!(
        "{} tasks, {} source tables, {} models: {} errors, {} warnings",
        report.tasks, report.source_tables, report.models, report.errors, report.warnings
    );
    printer.out(&summary);
    if report.errors == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let first = problems
        .iter()
        .find(|p| p.is_error())
        .map_or_else(String::new, |p| format!("; the first: {p}"));
    Err(BadInput(format!(
        "suite {} has {} errors{first}",
        root.display(),
        report.errors
    ))
    .into())
}
