//! What one dbt invocation did ([`DbtOutcome`]) and, when it failed, what kind
//! of failure it was ([`ErrorKind`]), for the harness and the error taxonomy.
//!
//! dbt-duckdb reports SQL errors raised by DuckDB as "Runtime Error in model"
//! (other adapters say "Database Error"); Jinja, `ref` and macro errors are
//! "Compilation Error". Errors that stop dbt before any node runs (a Jinja
//! syntax error, a `ref` to a missing model, a broken YAML file, a missing
//! profile) write no `run_results.json`: they are read from the log after
//! "Encountered an error:". Pure functions over text; no I/O here.

use std::time::Duration;

use serde::{Serialize, Serializer};

use crate::results::NodeResult;

/// The kind of a dbt failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Jinja, `ref`/`source` or macro errors: the SQL could not be rendered.
    Compilation,
    /// The rendered SQL failed in DuckDB (binder, parser, conversion errors...).
    Database,
    /// The project could not be loaded: YAML, `dbt_project.yml`, profile, packages.
    Project,
    /// A data test ran and found failing rows (`dbt test`, `dbt build`).
    Test,
    /// dbt was stopped after the time limit.
    Timeout,
    /// Anything else (a crash, a signal, an error eltbench does not recognise).
    Other,
}

/// The failure that decided an invocation's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failure {
    pub kind: ErrorKind,
    /// The failing node's name, when one node failed.
    pub node: Option<String>,
    /// dbt's error text (first lines), without log timestamps.
    pub message: String,
}

/// One dbt invocation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DbtOutcome {
    /// The arguments after `dbt`.
    pub args: Vec<String>,
    /// The exit code (`None` when killed): 0 success, 1 a node failed, 2 dbt
    /// could not run (project or compilation error before any node ran).
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    #[serde(rename = "duration_s", serialize_with = "seconds")]
    pub duration: Duration,
    pub timed_out: bool,
    /// Whether dbt wrote `target/run_results.json` during this invocation.
    pub run_results_written: bool,
    /// The nodes of `run_results.json`, sorted by unique id.
    pub results: Vec<NodeResult>,
    /// Why the invocation failed; `None` when it succeeded.
    pub failure: Option<Failure>,
}

fn seconds<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl DbtOutcome {
    /// Whether dbt exited 0 and no node failed.
    pub fn succeeded(&self) -> bool {
        self.failure.is_none()
    }

    /// The kind of the failure, if any.
    pub fn error_kind(&self) -> Option<ErrorKind> {
        self.failure.as_ref().map(|f| f.kind)
    }

    /// The result of the node named `name` (a model's file stem).
    pub fn node(&self, name: &str) -> Option<&NodeResult> {
        self.results.iter().find(|r| r.name == name)
    }

    /// The nodes that failed themselves.
    pub fn errors(&self) -> impl Iterator<Item = &NodeResult> {
        self.results.iter().filter(|r| r.status.is_error())
    }

    /// Decides the failure from the exit code, the node results and the log.
    pub(crate) fn diagnose(&mut self) {
        self.failure = diagnose(self);
    }
}

fn diagnose(o: &DbtOutcome) -> Option<Failure> {
    if o.timed_out {
        return Some(Failure {
            kind: ErrorKind::Timeout,
            node: None,
            message: format!("dbt was stopped after {:.0} s", o.duration.as_secs_f64()),
        });
    }
    if let Some(node) = o.errors().next() {
        return Some(Failure {
            kind: node.error_kind.unwrap_or(ErrorKind::Other),
            node: Some(node.name.clone()),
            message: node.message.clone().unwrap_or_default(),
        });
    }
    if o.exit_code == Some(0) {
        return None;
    }
    let log = format!("{}\n{}", o.stdout, o.stderr);
    Some(match top_level_error(&log) {
        Some(message) => Failure {
            kind: classify_top_level(&message),
            node: None,
            message,
        },
        None => Failure {
            kind: ErrorKind::Other,
            node: None,
            message: last_lines(&log, 15),
        },
    })
}

/// The kind of a failed node's message in `run_results.json`.
pub(crate) fn classify_node_message(message: &str) -> ErrorKind {
    let head = message.trim_start();
    if head.starts_with("Compilation Error") {
        ErrorKind::Compilation
    } else if head.starts_with("Runtime Error") || head.starts_with("Database Error") {
        ErrorKind::Database
    } else {
        ErrorKind::Other
    }
}

/// The kind of an error that stopped dbt outside the run loop. A bare
/// "Runtime Error" wrapping a node's error (`dbt show`, `dbt compile`) takes
/// the node error's kind.
fn classify_top_level(message: &str) -> ErrorKind {
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty());
    let head = lines.next().unwrap_or_default();
    if head == "Runtime Error"
        && let Some(inner) = lines.next().filter(|l| l.contains(" Error in "))
    {
        return classify_node_message(inner);
    }
    if head.starts_with("Compilation Error") {
        ErrorKind::Compilation
    } else if head.starts_with("Database Error") {
        ErrorKind::Database
    } else if [
        "Parsing Error",
        "Runtime Error",
        "Dependency Error",
        "Env Error",
        "DbtProjectError",
    ]
    .iter()
    .any(|p| head.starts_with(p))
    {
        ErrorKind::Project
    } else {
        ErrorKind::Other
    }
}

