//! All user-facing output goes through [`Printer`]: it knows `--quiet`,
//! `--json` and whether stderr is a terminal.

#![allow(clippy::print_stdout)]

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use crate::cli::GlobalArgs;

/// Writes results to stdout and messages to stderr.
#[derive(Debug, Clone)]
pub struct Printer {
    json: bool,
    quiet: bool,
    stderr_is_terminal: bool,
}

/// Marks an error as the user's input being wrong (exit code 2), as opposed
/// to something breaking (exit code 1).
#[derive(Debug)]
pub struct BadInput(pub String);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// A library error that knows whether the user's input caused it.
pub trait InputError: std::error::Error + Send + Sync + 'static {
    /// Whether the input was wrong (exit 2) rather than something breaking.
    fn input_was_bad(&self) -> bool;
}

macro_rules! input_errors {
    ($($t:ty),* $(,)?) => {
        $(impl InputError for $t {
            fn input_was_bad(&self) -> bool {
                self.is_bad_input()
            }
        })*
    };
}

input_errors!(
    eltbench_score::ScoreError,
    eltbench_synth::SynthError,
    eltbench_sources::env::EnvError,
    eltbench_author::AuthorError,
    eltbench_trial::TrialError,
);

/// `err` with its message, kept recognisable as bad input (exit 2) when it is.
pub fn user_error<E: InputError>(err: E) -> anyhow::Error {
    if err.input_was_bad() {
        anyhow::Error::new(BadInput(err.to_string()))
    } else {
        anyhow::Error::new(err)
    }
}

/// Exit code for bad input.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for failures.
pub const EXIT_FAILURE: u8 = 1;

impl Printer {
    pub fn new(args: &GlobalArgs) -> Self {
        Self {
            json: args.json,
            quiet: args.quiet,
            stderr_is_terminal: std::io::stderr().is_terminal(),
        }
    }

    /// Whether results go out as JSON.
    pub fn is_json(&self) -> bool {
        self.json
    }

    /// Whether `--quiet` asked for no progress or status output.
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// Whether stderr is an interactive terminal (progress bars, colours).
    #[allow(dead_code)]
    pub fn is_terminal(&self) -> bool {
        self.stderr_is_terminal && std::env::var_os("NO_COLOR").is_none()
    }

    /// A human-readable result on stdout (suppressed by `--quiet` and `--json`).
    pub fn out(&self, text: &str) {
        if !self.quiet && !self.json {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{text}");
        }
    }

    /// A machine-readable result on stdout (only with `--json`).
    pub fn json_out<T: serde::Serialize>(&self, value: &T) -> anyhow::Result<()> {
        if self.json {
            let text = serde_json::to_string_pretty(value)?;
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{text}")?;
        }
        Ok(())
    }

    /// A progress or status line on stderr (suppressed by `--quiet`).
    pub fn info(&self, text: &str) {
        if !self.quiet {
            eprintln!("{text}");
        }
    }

    /// A warning on stderr (always shown).
    pub fn warn(&self, text: &str) {
        eprintln!("warning: {text}");
    }

    /// Prints the whole cause chain and picks the exit code.
    pub fn report_error(&self, err: &anyhow::Error) -> ExitCode {
        let mut chain = err.chain();
        if let Some(first) = chain.next() {
            eprintln!("error: {first}");
        }
        for cause in chain {
            eprintln!("  caused by: {cause}");
        }
        ExitCode::from(exit_code_for(err))
    }
}

/// 2 when any error in the chain is bad input, else 1.
pub fn exit_code_for(err: &anyhow::Error) -> u8 {
    let bad_input = err.chain().any(|e| {
        e.is::<BadInput>()
            || e.downcast_ref::<eltbench_task::SuiteError>()
                .is_some_and(|e| e.is_bad_input())
    });
    if bad_input {
        EXIT_BAD_INPUT
    } else {
        EXIT_FAILURE
    }
}
