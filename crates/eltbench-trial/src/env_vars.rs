//! The environment variables the trial runner reads, in one place. The LLM
//! key is read here and handed only to the HTTP client, never to an agent's
//! commands.

use crate::spec::Provider;

/// `(name, what it does)` of every variable this crate reads.
pub const ENV_VARS: &[(&str, &str)] = &[
    (
        "OPENAI_BASE_URL",
        "API root of builtin:openai (default https://api.openai.com/v1)",
    ),
    (
        "OPENAI_API_KEY",
        "key of builtin:openai (optional for local servers)",
    ),
    (
        "ANTHROPIC_BASE_URL",
        "API root of builtin:anthropic (default https://api.anthropic.com)",
    ),
    ("ANTHROPIC_API_KEY", "key of builtin:anthropic"),
    (
        MAX_RETRIES_VAR,
        "retries of a failed LLM request (default 6, exponential backoff)",
    ),
    (
        eltbench_sandbox::BWRAP_VAR,
        "the bubblewrap binary of the agents' sandbox (default: /usr/bin/bwrap...; \
         a missing file means no sandbox, with a warning)",
    ),
];

/// Retries of one LLM request.
pub const MAX_RETRIES_VAR: &str = "ELTBENCH_LLM_MAX_RETRIES";

/// What the builtin agent's client is built from.
#[derive(Clone)]
pub struct LlmEnv {
    pub provider: Provider,
    pub base_url: String,
    pub api_key: String,
    pub max_retries: Option<u32>,
}

impl std::fmt::Debug for LlmEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmEnv")
            .field("provider", &self.provider)
            .field("base_url", &self.base_url)
            .field("api_key", &"[REDACTED]")
            .field("max_retries", &self.max_retries)
            .finish()
    }
}

impl LlmEnv {
    /// Reads the variables of `provider`.
    pub fn read(provider: Provider) -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        Self {
            provider,
            base_url: var(url_var(provider)).unwrap_or_else(|| default_base_url(provider).into()),
            api_key: var(key_var(provider)).unwrap_or_default(),
            max_retries: var(MAX_RETRIES_VAR).and_then(|v| v.trim().parse().ok()),
        }
    }
}

/// The base-URL variable of `provider`.
pub fn url_var(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAi => "OPENAI_BASE_URL",
        Provider::Anthropic => "ANTHROPIC_BASE_URL",
    }
}

/// The key variable of `provider`.
pub fn key_var(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAi => "OPENAI_API_KEY",
        Provider::Anthropic => "ANTHROPIC_API_KEY",
    }
}

/// The public API root of `provider`.
pub fn default_base_url(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAi => "https://api.openai.com/v1",
        Provider::Anthropic => "https://api.anthropic.com",
    }
}
