//! Argument definitions (clap derive). Parsing does no I/O.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// ELT-Bench, rebuilt: run and score AI agents on end-to-end ELT pipelines.
#[derive(Debug, Parser)]
#[command(name = "eltbench", version, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand takes.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Print machine-readable JSON on stdout instead of tables.
    #[arg(long, global = true)]
    pub json: bool,
    /// Print nothing but errors (and the JSON, with --json).
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The main job on the built-in defaults: set up what is missing, run
    /// the oracle agent on every task of the built-in suite (sources,
    /// Terraform, Airbyte syncs, dbt gold models), score SRDEL and SRDT and
    /// write the report.
    Demo(crate::commands::demo::DemoArgs),
    /// Run an agent on a suite's tasks, k trials each, and score them
    /// (`--resume JOB` finishes an interrupted job).
    Run(crate::commands::run::RunArgs),
    /// Regenerate a job's terminal summary, report.md, report.html and trial pages.
    Report(crate::commands::report::ReportArgs),
    /// Serve a job's report and trajectories on 127.0.0.1 (Ctrl-C stops).
    View(crate::commands::view::ViewArgs),
    /// Install the dbt toolchain trials use (once) and report its versions.
    Setup(crate::commands::setup::SetupArgs),
    /// List, show, validate and verify the tasks of a suite; scaffold new ones.
    Tasks(TasksArgs),
    /// Import another benchmark's layout as a suite, or derive a perturbed variant.
    Suite(crate::commands::suite::SuiteArgs),
    /// The compatibility self-check on a suite without gold SQL (the
    /// ELT-Bench test bed): the stage-1 oracle on every task with data, the
    /// ground truth loaded as the model tables, both stages scored.
    Selfcheck(crate::commands::selfcheck::SelfcheckArgs),
    /// Score task warehouses against a suite: SRDEL and SRDT.
    Score(ScoreArgs),
    /// Work with task warehouses directly.
    Warehouse(WarehouseArgs),
    /// Bring a task's sources up on local ports, ask what runs, bring them down.
    Env(EnvArgs),
    /// Generate deterministic synthetic source data for tasks (a suite in --out).
    Synth(SynthArgs),
    /// Airbyte API helpers: `wait` for the sync jobs of a Terraform state.
    Airbyte(crate::commands::airbyte::AirbyteArgs),
    /// Run Terraform (the Airbyte provider 0.6.5, emulated) in the current
    /// directory; the same as invoking this binary under the name `terraform`.
    #[command(disable_help_flag = true)]
    Terraform {
        /// Terraform's own arguments (`init`, `apply -auto-approve`, ...).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// Where the suite lives.
#[derive(Debug, Clone, Args)]
pub struct SuiteArg {
    /// The suite directory (tasks/, source_row_counts.json, model_eval_keys.json...).
    #[arg(long, env = "ELTBENCH_SUITE", default_value = crate::settings::DEFAULT_SUITE)]
    pub suite: PathBuf,
}

#[derive(Debug, Args)]
pub struct TasksArgs {
    #[command(subcommand)]
    pub action: TasksAction,
}

#[derive(Debug, Subcommand)]
pub enum TasksAction {
    /// One line per task: sources, tables, models, data and ground truth present.
    List {
        #[command(flatten)]
        suite: SuiteArg,
    },
    /// Everything about one task.
    Show {
        #[command(flatten)]
        suite: SuiteArg,
        /// The task's database name (e.g. `amplitude`).
        db: String,
    },
    /// Check the whole suite; every problem is reported with file and line.
    Validate {
        #[command(flatten)]
        suite: SuiteArg,
    },
    /// Scaffold a new task from a directory of CSV files or a SQLite file.
    New(crate::commands::task_new::TaskNewArgs),
    /// Run a task's gold end to end, score it and run its testing queries.
    Verify(crate::commands::task_verify::TaskVerifyArgs),
}

/// Which numeric rule the scorer applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CompatArg {
    /// The corrected rule (sign-correct 1% band, NaN never equals a number).
    Fixed,
    /// The original scorer's rule, bugs included, to compare with published numbers.
    Original,
}

