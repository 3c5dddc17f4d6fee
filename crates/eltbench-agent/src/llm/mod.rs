//! Language-model providers behind one trait ([`LlmClient`]): OpenAI-compatible
//! Chat Completions (OpenAI, vLLM, llama.cpp, Ollama, OpenRouter, DeepSeek) and
//! Anthropic Messages, with retries ([`RetryPolicy`]) and a price table
//! ([`PriceTable`]).
//!
//! The API key lives only inside a client ([`ApiKey`]); nothing outside this module
//! ever sees it, and clients redact it from every message they return.

mod anthropic;
mod http;
mod key;
mod openai;
mod price;
mod retry;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

pub use anthropic::AnthropicClient;
pub use key::{ApiKey, REDACTED};
pub use openai::{ClientBuildError, OpenAiClient};
pub use price::{Price, PriceError, PriceTable};
pub use retry::RetryPolicy;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

impl Message {
    pub fn user(content: impl Into<String>) -> Self {
        Message {
            role: Role::User,
            content: content.into(),
        }
    }

    pub fn assistant(content: impl Into<String>) -> Self {
        Message {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// One completion request: a system prompt and a conversation that starts with a
/// user message and alternates.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmRequest {
    pub system: String,
    pub messages: Vec<Message>,
    pub max_tokens: u32,
    pub temperature: Option<f32>,
}

/// The model's reply and what it used.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    pub text: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Failed attempts before this one succeeded.
    pub retries: u32,
}

/// A request that failed for good (after retries, or at once when not retryable).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{url}: {}{message} (after {attempts} attempt(s))", status.map(|s| format!("HTTP {s}: ")).unwrap_or_default())]
pub struct LlmError {
    pub url: String,
    /// The HTTP status of the last attempt; `None` for connection errors.
    pub status: Option<u16>,
    pub message: String,
    pub attempts: u32,
}

/// A chat model behind some API.
#[async_trait]
pub trait LlmClient: Send + Sync {
    /// `openai` or `anthropic` (recorded in trajectories).
    fn provider(&self) -> &str;

    /// The model name sent with every request (and used to look up its price).
    fn model(&self) -> &str;

    /// One completion, retried per the client's policy.
    async fn complete(&self, request: &LlmRequest) -> Result<Completion, LlmError>;

    /// `text` with every secret this client holds replaced by [`REDACTED`].
    fn redact(&self, text: &str) -> String {
        text.to_owned()
    }
}
