//! Tokens, cost and turns of a command agent, read (best effort) from the
//! last non-empty line of its stdout when that line is a JSON object in the
//! shape Claude Code prints with `--output-format json`:
//! `{"total_cost_usd": 0.12, "num_turns": 7, "usage": {"input_tokens": ..,
//! "output_tokens": .., "cache_creation_input_tokens": .., "cache_read_input_tokens": ..}}`.
//! Also accepted: `cost_usd`, and `usage.prompt_tokens` / `completion_tokens`
//! (OpenAI style). Anything else yields nothing; it never fails.

use serde_json::Value;

/// What a command agent reported about itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CommandUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: Option<f64>,
    pub turns: Option<u64>,
}

/// The usage in `stdout`'s last line, if it reports any.
pub fn parse_usage(stdout: &str) -> Option<CommandUsage> {
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty())?;
    let doc: Value = serde_json::from_str(last.trim()).ok()?;
    let doc = doc.as_object()?;
    let number = |v: Option<&Value>| v.and_then(Value::as_u64).unwrap_or(0);
    let usage = doc.get("usage").and_then(Value::as_object);
    let field = |name: &str| number(usage.and_then(|u| u.get(name)));
    let input = field("input_tokens")
        + field("cache_creation_input_tokens")
        + field("cache_read_input_tokens")
        + field("prompt_tokens");
    let output = field("output_tokens") + field("completion_tokens");
    let cost = ["total_cost_usd", "cost_usd"]
        .iter()
        .find_map(|k| doc.get(*k).and_then(Value::as_f64));
    let turns = doc.get("num_turns").and_then(Value::as_u64);
    let found = usage.is_some() || cost.is_some() || turns.is_some();
    found.then_some(CommandUsage {
        input_tokens: input,
        output_tokens: output,
        cost_usd: cost,
        turns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_claude_code_json() {
        let out = "working...\n{\"type\":\"result\",\"num_turns\":7,\"total_cost_usd\":0.25,\
                   \"usage\":{\"input_tokens\":10,\"cache_creation_input_tokens\":5,\
                   \"cache_read_input_tokens\":100,\"output_tokens\":40}}\n\n";
        let usage = parse_usage(out).unwrap();
        assert_eq!(
            usage,
            CommandUsage {
                input_tokens: 115,
                output_tokens: 40,
                cost_usd: Some(0.25),
                turns: Some(7)
            }
        );
    }

    #[test]
    fn plain_output_reports_nothing() {
        assert_eq!(parse_usage("done\n"), None);
        assert_eq!(parse_usage("{\"result\": \"ok\"}"), None);
        assert_eq!(parse_usage(""), None);
    }
}
