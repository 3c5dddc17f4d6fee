//! The `terraform` subcommands: argument parsing, dispatch, and the steps
//! they share (initialization check, loading and validating the
//! configuration, variables, the provider's API client, refresh).

mod apply;
mod fmt;
mod init;
mod output;
mod plan;
mod show;
mod state_list;
mod validate;
mod version;

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use crate::client::{Auth, Client, Verb};
use crate::config::{self, Module};
use crate::diagnostics::{self, Diagnostic, Sources};
use crate::eval::Scope;
use crate::lockfile;
use crate::state::State;
use crate::value::Value;
use crate::vars::{self, VarArg};

/// The process context a command runs in.
pub struct Io<'a> {
    pub cwd: PathBuf,
    pub env: &'a BTreeMap<String, String>,
    pub stdin: &'a mut dyn BufRead,
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
}

impl Io<'_> {
    pub(crate) fn print(&mut self, s: &str) {
        let _ = self.out.write_all(s.as_bytes());
    }

    pub(crate) fn diags(&mut self, diags: &[Diagnostic], sources: &Sources) {
        let (errors, warnings): (Vec<_>, Vec<_>) =
            diags.iter().cloned().partition(Diagnostic::is_error);
        if !warnings.is_empty() {
            let _ = self
                .out
                .write_all(diagnostics::render(&warnings, sources).as_bytes());
        }
        if !errors.is_empty() {
            let _ = self
                .err
                .write_all(diagnostics::render(&errors, sources).as_bytes());
        }
    }

    /// Terraform's approval prompt; true only for "yes".
    pub(crate) fn confirm(&mut self, question: &str, explain: &str) -> bool {
        self.print(&format!("\n{question}\n{explain}\n\n  Enter a value: "));
        let _ = self.out.flush();
        let mut line = String::new();
        let _ = self.stdin.read_line(&mut line);
        self.print("\n");
        line.trim() == "yes"
    }
}

/// Flags common to the commands, parsed Terraform-style (`-x`, `-x=v`, `-x v`).
#[derive(Debug, Default)]
pub(crate) struct Flags {
    pub auto_approve: bool,
    pub json: bool,
    pub check: bool,
    pub raw: bool,
    pub destroy: bool,
    pub detailed_exitcode: bool,
    pub vars: Vec<VarArg>,
    pub positional: Vec<String>,
}

const IGNORED_FLAGS: &[&str] = &[
    "input",
    "no-color",
    "lock",
    "lock-timeout",
    "refresh",
    "compact-warnings",
    "upgrade",
    "reconfigure",
    "parallelism",
    "recursive",
    "diff",
    "list",
    "write",
    "backend",
    "get",
    "migrate-state",
    "out",
];

pub(crate) fn parse_flags(args: &[String]) -> Result<Flags, String> {
    let mut f = Flags::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(flag) = a
            .strip_prefix("--")
            .or_else(|| a.strip_prefix('-'))
            .filter(|_| a.len() > 1)
        else {
            f.positional.push(a.clone());
            continue;
        };
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        let mut take = || {
            value
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("flag needs an argument: -{name}"))
        };
        match name {
            "auto-approve" => f.auto_approve = value.as_deref() != Some("false"),
            "json" => f.json = true,
            "check" => f.check = true,
            "raw" => f.raw = true,
            "destroy" => f.destroy = true,
            "detailed-exitcode" => f.detailed_exitcode = true,
            "var" => f.vars.push(VarArg::Var(take()?)),
            "var-file" => f.vars.push(VarArg::File(take()?)),
            n if IGNORED_FLAGS.contains(&n) => {}
            _ => return Err(format!("flag provided but not defined: -{name}")),
        }
    }
    Ok(f)
}

const USAGE: &str = "Usage: terraform [global options] <subcommand> [args]

The available commands for execution are listed below.
The primary workflow commands are given first, followed by
less common or more advanced commands.

Main commands:
  init          Prepare your working directory for other commands
  validate      Check whether the configuration is valid
  plan          Show changes required by the current configuration
  apply         Create or update infrastructure
  destroy       Destroy previously-created infrastructure

All other commands:
  fmt           Reformat your configuration in the standard style
  output        Show output values from your root module
  show          Show the current state or a saved plan
  state         Advanced state management
  version       Show the current Terraform version
";

pub fn dispatch(mut args: Vec<String>, io: &mut Io) -> i32 {
    while let Some(first) = args.first() {
        if let Some(dir) = first.strip_prefix("-chdir=") {
            io.cwd = io.cwd.join(dir);
            args.remove(0);
        } else if first == "-v" || first == "-version" || first == "--version" {
            args[0] = "version".into();
        } else {
            break;
        }
    }
    let Some(cmd) = args.first().cloned() else {
        io.print(USAGE);
        return 127;
    };
    let rest = &args[1..];
    let flags = match parse_flags(rest) {
        Ok(f) => f,
        Err(msg) => {
            let _ = writeln!(
                io.err,
                "╷\n│ Error: Failed to parse command-line flags\n│ \n│ {msg}\n╵"
            );
            return 1;
        }
    };
    match cmd.as_str() {
        "init" => init::run(io),
        "validate" => validate::run(io),
        "plan" => plan::run(io, &flags),
        "apply" => apply::run(io, &flags, false),
        "destroy" => apply::run(io, &flags, true),
        "show" => show::run(io, &flags),
        "output" => output::run(io, &flags),
        "state" if flags.positional.first().map(String::as_str) == Some("list") => {
            state_list::run(io)
        }
        "fmt" => fmt::run(io, &flags),
        "version" => version::run(io, &flags),
        other => {
            let _ = writeln!(
                io.err,
                "Terraform has no command named \"{other}\".\n\nTo see all of Terraform's top-level commands, run:\n  terraform -help\n"
            );
            1
        }
    }
}

