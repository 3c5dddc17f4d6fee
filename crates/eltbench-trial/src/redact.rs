//! Redaction of the LLM API keys present in the harness's environment
//! (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`) from everything the trial runner
//! leaves in a trial directory: the agent's logs, the trajectory, the sync
//! and dbt logs, and the agent status message. Even a key an agent learned
//! some other way never reaches a report.
//!
//! Replaces exact occurrences only; never reads or writes outside the files
//! it is given.

use std::path::Path;

use crate::{TrialError, env_vars::key_var, spec::Provider};

/// What a key is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// Keys shorter than this are not redacted (they would match ordinary text).
const MIN_KEY_LEN: usize = 8;

/// The key values to redact, read from the environment now.
pub fn secrets() -> Vec<String> {
    [Provider::OpenAi, Provider::Anthropic]
        .into_iter()
        .filter_map(|p| std::env::var(key_var(p)).ok())
        .map(|v| v.trim().to_owned())
        .filter(|v| v.len() >= MIN_KEY_LEN)
        .collect()
}

/// `text` with every secret replaced by [`REDACTED`].
pub fn redact(text: &str, secrets: &[String]) -> String {
    secrets
        .iter()
        .fold(text.to_owned(), |t, s| t.replace(s.as_str(), REDACTED))
}

/// Rewrites `path` with the secrets redacted (bytes that are not UTF-8 are
/// kept as they are); a missing file is fine.
pub fn redact_file(path: &Path, secrets: &[String]) -> Result<(), TrialError> {
    if secrets.is_empty() || !path.is_file() {
        return Ok(());
    }
    let bytes = std::fs::read(path).map_err(|e| TrialError::io(path, e))?;
    let mut out = bytes.clone();
    for secret in secrets {
        out = replace_bytes(&out, secret.as_bytes(), REDACTED.as_bytes());
    }
    if out == bytes {
        return Ok(());
    }
    std::fs::write(path, out).map_err(|e| TrialError::io(path, e))
}

fn replace_bytes(haystack: &[u8], needle: &[u8], with: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut i = 0;
    while i < haystack.len() {
        if haystack[i..].starts_with(needle) {
            out.extend_from_slice(with);
            i += needle.len();
        } else {
            out.push(haystack[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_occurrence_is_replaced_in_text_and_binary_files() {
        let secrets = vec!["sk-abcdefgh123".to_owned()];
        assert_eq!(
            redact("k=sk-abcdefgh123 and sk-abcdefgh123", &secrets),
            "k=[REDACTED] and [REDACTED]"
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("agent.log");
        std::fs::write(&file, b"\xff\xfekey sk-abcdefgh123\n").unwrap();
        redact_file(&file, &secrets).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"\xff\xfekey [REDACTED]\n");
        redact_file(&dir.path().join("absent"), &secrets).unwrap();
    }
}
