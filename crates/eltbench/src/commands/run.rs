//! `eltbench run`: an agent on a suite's tasks, `k` trials each, in a job
//! directory; `eltbench run --resume JOB` finishes an interrupted job with
//! the spec of its `job.json`. Prints the summary and the job directory.
//!
//! Arguments, the agent spec, the suite and the dbt toolchain are all
//! checked before the job starts: bad input exits 2 and creates no job.
//! The sandbox flags are stored in `job.json`; a resumed job uses the stored
//! ones (the flags given with `--resume` only for a `job.json` without them).
//! When the agents cannot be sandboxed, a warning with the reason goes to
//! stderr before the job starts.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use eltbench_harness::{JobSpec, JobSummary, Progress, SandboxSettings, ScoreRule};
use eltbench_task::Suite;
use eltbench_trial::{
    AgentTrialRunner, RunnerOptions, SandboxLimits, SandboxMode, SandboxOptions,
    expected_sandbox_mode,
};

use crate::cli::{CompatArg, SuiteArg};
use crate::printer::{BadInput, Printer, user_error};

/// `eltbench run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub suite: SuiteArg,
    /// The agent: `oracle`, `command:<shell template with {workspace} and
    /// {instruction}>`, or `builtin:<openai|anthropic>:<model>`.
    #[arg(long, required_unless_present = "resume")]
    pub agent: Option<String>,
    /// These tasks (comma-separated).
    #[arg(long, value_delimiter = ',', conflicts_with = "all")]
    pub tasks: Vec<String>,
    /// Every task of the suite that has source data (`data/<db>/`).
    #[arg(long)]
    pub all: bool,
    /// Trials per task.
    #[arg(short = 'k', default_value_t = 1)]
    pub k: u32,
    /// Trials running at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// The job directory (default: `jobs/<date>__<time>`).
    #[arg(long)]
    pub job_dir: Option<PathBuf>,
    /// Wall-clock limit of one trial (`90s`, `30m`, `1h30m`, or seconds).
    #[arg(long, default_value = "30m", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Step limit of the builtin agent.
    #[arg(long, default_value_t = 100)]
    pub max_steps: u32,
    /// Cost limit (USD) of the builtin agent.
    #[arg(long, default_value_t = 6.0)]
    pub max_cost: f64,
    /// Comparison rule for stage 2.
    #[arg(long, value_enum, default_value = "fixed")]
    pub compat: CompatArg,
    /// Memory limit of one trial's agent processes together (`4G`, `512M`).
    #[arg(long, default_value = "4G", value_parser = eltbench_trial::parse_bytes)]
    pub mem: u64,
    /// CPU-time limit of one trial's agent processes together (default:
    /// twice --timeout).
    #[arg(long, value_parser = parse_duration)]
    pub cpu_time: Option<Duration>,
    /// Processes and threads one trial's agent may have at once.
    #[arg(long, default_value_t = 512)]
    pub max_procs: u64,
    /// Disk one trial's agent may write (workspace, warehouse, /tmp).
    #[arg(long, default_value = "2G", value_parser = eltbench_trial::parse_bytes)]
    pub disk: u64,
    /// Run the agents (a command agent, the builtin agent's commands) without
    /// the sandbox (files, processes and network not isolated; limits still
    /// apply). Recorded in every trial.
    #[arg(long)]
    pub no_sandbox: bool,
    /// Resume the job in this directory (its job.json says what to run).
    #[arg(long, value_name = "JOB", conflicts_with_all = ["agent", "tasks", "all", "job_dir"])]
    pub resume: Option<PathBuf>,
}

