//! OpenAI-compatible Chat Completions: `POST {base}/chat/completions` with a Bearer
//! key, the system prompt as the first message, usage from
//! `usage.prompt_tokens` / `usage.completion_tokens`. Works with OpenAI, vLLM,
//! llama.cpp, Ollama, OpenRouter and DeepSeek (base URLs ending in `/v1`).
//!
//! Never sends the `Authorization` header when the key is empty (local servers).

use std::time::Duration;

use async_trait::async_trait;
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use serde_json::{Value, json};

use super::http::complete_with_retry;
use super::retry::Failure;
use super::{ApiKey, Completion, LlmClient, LlmError, LlmRequest, RetryPolicy};

#[derive(Debug, Clone)]
pub struct OpenAiClient {
    http: reqwest::Client,
    url: String,
    key: ApiKey,
    model: String,
    retry: RetryPolicy,
    max_tokens_field: &'static str,
}

/// The HTTP client could not be built (TLS set-up failed).
#[derive(Debug, thiserror::Error)]
#[error("cannot build the HTTP client: {0}")]
pub struct ClientBuildError(#[from] reqwest::Error);

pub(crate) fn http_client(timeout: Duration) -> Result<reqwest::Client, ClientBuildError> {
    Ok(reqwest::Client::builder().timeout(timeout).build()?)
}

/// Requests give up (and are retried) after this long without a full answer.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(600);

impl OpenAiClient {
    /// `base_url` is the API root, e.g. `https://api.openai.com/v1` or
    /// `http://localhost:8000/v1`.
    pub fn new(
        base_url: &str,
        key: ApiKey,
        model: impl Into<String>,
    ) -> Result<Self, ClientBuildError> {
        Ok(OpenAiClient {
            http: http_client(REQUEST_TIMEOUT)?,
            url: format!("{}/chat/completions", base_url.trim_end_matches('/')),
            key,
            model: model.into(),
            retry: RetryPolicy::default(),
            max_tokens_field: "max_tokens",
        })
    }

    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Sends `max_completion_tokens` instead of `max_tokens` (OpenAI's reasoning
    /// models accept only the former).
    pub fn with_max_completion_tokens(mut self) -> Self {
        self.max_tokens_field = "max_completion_tokens";
        self
    }

    fn body(&self, request: &LlmRequest) -> Value {
        let mut messages = vec![json!({"role": "system", "content": request.system})];
        messages.extend(
            request
                .messages
                .iter()
                .map(|m| json!({"role": m.role, "content": m.content})),
        );
        let mut body = json!({"model": self.model, "messages": messages});
        body[self.max_tokens_field] = json!(request.max_tokens);
        if let Some(t) = request.temperature {
            body["temperature"] = json!(t);
        }
        body
    }

    fn headers(&self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        let bearer = HeaderValue::from_str(&format!("Bearer {}", self.key.expose()));
        if let (false, Ok(mut value)) = (self.key.is_empty(), bearer) {
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        headers
    }
}

fn completion(body: &Value) -> Result<Completion, Failure> {
    let choice = body
        .pointer("/choices/0/message")
        .ok_or_else(|| Failure::Fatal {
            status: Some(200),
            message: format!("the response has no choices[0].message: {body}"),
        })?;
    let text = choice
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let tokens = |field: &str| {
        body.pointer(&format!("/usage/{field}"))
            .and_then(Value::as_u64)
    };
    Ok(Completion {
        text: text.to_owned(),
        input_tokens: tokens("prompt_tokens").unwrap_or(0),
        output_tokens: tokens("completion_tokens").unwrap_or(0),
        retries: 0,
    })
}

#[async_trait]
impl LlmClient for OpenAiClient {
    fn provider(&self) -> &str {
        "openai"
    }

    fn model(&self) -> &str {
        &self.model
    }

    async fn complete(&self, request: &LlmRequest) -> Result<Completion, LlmError> {
        let body = self.body(request);
        complete_with_retry(
            &self.http,
            &self.url,
            self.headers(),
            &body,
            &self.retry,
            &self.key,
            completion,
        )
        .await
    }

    fn redact(&self, text: &str) -> String {
        self.key.redact(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Message;

    #[test]
    fn body_puts_the_system_prompt_first_and_names_the_token_field() {
        let client = OpenAiClient::new("http://h/v1/", ApiKey::new("k"), "m").unwrap();
        assert_eq!(client.url, "http://h/v1/chat/completions");
        let request = LlmRequest {
            system: "sys".into(),
            messages: vec![Message::user("hi")],
            max_tokens: 7,
            temperature: None,
        };
        let body = client.body(&request);
        assert_eq!(
            body["messages"][0],
            json!({"role": "system", "content": "sys"})
        );
        assert_eq!(
            body["messages"][1],
            json!({"role": "user", "content": "hi"})
        );
        assert_eq!(body["max_tokens"], 7);
        let reasoning = client.with_max_completion_tokens().body(&request);
        assert_eq!(reasoning["max_completion_tokens"], 7);
        assert!(reasoning.get("max_tokens").is_none());
    }

    #[test]
    fn usage_is_read_and_a_missing_choice_is_fatal() {
        let ok = json!({"choices":[{"message":{"role":"assistant","content":"x"}}],
                        "usage":{"prompt_tokens":3,"completion_tokens":4}});
        let c = completion(&ok).unwrap();
        assert_eq!(
            (c.text.as_str(), c.input_tokens, c.output_tokens),
            ("x", 3, 4)
        );
        assert!(matches!(completion(&json!({})), Err(Failure::Fatal { .. })));
    }
}
