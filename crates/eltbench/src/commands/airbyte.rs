//! `eltbench airbyte wait`: waits for the latest sync job of every connection in a
//! Terraform state, as the workspace's `check_job_status` helper does. The API URL
//! comes from `--api` or main.tf's `provider "airbyte"` block. Blocking HTTP: this
//! command must never run inside a tokio runtime.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Subcommand};
use eltbench_airbyte::wait::{WaitOptions, WaitReport, connections_in_state, wait_for};

use crate::printer::Printer;

/// Exit code for bad input (no state, no URL, API refused the request).
const EXIT_BAD_INPUT: u8 = 2;

#[derive(Debug, Args)]
pub struct AirbyteArgs {
    #[command(subcommand)]
    pub action: AirbyteAction,
}

#[derive(Debug, Subcommand)]
pub enum AirbyteAction {
    /// Wait until the latest sync job of every connection in terraform.tfstate has
    /// finished; one line per connection. Exit 0 all succeeded, 1 some failed or was
    /// cancelled, 2 bad input, 124 timeout.
    Wait(WaitArgs),
}

#[derive(Debug, Args)]
pub struct WaitArgs {
    /// The Terraform directory (main.tf, terraform.tfstate).
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,
    /// The state file (default: <DIR>/terraform.tfstate).
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// The Airbyte API base URL (default: the provider block's server_url).
    #[arg(long)]
    pub api: Option<String>,
    /// Overall time limit: `90s`, `30m`, `1h` or seconds.
    #[arg(long, default_value = "30m", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Basic-auth user (default: the provider block's, else `airbyte`).
    #[arg(long)]
    pub user: Option<String>,
    /// Basic-auth password (default: the provider block's, else `password`).
    #[arg(long)]
    pub password: Option<String>,
    /// Seconds between polls.
    #[arg(long, default_value_t = 2.0)]
    pub poll: f64,
}

/// Dispatches `eltbench airbyte ...`.
pub fn run(args: AirbyteArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    match args.action {
        AirbyteAction::Wait(args) => wait(args, printer),
    }
}

fn wait(args: WaitArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let (targets, options) = match prepare(&args) {
        Ok(prepared) => prepared,
        Err(message) => {
            eprintln!("error: {message}");
            return Ok(ExitCode::from(EXIT_BAD_INPUT));
        }
    };
    match wait_for(&targets, &options) {
        Ok(report) => {
            print_report(&report, printer)?;
            Ok(ExitCode::from(report.exit_code()))
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(EXIT_BAD_INPUT))
        }
    }
}

fn prepare(
    args: &WaitArgs,
) -> Result<(Vec<eltbench_airbyte::wait::WaitTarget>, WaitOptions), String> {
    let state = args
        .state
        .clone()
        .unwrap_or_else(|| args.dir.join("terraform.tfstate"));
    let targets = connections_in_state(&state).map_err(|e| e.to_string())?;
    let provider = provider(&args.dir, args.api.is_some())?;
    let api = args.api.clone().or(provider.server_url).ok_or_else(|| {
        format!(
            "no server_url in the provider \"airbyte\" block of {}: pass --api URL",
            args.dir.display()
        )
    })?;
    let options = WaitOptions {
        api,
        username: args
            .user
            .clone()
            .or(provider.username)
            .unwrap_or_else(|| eltbench_airbyte::DEFAULT_USERNAME.to_owned()),
        password: args
            .password
            .clone()
            .or(provider.password)
            .unwrap_or_else(|| eltbench_airbyte::DEFAULT_PASSWORD.to_owned()),
        bearer: provider.bearer_auth.filter(|_| args.user.is_none()),
        timeout: args.timeout,
        poll: Duration::from_secs_f64(args.poll.clamp(0.05, 60.0)),
    };
    Ok((targets, options))
}

/// The provider settings; with `--api` given, an unreadable main.tf is no error.
fn provider(
    dir: &Path,
    have_api: bool,
) -> Result<eltbench_terraform::provider::ProviderSettings, String> {
    let env: BTreeMap<String, String> = std::env::vars().collect();
    match eltbench_terraform::provider::provider_settings(dir, &env) {
        Ok(settings) => Ok(settings),
        Err(_) if have_api => Ok(Default::default()),
        Err(e) => Err(format!("{e}; pass --api URL")),
    }
}

fn print_report(report: &WaitReport, printer: &Printer) -> anyhow::Result<()> {
    printer.json_out(report)?;
    for outcome in &report.outcomes {
        printer.out(&outcome.line());
    }
    if report.timed_out {
        printer.warn("timed out: some sync jobs are still running");
    }
    Ok(())
}

/// `90s`, `30m`, `1h`; a bare number is seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((at, _)) => text.split_at(at),
        None => (text, "s"),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration like 90s, 30m or 1h"))?;
    let seconds = match unit {
        "s" => value,
        "m" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(format!("`{text}`: the unit must be s, m or h")),
    };
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!("`{text}` is not a positive duration"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_units() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_duration("5d").is_err());
        assert!(parse_duration("soon").is_err());
    }
}
