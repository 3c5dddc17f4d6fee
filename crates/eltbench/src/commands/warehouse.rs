//! `eltbench warehouse`: build reference warehouses from a suite, and list
//! the relations of a warehouse file.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use eltbench_task::Suite;
use eltbench_warehouse::{Access, DuckDbWarehouse, TableKind, Warehouse};
use serde::Serialize;

use crate::cli::{WarehouseAction, WarehouseArgs};
use crate::printer::{BadInput, Printer, user_error};

pub fn run(args: WarehouseArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    match args.action {
        WarehouseAction::Reference { suite, out, tasks } => {
            reference(&suite.suite, &out, &tasks, printer)
        }
        WarehouseAction::Tables { path, db } => tables(&path, db.as_deref(), printer),
    }
}

fn reference(
    suite_dir: &Path,
    out: &Path,
    tasks: &[String],
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let suite = Suite::load(suite_dir)
        .with_context(|| format!("cannot load suite {}", suite_dir.display()))?;
    let dbs: Vec<String> = if tasks.is_empty() {
        suite
            .tasks()
            .map(|t| t.db.clone())
            .filter(|db| eltbench_score::reference::has_reference_data(&suite, db))
            .collect()
    } else {
        tasks.to_vec()
    };
    if dbs.is_empty() {
        return Err(BadInput(format!(
            "no task of {} has a data/ directory",
            suite_dir.display()
        ))
        .into());
    }
    let mut builds = Vec::with_capacity(dbs.len());
    for db in &dbs {
        let build =
            eltbench_score::reference::build_reference(&suite, db, out).map_err(user_error)?;
        printer.info(&format!(
            "built {}: {} source tables, {} models",
            build.path.display(),
            build.tables.len(),
            build.models.len()
        ));
        builds.push(build);
    }
    printer.json_out(&builds)?;
    printer.out(&format!(
        "{} reference warehouses in {}",
        builds.len(),
        out.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// One relation of a warehouse, as listed.
#[derive(Debug, Serialize)]
struct Relation {
    schema: String,
    name: String,
    kind: &'static str,
    rows: u64,
}

fn tables(path: &Path, db: Option<&str>, printer: &Printer) -> anyhow::Result<ExitCode> {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let Some(db) = db.map(str::to_string).or(stem) else {
        return Err(BadInput(format!(
            "cannot name the catalog of {}: pass --db",
            path.display()
        ))
        .into());
    };
    if !path.is_file() {
        return Err(BadInput(format!("warehouse file {} does not exist", path.display())).into());
    }
    let warehouse = DuckDbWarehouse::open(path, &db, Access::ReadOnly)?;
    let mut relations = Vec::new();
    for table in warehouse.tables()? {
        let rows = warehouse.row_count(&table)?;
        let kind = match table.kind {
            TableKind::BaseTable => "table",
            TableKind::View => "view",
            TableKind::Other => "other",
        };
        relations.push(Relation {
            schema: table.schema,
            name: table.name,
            kind,
            rows,
        });
    }
    printer.json_out(&relations)?;
    let width = relations
        .iter()
        .map(|r| r.schema.len() + r.name.len() + 1)
        .max()
        .unwrap_or(8)
        .max(8);
    printer.out(&format!("{:width$}  kind   rows", "relation"));
    for r in &relations {
        let name = format!("{}.{}", r.schema, r.name);
        printer.out(&format!("{name:width$}  {:5}  {}", r.kind, r.rows));
    }
    Ok(ExitCode::SUCCESS)
}