/// Runs or resumes a job.
pub fn run(args: RunArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let (mut spec, job_dir) = match &args.resume {
        Some(dir) => (resumed_spec(dir)?, std::path::absolute(dir)?),
        None => new_job(&args)?,
    };
    spec.sandbox = Some(stored_or_flags(&spec, &args));
    let dbt = super::setup::toolchain(printer)?;
    let eltbench_bin = std::env::current_exe().context("cannot locate the eltbench executable")?;
    let sandbox = sandbox_options(&spec);
    let enabled = sandbox.enabled;
    let options = RunnerOptions {
        eltbench_bin,
        dbt,
        sandbox,
    };
    let runner = AgentTrialRunner::new(&spec, options).map_err(user_error)?;
    warn_if_unsandboxed(printer, &spec, enabled);
    printer.info(&format!(
        "job {}: agent {}, {} task(s) x {}, concurrency {}",
        job_dir.display(),
        spec.agent,
        spec.tasks.len(),
        spec.k,
        spec.concurrency
    ));
    let progress: Arc<dyn Progress> = if printer.is_quiet() {
        Arc::new(eltbench_harness::Silent)
    } else {
        eltbench_harness::progress::for_stderr()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let summary = runtime
        .block_on(eltbench_harness::run_job(
            &spec,
            Arc::new(runner),
            &job_dir,
            progress,
        ))
        .with_context(|| format!("job {}", job_dir.display()))?;
    report(printer, &summary, &job_dir)?;
    Ok(ExitCode::from(summary.exit_code()))
}

/// The settings stored in a (resumed) job's spec, else the flags.
fn stored_or_flags(spec: &JobSpec, args: &RunArgs) -> SandboxSettings {
    spec.sandbox.unwrap_or_else(|| sandbox_settings(args))
}

/// The sandbox flags as stored in the job spec.
fn sandbox_settings(args: &RunArgs) -> SandboxSettings {
    let cpu = args.cpu_time.unwrap_or(args.timeout * 2);
    SandboxSettings {
        enabled: !args.no_sandbox,
        memory_bytes: args.mem,
        cpu_seconds: cpu.as_secs().max(1),
        max_processes: args.max_procs,
        disk_write_bytes: args.disk,
    }
}

/// The job's sandbox (its stored settings, the defaults when it has none);
/// the wall limit is the trial timeout.
fn sandbox_options(spec: &JobSpec) -> SandboxOptions {
    let Some(stored) = spec.sandbox else {
        return SandboxOptions::default();
    };
    SandboxOptions {
        enabled: stored.enabled,
        limits: SandboxLimits {
            wall: spec.timeout,
            cpu_seconds: stored.cpu_seconds,
            memory_bytes: stored.memory_bytes,
            max_processes: stored.max_processes,
            disk_write_bytes: stored.disk_write_bytes,
        },
    }
}

/// A loud warning when the agent's processes will not be isolated (the
/// oracle runs no agent code).
fn warn_if_unsandboxed(printer: &Printer, spec: &JobSpec, enabled: bool) {
    if spec.agent == "oracle" {
        return;
    }
    if let SandboxMode::None { reason } = expected_sandbox_mode(enabled) {
        printer.warn(&format!(
            "AGENTS RUN UNSANDBOXED (files, processes and network are not isolated; \
             recorded in every trial): {reason}"
        ));
    }
}

fn resumed_spec(dir: &Path) -> anyhow::Result<JobSpec> {
    let file = eltbench_harness::read_job_file(&eltbench_harness::JobDir::new(dir))
        .map_err(|e| BadInput(format!("cannot resume {}: {e}", dir.display())))?;
    Ok(file.spec)
}

/// The spec and job directory of a new job, checked against the suite.
fn new_job(args: &RunArgs) -> anyhow::Result<(JobSpec, PathBuf)> {
    let agent = args.agent.clone().unwrap_or_default();
    let suite_root = std::path::absolute(&args.suite.suite)
        .with_context(|| format!("cannot resolve {}", args.suite.suite.display()))?;
    let suite = Suite::load(&suite_root)?;
    let tasks = match (args.all, args.tasks.is_empty()) {
        (true, _) => suite
            .tasks()
            .filter(|t| eltbench_score::reference::has_reference_data(&suite, &t.db))
            .map(|t| t.db.clone())
            .collect(),
        (false, false) => args.tasks.clone(),
        (false, true) => return Err(BadInput("give --tasks a,b or --all".into()).into()),
    };
    let mut spec = JobSpec::new(&suite_root, agent, tasks);
    spec.k = args.k;
    spec.concurrency = args.concurrency;
    spec.timeout = args.timeout;
    spec.max_steps = Some(args.max_steps);
    spec.max_cost_usd = Some(args.max_cost);
    spec.compat = match args.compat {
        CompatArg::Fixed => ScoreRule::Fixed,
        CompatArg::Original => ScoreRule::Original,
    };
    spec.validate().map_err(|e| BadInput(e.to_string()))?;
    eltbench_harness::check_tasks(&spec, &suite).map_err(|e| BadInput(e.to_string()))?;
    let job_dir = args.job_dir.clone().unwrap_or_else(default_job_dir);
    let job_dir = std::path::absolute(&job_dir)
        .with_context(|| format!("cannot resolve {}", job_dir.display()))?;
    Ok((spec, job_dir))
}

fn default_job_dir() -> PathBuf {
    let stamp = chrono::Local::now().format("%Y-%m-%d__%H-%M-%S");
    PathBuf::from("jobs").join(stamp.to_string())
}

fn report(printer: &Printer, summary: &JobSummary, job_dir: &Path) -> anyhow::Result<()> {
    printer.json_out(summary)?;
    let t = &summary.trials;
    printer.out(&format!(
        "SRDEL {}  SRDT {}  ({} of {} trials recorded, {} harness failures)",
        summary.score.srdel.percent(),
        summary.score.srdt.percent(),
        t.recorded,
        t.planned,
        t.harness_failures
    ));
    for (status, count) in &summary.statuses {
        printer.out(&format!("  {status}: {count}"));
    }
    match eltbench_report::write_reports(job_dir) {
        Ok((report, written)) => {
            printer.out(&eltbench_report::render_terminal(&report));
            printer.out(&format!("report: {}", written.html.display()));
            printer.out(&format!("        {}", written.markdown.display()));
        }
        Err(e) => printer.warn(&format!("no report: {e}")),
    }
    printer.out(&format!("job directory: {}", job_dir.display()));
    Ok(())
}

/// `90s`, `30m`, `2h`, `1h30m` or plain seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if let Ok(secs) = text.parse::<f64>() {
        return Duration::try_from_secs_f64(secs).map_err(|e| e.to_string());
    }
    let mut total = 0u64;
    let mut number = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return Err(format!("`{text}`: expected e.g. 90s, 30m, 1h30m")),
        };
        let n: u64 = number
            .parse()
            .map_err(|_| format!("`{text}`: a number must come before `{c}`"))?;
        total += n * unit;
        number.clear();
    }
    if !number.is_empty() || total == 0 {
        return Err(format!("`{text}`: expected e.g. 90s, 30m, 1h30m"));
    }
    Ok(Duration::from_secs(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(extra: &[&str]) -> RunArgs {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            run: RunArgs,
        }
        let base = ["eltbench", "--suite", "/s", "--resume", "/job"];
        Cli::parse_from(base.iter().chain(extra)).run
    }

    #[test]
    fn a_resumed_job_keeps_its_stored_limits() {
        let mut spec = JobSpec::new("/s", "command:true", vec!["a".into()]);
        spec.timeout = Duration::from_secs(120);
        spec.sandbox = Some(sandbox_settings(&args(&[
            "--mem",
            "300M",
            "--max-procs",
            "64",
        ])));
        // The flags given at resume time differ; the stored ones are used.
        let at_resume = args(&["--mem", "8G", "--max-procs", "999", "--no-sandbox"]);
        spec.sandbox = Some(stored_or_flags(&spec, &at_resume));
        let options = sandbox_options(&spec);
        assert!(options.enabled);
        assert_eq!(options.limits.memory_bytes, 300 << 20);
        assert_eq!(options.limits.max_processes, 64);
        assert_eq!(options.limits.wall, Duration::from_secs(120));
        // A job.json without stored settings takes the flags.
        let mut old = JobSpec::new("/s", "command:true", vec!["a".into()]);
        old.sandbox = Some(stored_or_flags(&old, &at_resume));
        let options = sandbox_options(&old);
        assert!(!options.enabled);
        assert_eq!(options.limits.memory_bytes, 8 << 30);
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("2.5"), Ok(Duration::from_millis(2500)));
        assert!(parse_duration("5x").is_err());
        assert!(parse_duration("m").is_err());
        assert!(parse_duration("0s").is_err());
    }
}