#[derive(Debug, Args)]
pub struct ScoreArgs {
    #[command(flatten)]
    pub suite: SuiteArg,
    /// Directory holding one `<db>.duckdb` warehouse file per task.
    #[arg(long)]
    pub warehouse_dir: PathBuf,
    /// Score only these tasks (comma-separated); default: every task with a warehouse file.
    #[arg(long, value_delimiter = ',')]
    pub tasks: Vec<String>,
    /// Score every task of the suite; a task without a warehouse file scores 0.
    #[arg(long, conflicts_with = "tasks")]
    pub all: bool,
    /// Comparison rule for stage 2.
    #[arg(long, value_enum, default_value = "fixed")]
    pub compat: CompatArg,
    /// Show the differing rows of every unmatched column.
    #[arg(long, short)]
    pub verbose: bool,
}

#[derive(Debug, Args)]
pub struct WarehouseArgs {
    #[command(subcommand)]
    pub action: WarehouseAction,
}

#[derive(Debug, Subcommand)]
pub enum WarehouseAction {
    /// Build reference warehouses straight from a suite's files: `data/` as the
    /// loaded source tables and `gt/` as the model tables. Scoring them must
    /// give 100%: a self-check of the suite and the scorer.
    Reference {
        #[command(flatten)]
        suite: SuiteArg,
        /// Where to write `<db>.duckdb` files.
        #[arg(long)]
        out: PathBuf,
        /// Only these tasks (comma-separated); default: every task with data.
        #[arg(long, value_delimiter = ',')]
        tasks: Vec<String>,
    },
    /// List the relations of a task warehouse with their row counts.
    Tables {
        /// The warehouse file.
        path: PathBuf,
        /// The catalog name (default: the file stem).
        #[arg(long)]
        db: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct SynthArgs {
    #[command(flatten)]
    pub suite: SuiteArg,
    /// Only these tasks (comma-separated); default: every task without `data/`.
    #[arg(long, value_delimiter = ',')]
    pub tasks: Vec<String>,
    /// Every task of the suite, including those with real data.
    #[arg(long, conflicts_with = "tasks")]
    pub all: bool,
    /// The suite directory to write (`data/`, `tasks/` links, row counts).
    #[arg(long)]
    pub out: PathBuf,
    /// At most this many rows per table.
    #[arg(long, default_value_t = 1000)]
    pub scale: u64,
    /// The exact row counts of `source_row_counts.json` (up to 129M rows a table).
    #[arg(long, conflicts_with = "scale")]
    pub full: bool,
    /// Seed of the generator: same seed, same bytes.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Tasks generated at once (default: the number of CPUs).
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Debug, Args)]
pub struct EnvArgs {
    #[command(subcommand)]
    pub action: EnvAction,
}

#[derive(Debug, Subcommand)]
pub enum EnvAction {
    /// Start every source of a task and serve in the foreground until Ctrl-C,
    /// SIGTERM or `eltbench env down --dir RUN`.
    Up(EnvUpArgs),
    /// Stop the environment running in a run directory.
    Down {
        /// The run directory given to `env up`.
        #[arg(long)]
        dir: PathBuf,
        /// Seconds to wait for a clean stop before killing.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
    },
    /// Tell what runs in a run directory (exit 0 only when everything is up).
    Status {
        /// The run directory given to `env up`.
        #[arg(long)]
        dir: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct EnvUpArgs {
    #[command(flatten)]
    pub suite: SuiteArg,
    /// The task's database name (e.g. `amplitude`).
    pub db: String,
    /// Run directory: env.json, env.sh, config.yaml and the sources' files.
    #[arg(long, default_value = "eltbench-env")]
    pub dir: PathBuf,
    /// Read `<table>.csv` files from here (or `<DIR>/<db>/`) instead of the suite's
    /// `data/<db>/`, e.g. synthetic data.
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Fixed port for PostgreSQL (default: a free port).
    #[arg(long)]
    pub postgres_port: Option<u16>,
    /// Fixed port for MongoDB.
    #[arg(long)]
    pub mongodb_port: Option<u16>,
    /// Load the MongoDB collections into this running server instead of starting one
    /// (the task's collections there are dropped and refilled). Without it, a `mongod`
    /// on PATH is started (unless ELTBENCH_MONGOD=off), else eltbench's own endpoint.
    #[arg(long, value_name = "URI")]
    pub mongodb_uri: Option<String>,
    /// Fixed port for the REST API.
    #[arg(long)]
    pub api_port: Option<u16>,
    /// Fixed port for S3.
    #[arg(long)]
    pub s3_port: Option<u16>,
    /// Fixed port for the flat-file server.
    #[arg(long)]
    pub files_port: Option<u16>,
}
