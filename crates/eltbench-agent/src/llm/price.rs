//! What a model call costs: a table of USD per million input/output tokens, kept
//! as data (`prices.json`, replaceable with [`PriceTable::from_json`]).
//!
//! An unknown model is never guessed: it costs 0 and is reported as unpriced.
//! Names match exactly or with a provider prefix (`openai/gpt-4o`), a date suffix
//! (`-2024-08-06`, `-20250929`) or `-latest`; dots count as dashes
//! (`claude-sonnet-4.5` = `claude-sonnet-4-5`).

use std::collections::BTreeMap;

use serde::Deserialize;

/// The table shipped with eltbench.
const BUILTIN: &str = include_str!("prices.json");

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct Price {
    /// USD per 1M input tokens.
    pub input: f64,
    /// USD per 1M output tokens.
    pub output: f64,
}

impl Price {
    pub fn cost(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        (input_tokens as f64 * self.input + output_tokens as f64 * self.output) / 1_000_000.0
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PriceTable {
    /// Normalised model name → price.
    models: BTreeMap<String, Price>,
}

#[derive(Debug, thiserror::Error)]
#[error("invalid price table{}: {source}", origin.as_ref().map(|o| format!(" {o}")).unwrap_or_default())]
pub struct PriceError {
    origin: Option<String>,
    source: serde_json::Error,
}

#[derive(Deserialize)]
struct PriceFile {
    models: BTreeMap<String, Price>,
}

impl PriceTable {
    /// The shipped table (see `prices.json` for the date its prices are from).
    pub fn builtin() -> Self {
        // The shipped file is checked by a unit test; an empty table is the
        // harmless fallback (every model unpriced).
        Self::from_json(BUILTIN).unwrap_or_else(|_| PriceTable {
            models: BTreeMap::new(),
        })
    }

    /// A table from JSON shaped like `prices.json`.
    pub fn from_json(text: &str) -> Result<Self, PriceError> {
        let file: PriceFile = serde_json::from_str(text).map_err(|source| PriceError {
            origin: None,
            source,
        })?;
        let models = file
            .models
            .into_iter()
            .map(|(k, v)| (normalise(&k), v))
            .collect();
        Ok(PriceTable { models })
    }

    /// A table from a JSON file.
    pub fn from_file(path: &std::path::Path) -> Result<Self, PriceError> {
        let origin = Some(path.display().to_string());
        let text = std::fs::read_to_string(path).map_err(|e| PriceError {
            origin: origin.clone(),
            source: serde_json::Error::io(e),
        })?;
        Self::from_json(&text).map_err(|e| PriceError {
            origin,
            source: e.source,
        })
    }

    pub fn lookup(&self, model: &str) -> Option<Price> {
        let name = normalise(model);
        if let Some(price) = self.models.get(&name) {
            return Some(*price);
        }
        self.models
            .iter()
            .filter(|(key, _)| {
                name.strip_prefix(key.as_str())
                    .is_some_and(is_version_suffix)
            })
            .max_by_key(|(key, _)| key.len())
            .map(|(_, price)| *price)
    }

    /// The cost of one call, or `None` when the model is not in the table.
    pub fn cost(&self, model: &str, input_tokens: u64, output_tokens: u64) -> Option<f64> {
        self.lookup(model)
            .map(|p| p.cost(input_tokens, output_tokens))
    }
}

fn normalise(model: &str) -> String {
    let base = model.rsplit('/').next().unwrap_or(model);
    base.trim().to_ascii_lowercase().replace('.', "-")
}

/// `-latest`, or dashes and digits whose first number has at least four digits
/// (a year or a yyyymmdd date).
fn is_version_suffix(rest: &str) -> bool {
    if rest == "-latest" {
        return true;
    }
    let Some(body) = rest.strip_prefix('-') else {
        return false;
    };
    let first = body.split('-').next().unwrap_or("");
    first.len() >= 4 && body.chars().all(|c| c.is_ascii_digit() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_table_parses_and_has_a_dozen_models() {
        let table = PriceTable::from_json(BUILTIN).unwrap();
        assert!(table.models.len() >= 12);
        assert_eq!(table, PriceTable::builtin());
    }

    #[test]
    fn names_match_with_prefixes_dates_and_dots_but_not_siblings() {
        let t = PriceTable::builtin();
        assert_eq!(t.lookup("gpt-4o").unwrap().input, 2.5);
        assert_eq!(t.lookup("gpt-4o-2024-08-06").unwrap().input, 2.5);
        assert_eq!(t.lookup("gpt-4o-mini-2024-07-18").unwrap().input, 0.15);
        assert_eq!(t.lookup("openai/gpt-4.1").unwrap().input, 2.0);
        assert_eq!(
            t.lookup("anthropic/claude-sonnet-4.5").unwrap().output,
            15.0
        );
        assert_eq!(t.lookup("claude-sonnet-4-5-20250929").unwrap().output, 15.0);
        assert_eq!(t.lookup("claude-3-5-sonnet-latest").unwrap().input, 3.0);
        assert!(t.lookup("gpt-4.1-nano").is_none());
        assert!(t.lookup("Qwen/Qwen2.5-Coder-32B-Instruct").is_none());
    }

    #[test]
    fn cost_is_per_million_tokens() {
        let t = PriceTable::builtin();
        let cost = t.cost("gpt-4o", 100_000, 10_000).unwrap();
        assert!((cost - 0.35).abs() < 1e-12, "{cost}");
        assert_eq!(t.cost("my-local-model", 1, 1), None);
    }

    #[test]
    fn bad_tables_are_reported() {
        let err = PriceTable::from_json("{\"models\": {\"m\": {\"input\": \"x\"}}}").unwrap_err();
        assert!(err.to_string().starts_with("invalid price table: "));
    }
}