/// The loaded, validated configuration with its sources for diagnostics.
pub(crate) struct Loaded {
    pub module: Module,
}

/// Checks initialization, loads, and validates; prints problems and returns
/// the exit code on failure.
pub(crate) fn load_validated(io: &mut Io) -> Result<Loaded, i32> {
    if let Err(d) = lockfile::check_initialized(&io.cwd) {
        io.diags(&[*d], &Sources::default());
        return Err(1);
    }
    let (module, mut diags) = config::load(&io.cwd);
    if module.resources.is_empty() && diags.is_empty() && !has_tf_files(&io.cwd) {
        diags.push(Diagnostic::error(
            "No configuration files",
            "Plan requires configuration to be present. Planning without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run plan with the -destroy option. Otherwise, create a Terraform configuration file (.tf file) and try again.",
        ));
    }
    if diagnostics::has_errors(&diags) {
        io.diags(&diags, &module.sources);
        return Err(1);
    }
    diags.extend(crate::validate::validate(&module));
    io.diags(&diags, &module.sources);
    if diagnostics::has_errors(&diags) {
        return Err(1);
    }
    Ok(Loaded { module })
}

fn has_tf_files(dir: &std::path::Path) -> bool {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .any(|e| e.file_name().to_string_lossy().ends_with(".tf"))
        })
        .unwrap_or(false)
}

/// Resolves variables (printing problems).
pub(crate) fn variables(
    io: &mut Io,
    l: &Loaded,
    flags: &Flags,
) -> Result<BTreeMap<String, Value>, i32> {
    let (vals, diags) = vars::resolve(&l.module, &io.cwd, &flags.vars, io.env);
    io.diags(&diags, &l.module.sources);
    if diagnostics::has_errors(&diags) {
        return Err(1);
    }
    Ok(vals)
}

/// The provider's API client from the `provider "airbyte"` block.
pub(crate) fn provider_client(
    io: &mut Io,
    l: &Loaded,
    vars: &BTreeMap<String, Value>,
) -> Result<Client, i32> {
    let mut scope = Scope {
        vars: vars.clone(),
        ..Scope::default()
    };
    let mut diags = Vec::new();
    crate::vars::eval_locals(&l.module, &mut scope, &mut diags);
    let mut get = |name: &str| -> Option<String> {
        let block = l
            .module
            .providers
            .iter()
            .find(|p| p.labels[0] == "airbyte")?;
        let a = block.body.attribute(name)?;
        match scope.eval(&a.expr) {
            Ok(v) => v.to_string_lossy(),
            Err(d) => {
                diags.push(*d);
                None
            }
        }
    };
    let server_url = get("server_url");
    let auth = Auth {
        username: get("username"),
        password: get("password"),
        bearer: get("bearer_auth"),
    };
    if diagnostics::has_errors(&diags) {
        io.diags(&diags, &l.module.sources);
        return Err(1);
    }
    Ok(Client::new(server_url.as_deref(), auth))
}

/// Reads each managed object back (GET); objects the API no longer has
/// (404) are dropped from state, as the provider's Read does.
pub(crate) fn refresh(
    io: &mut Io,
    client: &Client,
    state: &mut State,
) -> Result<(), Box<Diagnostic>> {
    let mut gone = Vec::new();
    for (addr, r, i) in state.instances() {
        let Some(schema) = crate::schema::resource(&r.type_name) else {
            continue;
        };
        let Some(id) = i.attributes.get(schema.id_attr()).and_then(|v| v.as_str()) else {
            continue;
        };
        io.print(&format!("{addr}: Refreshing state...\n"));
        match client.call(
            Verb::Get,
            &format!("{}/{id}", schema.collection()),
            None,
            &[403, 404],
        ) {
            Ok(_) => {}
            Err(d) if d.summary.ends_with("response code 404") => {
                gone.push((r.type_name.clone(), r.name.clone(), i.index_key.clone()))
            }
            Err(d) => return Err(Box::new(d.with_address(addr))),
        }
    }
    for (t, n, k) in gone {
        for r in state
            .resources
            .iter_mut()
            .filter(|r| r.type_name == t && r.name == n)
        {
            r.instances.retain(|i| i.index_key != k);
        }
        state.resources.retain(|r| !r.instances.is_empty());
    }
    Ok(())
}

/// What `plan` and `apply` start from: the validated configuration, its
/// variables, the provider's API client and the current state, not yet
/// refreshed. Each error has been printed; `Err` holds the exit code.
pub(crate) struct Prepared {
    pub loaded: Loaded,
    pub vars: BTreeMap<String, Value>,
    pub client: Client,
    pub state: State,
}

pub(crate) fn prepare(io: &mut Io, flags: &Flags) -> Result<Prepared, i32> {
    let loaded = load_validated(io)?;
    let vars = variables(io, &loaded, flags)?;
    let client = provider_client(io, &loaded, &vars)?;
    let state = load_state(io)?;
    Ok(Prepared {
        loaded,
        vars,
        client,
        state,
    })
}

pub(crate) fn load_state(io: &mut Io) -> Result<State, i32> {
    match State::load(&io.cwd) {
        Ok(s) => Ok(s.unwrap_or_default()),
        Err(e) => {
            let d = Diagnostic::error("Failed to load state", e.to_string());
            io.diags(&[d], &Sources::default());
            Err(1)
        }
    }
}
