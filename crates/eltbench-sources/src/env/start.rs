//! [`Environment`]: the guard over one task's running sources, its start sequence and
//! its stop. Order of start: read every table (fail fast on bad data), check pinned
//! ports, start PostgreSQL on a thread, meanwhile fill and start MongoDB, the REST
//! API, S3 and the flat-file server, then load PostgreSQL, then write `config.yaml`,
//! `env.sh` and, last, `env.json`. Any error on the way drops the guard, which stops
//! everything started so far.

use std::path::{Path, PathBuf};
use std::time::Duration;

use eltbench_task::{Suite, Task};
use tokio::runtime::{Handle, Runtime};
use tokio::signal::unix::{Signal, SignalKind, signal};

use super::endpoints::{EnvRecord, write_atomic};
use super::pending::PendingPg;
use super::{CONFIG_YAML, ENV_JSON, ENV_SH, EnvError, EnvOptions, Progress, data, launch, status};
use crate::http::HttpServer;
use crate::postgres::{PgCluster, procs};

/// Worker threads of the environment's runtime (the HTTP and S3 endpoints).
const WORKER_THREADS: usize = 2;
/// How long a stop waits for runtime tasks to finish.
const RUNTIME_STOP: Duration = Duration::from_secs(5);
/// Sub-directories of the run directory this module creates (and may clear).
const OWNED_DIRS: [&str; 4] = ["postgres", "mongod", "s3", "files"];

/// A running environment. Stopping or dropping it stops every source it started.
#[derive(Debug)]
pub struct Environment {
    pub(super) runtime: Option<Runtime>,
    pub(super) http: Vec<HttpServer>,
    pub(super) s3: Option<eltbench_s3::S3Server>,
    pub(super) mongo: Option<eltbench_mongo::MongoServer>,
    pub(super) mongod: Option<super::mongod::Mongod>,
    pub(super) pg: Option<PgCluster>,
    pub(super) record: EnvRecord,
    signals: Option<(Signal, Signal)>,
}

impl Environment {
    /// Brings up every source of task `db` as `opts` says. Blocking.
    pub fn start(suite: &Suite, db: &str, opts: EnvOptions) -> Result<Self, EnvError> {
        let task = find_task(suite, db)?;
        let run_dir = prepare_run_dir(&opts.run_dir)?;
        launch::check_pinned_ports(task, &opts.ports)?;
        let catalog = data::catalog(suite)?;
        let streams = data::streams(suite)?;
        let dir = data::data_dir(suite, db, opts.data_dir.as_deref());
        let tables = data::read_tables(task, &dir, catalog.as_ref())?;
        opts.report(Progress::TablesRead {
            tables: tables.tables.len(),
            rows: tables.rows(),
        });
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(WORKER_THREADS)
            .thread_name("eltbench-env")
            .enable_all()
            .build()
            .map_err(EnvError::Runtime)?;
        let pending = match task.config.postgres {
            Some(_) => Some(PendingPg::spawn(
                run_dir.join("postgres"),
                opts.ports.postgres,
            )?),
            None => None,
        };
        let mut env = Self {
            runtime: Some(runtime),
            http: Vec::new(),
            s3: None,
            mongo: None,
            mongod: None,
            pg: None,
            record: new_record(suite, db, &run_dir),
            signals: None,
        };
        if opts.catch_signals {
            env.catch_signals()?;
        }
        let ctx = launch::Ctx {
            task,
            tables: &tables,
            run_dir: &run_dir,
            opts: &opts,
        };
        env.launch_mongo(&ctx)?;
        env.launch_rest(&ctx, &streams)?;
        env.launch_s3(&ctx)?;
        env.launch_files(&ctx)?;
        if let Some(pending) = pending {
            env.launch_postgres(&ctx, pending.wait()?)?;
        }
        env.write_run_files(task)?;
        Ok(env)
    }

    /// What is running where (as written to `env.json`).
    pub fn record(&self) -> &EnvRecord {
        &self.record
    }

    /// The run directory (canonical).
    pub fn run_dir(&self) -> &Path {
        &self.record.run_dir
    }

    pub(super) fn handle(&self) -> Result<Handle, EnvError> {
        self.runtime
            .as_ref()
            .map(|rt| rt.handle().clone())
            .ok_or_else(|| EnvError::Thread("the environment is stopped".into()))
    }

    /// Installs SIGINT/SIGTERM handlers for [`Environment::wait_for_signal`]. Call it
    /// right after start, before anyone may signal the process: from then on these
    /// signals no longer end the process by themselves.
    pub fn catch_signals(&mut self) -> Result<(), EnvError> {
        let handle = self.handle()?;
        let _entered = handle.enter();
        let term = signal(SignalKind::terminate()).map_err(EnvError::Signal)?;
        let int = signal(SignalKind::interrupt()).map_err(EnvError::Signal)?;
        self.signals = Some((term, int));
        Ok(())
    }

