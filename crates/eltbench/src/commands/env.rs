//! `eltbench env up|down|status`: a task's sources on local ports for an agent or a
//! person to use. `up` serves in the foreground until Ctrl-C, SIGTERM or `env down`;
//! `down` and `status` work from the run directory's `env.json`. The sources
//! themselves live in `eltbench-sources`; this module only parses, prints and waits.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use eltbench_sources::env::{
    self as sources_env, EnvOptions, EnvRecord, EnvStatus, Environment, PortPins, Progress,
};
use eltbench_task::Suite;

use crate::cli::{EnvAction, EnvArgs, EnvUpArgs};
use crate::printer::{Printer, user_error};

pub fn run(args: EnvArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    match args.action {
        EnvAction::Up(up_args) => up(up_args, printer),
        EnvAction::Down { dir, timeout } => down(&dir, timeout, printer),
        EnvAction::Status { dir } => status(&dir, printer),
    }
}

fn up(args: EnvUpArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let suite = Suite::load(&args.suite.suite)?;
    let progress_printer = printer.clone();
    let opts = EnvOptions {
        run_dir: args.dir.clone(),
        data_dir: args.data_dir.clone(),
        ports: PortPins {
            postgres: args.postgres_port,
            mongodb: args.mongodb_port,
            custom_api: args.api_port,
            aws_s3: args.s3_port,
            flat_files: args.files_port,
        },
        progress: Some(Arc::new(move |event: &Progress| {
            report_progress(&progress_printer, event);
        })),
        catch_signals: true,
        mongodb_uri: args.mongodb_uri.clone(),
    };
    let mut env = Environment::start(&suite, &args.db, opts)
        .map_err(user_error)
        .with_context(|| format!("cannot bring up task `{}`", args.db))?;
    print_endpoints(env.record(), printer)?;
    let dir = env.run_dir().display().to_string();
    printer.info(&format!(
        "serving; stop with Ctrl-C or `eltbench env down --dir {dir}`"
    ));
    let reason = env.wait_for_signal().map_err(user_error)?;
    printer.info(&format!("{reason}: stopping every source"));
    env.stop().map_err(user_error)?;
    printer.info("stopped");
    Ok(ExitCode::SUCCESS)
}

fn report_progress(printer: &Printer, event: &Progress) {
    match event {
        Progress::TablesRead { tables, rows } => {
            printer.info(&format!("read {tables} tables ({rows} rows)"));
        }
        Progress::PostgresStarted { port, .. } => {
            printer.info(&format!(
                "PostgreSQL started on port {port}; loading tables"
            ));
        }
        Progress::SourceReady { kind, endpoint } => {
            printer.info(&format!("{kind} ready at {endpoint}"));
        }
        Progress::TableLoaded { .. } => {}
    }
}

/// Every endpoint on stdout (the whole record with `--json`).
fn print_endpoints(record: &EnvRecord, printer: &Printer) -> anyhow::Result<()> {
    printer.json_out(record)?;
    let e = &record.endpoints;
    printer.out(&format!(
        "task {} in {}",
        record.db,
        record.run_dir.display()
    ));
    if let Some(pg) = &e.postgres {
        printer.out(&format!(
            "  postgres    postgresql://{}:{}@{}:{}/{} (schema {}, {} tables)",
            pg.user,
            pg.password,
            pg.host,
            pg.port,
            pg.database,
            pg.schema,
            pg.tables.len()
        ));
    }
    if let Some(m) = &e.mongodb {
        let n = m.collections.len();
        printer.out(&format!(
            "  mongodb     {} (database {}, {n} collections, served by {})",
            m.uri, m.database, m.served_by
        ));
    }
    if let Some(api) = &e.custom_api {
        printer.out(&format!(
            "  custom_api  {} ({} routes)",
            api.base_url,
            api.urls.len()
        ));
    }
    if let Some(s3) = &e.aws_s3 {
        printer.out(&format!(
            "  aws_s3      {} (region {}, keys {}/{}, {} objects)",
            s3.endpoint_url,
            s3.region,
            s3.access_key_id,
            s3.secret_access_key,
            s3.objects.len()
        ));
    }
    if let Some(files) = &e.flat_files {
        printer.out(&format!(
            "  flat_files  {} ({} files)",
            files.base_url,
            files.urls.len()
        ));
    }
    let dir = record.run_dir.display();
    printer.out(&format!("  config      {}", record.config.display()));
    printer.out(&format!(
        "  shell       source {dir}/{}",
        sources_env::ENV_SH
    ));
    Ok(())
}

fn print_status(status: &EnvStatus, printer: &Printer) -> anyhow::Result<()> {
    printer.json_out(status)?;
    let state = |up: bool| if up { "up" } else { "down" };
    printer.out(&format!(
        "task {}: process {} {}",
        status.db,
        status.pid,
        if status.running {
            "running"
        } else {
            "not running"
        }
    ));
    if let Some(pg) = status.postgres_running {
        printer.out(&format!("  postgres server  {}", state(pg)));
    }
    for (kind, port) in &status.ports {
        printer.out(&format!(
            "  {kind:<11} port {:<5} {}",
            port.port,
            state(port.open)
        ));
    }
    Ok(())
}

fn status(dir: &Path, printer: &Printer) -> anyhow::Result<ExitCode> {
    let status = sources_env::status(dir).map_err(user_error)?;
    print_status(&status, printer)?;
    Ok(if status.all_up() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn down(dir: &Path, timeout: u64, printer: &Printer) -> anyhow::Result<ExitCode> {
    let status = sources_env::down(dir, Duration::from_secs(timeout)).map_err(user_error)?;
    print_status(&status, printer)?;
    Ok(if status.all_down() {
        printer.info("stopped");
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
