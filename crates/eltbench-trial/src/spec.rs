//! The `--agent` spec: `oracle`, `command:<shell template>` or
//! `builtin:<provider>:<model>`, parsed and checked before a job starts so
//! that an unknown agent or a missing program is bad input (exit 2), never a
//! column of failed trials.
//!
//! Checking reads `PATH` and the LLM environment variables; it never starts
//! the agent.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::TrialError;
use crate::env_vars::{self, LlmEnv};

/// Which agent runs the trials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentSpec {
    /// The task's gold solution applied through the agent's tools.
    Oracle,
    /// Any CLI agent: a `sh -c` template with `{workspace}` and `{instruction}`.
    Command { template: String },
    /// eltbench's own ReAct agent on an LLM API.
    Builtin { provider: Provider, model: String },
}

/// The LLM API of the builtin agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// OpenAI-compatible Chat Completions.
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
}

impl Provider {
    /// `openai` / `anthropic`.
    pub fn name(self) -> &'static str {
        match self {
            Self::OpenAi => "openai",
            Self::Anthropic => "anthropic",
        }
    }
}

/// Shell words that are not programs on PATH.
const SHELL_WORDS: &[&str] = &[
    ".", ":", "cd", "eval", "exec", "export", "set", "source", "true", "false", "if", "for",
    "while", "case", "{", "(",
];

impl AgentSpec {
    /// Parses `oracle`, `command:<template>`, `builtin:<provider>:<model>`.
    pub fn parse(text: &str) -> Result<Self, TrialError> {
        let text = text.trim();
        if text == "oracle" {
            return Ok(Self::Oracle);
        }
        if let Some(template) = text.strip_prefix("command:") {
            if template.trim().is_empty() {
                return Err(TrialError::spec(text, "the command template is empty"));
            }
            return Ok(Self::Command {
                template: template.trim().to_owned(),
            });
        }
        if let Some(rest) = text.strip_prefix("builtin:") {
            return parse_builtin(text, rest);
        }
        Err(TrialError::spec(
            text,
            "unknown agent; use `oracle`, `command:<shell template>` or \
             `builtin:<openai|anthropic>:<model>`",
        ))
    }

    /// Checks that the agent can start here: the command's program exists,
    /// the builtin agent's provider has what it needs.
    pub fn check(&self, spec: &str) -> Result<(), TrialError> {
        match self {
            Self::Oracle => Ok(()),
            Self::Command { template } => check_program(spec, template),
            Self::Builtin { provider, .. } => check_llm(spec, &LlmEnv::read(*provider)),
        }
    }
}

fn parse_builtin(text: &str, rest: &str) -> Result<AgentSpec, TrialError> {
    let Some((provider, model)) = rest.split_once(':') else {
        return Err(TrialError::spec(
            text,
            "expected `builtin:<openai|anthropic>:<model>`",
        ));
    };
    let provider = match provider {
        "openai" => Provider::OpenAi,
        "anthropic" => Provider::Anthropic,
        other => {
            return Err(TrialError::spec(
                text,
                format!(
                    "unknown provider `{other}`; use `openai` (any OpenAI-compatible API) or `anthropic`"
                ),
            ));
        }
    };
    if model.trim().is_empty() {
        return Err(TrialError::spec(text, "the model name is empty"));
    }
    Ok(AgentSpec::Builtin {
        provider,
        model: model.trim().to_owned(),
    })
}

/// The template's program (its first shell word), if it names one.
pub fn program_of(template: &str) -> Option<String> {
    let word = template.split_whitespace().next()?;
    let word = word.trim_matches(|c| c == '\'' || c == '"');
    let plain = !word.is_empty()
        && !word.contains(['{', '$', '=', '`', ';', '|', '&'])
        && !SHELL_WORDS.contains(&word);
    plain.then(|| word.to_owned())
}

fn check_program(spec: &str, template: &str) -> Result<(), TrialError> {
    let Some(program) = program_of(template) else {
        return Ok(());
    };
    if program.contains('/') {
        let path = Path::new(&program);
        if path.is_relative() {
            return Err(TrialError::spec(
                spec,
                format!(
                    "`{program}` is a relative path, but the agent runs in the trial workspace; \
                     give an absolute path"
                ),
            ));
        }
        return match is_executable(path) {
            true => Ok(()),
            false => Err(TrialError::spec(
                spec,
                format!("agent program `{program}` does not exist or is not executable"),
            )),
        };
    }
    match find_on_path(&program) {
        Some(_) => Ok(()),
        None => Err(TrialError::spec(
            spec,
            format!("agent program `{program}` not found on PATH"),
        )),
    }
}

/// `program` in the directories of `PATH`.
pub fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

fn check_llm(spec: &str, env: &LlmEnv) -> Result<(), TrialError> {
    let default_url = env.base_url == env_vars::default_base_url(env.provider);
    if env.api_key.is_empty() && (default_url || env.provider == Provider::Anthropic) {
        return Err(TrialError::spec(
            spec,
            format!(
                "{} is not set (the {} API needs a key)",
                env_vars::key_var(env.provider),
                env.provider.name()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_kinds() {
        assert_eq!(AgentSpec::parse("oracle").unwrap(), AgentSpec::Oracle);
        assert_eq!(
            AgentSpec::parse("builtin:openai:llama3:8b").unwrap(),
            AgentSpec::Builtin {
                provider: Provider::OpenAi,
                model: "llama3:8b".into()
            }
        );
        assert_eq!(
            AgentSpec::parse("command:claude -p {instruction}").unwrap(),
            AgentSpec::Command {
                template: "claude -p {instruction}".into()
            }
        );
    }

    #[test]
    fn rejects_unknown_agents_and_providers() {
        let err = AgentSpec::parse("gpt5").unwrap_err();
        assert!(err.is_bad_input());
        assert!(err.to_string().contains("unknown agent"), "{err}");
        let err = AgentSpec::parse("builtin:gemini:x").unwrap_err();
        assert!(
            err.to_string().contains("unknown provider `gemini`"),
            "{err}"
        );
        assert!(AgentSpec::parse("builtin:openai:").is_err());
        assert!(AgentSpec::parse("command:  ").is_err());
    }

    #[test]
    fn program_is_the_first_plain_word() {
        assert_eq!(program_of("claude -p x").as_deref(), Some("claude"));
        assert_eq!(program_of("'/opt/a b' x").as_deref(), Some("/opt/a"));
        assert_eq!(program_of("FOO=1 agent"), None);
        assert_eq!(program_of("cd {workspace} && x"), None);
    }

    #[test]
    fn missing_programs_are_bad_input() {
        let spec = AgentSpec::parse("command:no-such-agent-xyz {instruction}").unwrap();
        let err = spec.check("command:no-such-agent-xyz").unwrap_err();
        assert!(err.to_string().contains("not found on PATH"), "{err}");
        let spec = AgentSpec::parse("command:/nonexistent/agent").unwrap();
        assert!(spec.check("x").is_err());
        let spec = AgentSpec::parse("command:./agent.sh").unwrap();
        assert!(
            spec.check("x")
                .unwrap_err()
                .to_string()
                .contains("absolute")
        );
        let spec = AgentSpec::parse("command:sh -c 'exit 0'").unwrap();
        spec.check("x").unwrap();
    }
}