/// The text after dbt's last "Encountered an error:" line, timestamps removed.
fn top_level_error(log: &str) -> Option<String> {
    let lines: Vec<&str> = log.lines().map(strip_timestamp).collect();
    let at = lines
        .iter()
        .rposition(|l| l.trim_start().starts_with("Encountered an error:"))?;
    let text: Vec<&str> = lines[at + 1..]
        .iter()
        .copied()
        .skip_while(|l| l.trim().is_empty())
        .take(20)
        .collect();
    let message = text.join("\n").trim_end().to_owned();
    (!message.is_empty()).then_some(message)
}

/// Drops dbt's `HH:MM:SS  ` log prefix.
fn strip_timestamp(line: &str) -> &str {
    let bytes = line.as_bytes();
    let stamped = bytes.len() >= 10
        && bytes[2] == b':'
        && bytes[5] == b':'
        && [0, 1, 3, 4, 6, 7]
            .iter()
            .all(|&i| bytes[i].is_ascii_digit());
    if stamped {
        line[8..].trim_start()
    } else {
        line
    }
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().map(strip_timestamp).collect();
    lines[lines.len().saturating_sub(n)..]
        .join("\n")
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::NodeStatus;

    fn outcome(code: Option<i32>, stdout: &str) -> DbtOutcome {
        DbtOutcome {
            args: vec!["run".into()],
            exit_code: code,
            stdout: stdout.into(),
            stderr: String::new(),
            duration: Duration::from_secs(3),
            timed_out: false,
            run_results_written: false,
            results: Vec::new(),
            failure: None,
        }
    }

    const JINJA: &str = "11:41:40  Running with dbt=1.11.16\n11:41:41  Registered adapter: duckdb=1.11.1\n11:41:42  Encountered an error:\nCompilation Error in model bad_jinja (models/bad_jinja.sql)\n  unexpected '}', expected ')'\n    line 1\n      select * from {{ ref('stg' }}\n";

    #[test]
    fn parse_time_jinja_error_is_compilation() {
        let mut o = outcome(Some(2), JINJA);
        o.diagnose();
        let f = o.failure.unwrap();
        assert_eq!(f.kind, ErrorKind::Compilation);
        assert!(
            f.message
                .starts_with("Compilation Error in model bad_jinja"),
            "{}",
            f.message
        );
        assert!(f.message.ends_with("{{ ref('stg' }}"), "{}", f.message);
    }

    #[test]
    fn wrapped_node_error_keeps_its_kind() {
        let log = "11:54:36  Encountered an error:\nRuntime Error\n  Runtime Error in model ranked (models/ranked.sql)\n    Catalog Error: Table with name \"stg\" does not exist\n";
        let mut o = outcome(Some(1), log);
        o.diagnose();
        assert_eq!(o.error_kind(), Some(ErrorKind::Database));
        let log = "Encountered an error:\nRuntime Error\n  Compilation Error in model m (models/m.sql)\n  'x' is undefined\n";
        let mut o = outcome(Some(1), log);
        o.diagnose();
        assert_eq!(o.error_kind(), Some(ErrorKind::Compilation));
    }

    #[test]
    fn missing_profile_is_a_project_error() {
        let log = "12:00:00  Encountered an error:\nRuntime Error\n  Could not find profile named 'shop'\n";
        let mut o = outcome(Some(2), log);
        o.diagnose();
        assert_eq!(o.error_kind(), Some(ErrorKind::Project));
    }

    #[test]
    fn node_error_wins_over_the_log() {
        let mut o = outcome(Some(1), "Done. PASS=1 ERROR=1");
        o.results.push(NodeResult {
            unique_id: "model.shop.bad".into(),
            resource_type: "model".into(),
            name: "bad".into(),
            status: NodeStatus::Error,
            message: Some("Compilation Error in model bad\n 'x' is undefined".into()),
            relation_name: None,
            execution_time: 0.0,
            error_kind: Some(ErrorKind::Compilation),
        });
        o.diagnose();
        let f = o.failure.unwrap();
        assert_eq!(
            (f.kind, f.node.as_deref()),
            (ErrorKind::Compilation, Some("bad"))
        );
    }

    #[test]
    fn success_and_unknown_failures() {
        let mut ok = outcome(Some(0), "Done. PASS=2");
        ok.diagnose();
        assert!(ok.succeeded());
        let mut killed = outcome(None, "a\nb");
        killed.diagnose();
        assert_eq!(killed.error_kind(), Some(ErrorKind::Other));
        assert_eq!(killed.failure.unwrap().message, "a\nb");
        let mut slow = outcome(None, "");
        slow.timed_out = true;
        slow.diagnose();
        assert_eq!(slow.error_kind(), Some(ErrorKind::Timeout));
    }

    #[test]
    fn node_messages_classify() {
        assert_eq!(
            classify_node_message("Runtime Error in model x\n Binder Error"),
            ErrorKind::Database
        );
        assert_eq!(
            classify_node_message("Database Error in model x"),
            ErrorKind::Database
        );
        assert_eq!(
            classify_node_message("Compilation Error in model x"),
            ErrorKind::Compilation
        );
        assert_eq!(
            classify_node_message("Got 3 results, configured to fail if != 0"),
            ErrorKind::Other
        );
    }
}