    /// Serves until SIGTERM or SIGINT arrives (see [`Environment::catch_signals`]) or the
    /// PostgreSQL server exits; returns which. Blocking.
    pub fn wait_for_signal(&mut self) -> Result<&'static str, EnvError> {
        if self.signals.is_none() {
            self.catch_signals()?;
        }
        let handle = self.handle()?;
        let postmaster = self.pg.as_ref().and_then(PgCluster::postmaster_pid);
        let Some((term, int)) = self.signals.as_mut() else {
            return Err(EnvError::Thread("no signal handlers".into()));
        };
        Ok(handle.block_on(async {
            tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = int.recv() => "SIGINT",
                () = watch_postmaster(postmaster) => "the PostgreSQL server exited",
            }
        }))
    }

    /// Stops every source; errors only when a PostgreSQL process survives.
    pub fn stop(mut self) -> Result<(), EnvError> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> Result<(), EnvError> {
        let Some(runtime) = self.runtime.take() else {
            return Ok(());
        };
        let http = std::mem::take(&mut self.http);
        let s3 = self.s3.take();
        let in_async = Handle::try_current().is_ok();
        if in_async {
            drop((http, s3));
        } else {
            runtime.block_on(async {
                for server in http {
                    server.stop().await;
                }
                if let Some(s3) = s3 {
                    s3.stop().await;
                }
            });
        }
        drop(self.mongo.take());
        drop(self.mongod.take());
        self.signals = None;
        let pg = self.pg.take().map(PgCluster::stop).transpose();
        if in_async {
            runtime.shutdown_background();
        } else {
            runtime.shutdown_timeout(RUNTIME_STOP);
        }
        pg?;
        Ok(())
    }

    fn write_run_files(&mut self, task: &Task) -> Result<(), EnvError> {
        let run_dir = self.record.run_dir.clone();
        let original =
            std::fs::read_to_string(task.config_path()).map_err(|e| EnvError::Record {
                path: task.config_path(),
                detail: e.to_string(),
            })?;
        let config = super::rewrite_config(&original, &self.record.endpoints).map_err(|e| {
            EnvError::Record {
                path: task.config_path(),
                detail: e.to_string(),
            }
        })?;
        write_atomic(&run_dir.join(CONFIG_YAML), config.as_bytes())?;
        write_atomic(
            &run_dir.join(ENV_SH),
            self.record.shell_exports().as_bytes(),
        )?;
        let json = serde_json::to_vec_pretty(&self.record).map_err(|e| EnvError::Record {
            path: run_dir.join(ENV_JSON),
            detail: e.to_string(),
        })?;
        write_atomic(&run_dir.join(ENV_JSON), &json)
    }
}

impl Drop for Environment {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

/// Resolves once the postmaster is gone (never, without one).
async fn watch_postmaster(pid: Option<i32>) {
    let Some(pid) = pid else {
        return std::future::pending().await;
    };
    while procs::is_alive(pid) {
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

fn find_task<'s>(suite: &'s Suite, db: &str) -> Result<&'s Task, EnvError> {
    suite.task(db).ok_or_else(|| {
        let near = suite.near_task_names(db);
        let hint = if near.is_empty() {
            String::new()
        } else {
            format!(" (did you mean {}?)", near.join(", "))
        };
        EnvError::UnknownTask {
            db: db.to_owned(),
            hint,
        }
    })
}

fn new_record(suite: &Suite, db: &str, run_dir: &Path) -> EnvRecord {
    let pid = std::process::id();
    EnvRecord {
        db: db.to_owned(),
        suite: suite.root().to_path_buf(),
        run_dir: run_dir.to_path_buf(),
        pid,
        pid_start: status::process_start(pid),
        config: run_dir.join(CONFIG_YAML),
        endpoints: super::Endpoints::default(),
    }
}

/// Creates the run directory; refuses one whose recorded environment still runs, and
/// clears what a dead one left (its server processes included).
fn prepare_run_dir(dir: &Path) -> Result<PathBuf, EnvError> {
    std::fs::create_dir_all(dir).map_err(|source| EnvError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    let dir = dir.canonicalize().map_err(|source| EnvError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    if let Ok(old) = EnvRecord::read(&dir)
        && status::is_same_process(old.pid, old.pid_start)
        && old.pid != std::process::id()
    {
        return Err(EnvError::AlreadyRunning { dir, pid: old.pid });
    }
    procs::kill_all_in_dir(&dir.join("postgres").join("data"), Duration::from_secs(5));
    procs::kill_all_in_dir(&dir.join("mongod"), Duration::from_secs(5));
    for name in OWNED_DIRS.iter().map(|n| dir.join(n)) {
        if name.exists() {
            std::fs::remove_dir_all(&name).map_err(|source| EnvError::Clear {
                path: name.clone(),
                source,
            })?;
        }
    }
    for file in [ENV_JSON, ENV_SH, CONFIG_YAML] {
        let _ = std::fs::remove_file(dir.join(file));
    }
    Ok(dir)
}
