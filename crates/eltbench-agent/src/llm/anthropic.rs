//! Anthropic Messages: `POST {base}/v1/messages` with `x-api-key` and
//! `anthropic-version: 2023-06-01`, the system prompt in the `system` field, usage
//! from `usage.input_tokens` / `usage.output_tokens`.
//!
//! Never sends two messages of the same role in a row (the API rejects them): they
//! are merged.

use async_trait::async_trait;
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{Value, json};

use super::http::complete_with_retry;
use super::openai::{ClientBuildError, REQUEST_TIMEOUT, http_client};
use super::retry::Failure;
use super::{ApiKey, Completion, LlmClient, LlmError, LlmRequest, Message, RetryPolicy};

/// The API version this client speaks.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

#[derive(Debug, Clone)]
pub struct AnthropicClient {
    http: reqwest::Client,
    url: String,
    key: ApiKey,
    model: String,
    retry: RetryPolicy,
}

impl AnthropicClient {
    /// `base_url` is the API host, e.g. `https://api.anthropic.com`.
    pub fn new(
        base_url: &str,
        key: ApiKey,
        model: impl Into<String>,
    ) -> Result<Self, ClientBuildError> {
        Ok(AnthropicClient {
            http: http_client(REQUEST_TIMEOUT)?,
            url: format!("{}/v1/messages", base_url.trim_end_matches('/')),
            key,
            model: model.into(),
            retry: RetryPolicy::default(),
        })
    }

    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    fn body(&self, request: &LlmRequest) -> Value {
        let mut body = json!({
            "model": self.model,
            "system": request.system,
            "messages": alternate(&request.messages),
            "max_tokens": request.max_tokens,
        });
        if let Some(t) = request.temperature {
            body["temperature"] = json!(t);
        }
        body
    }

    fn headers(&self) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            "anthropic-version",
            HeaderValue::from_static(ANTHROPIC_VERSION),
        );
        if let Ok(mut value) = HeaderValue::from_str(self.key.expose()) {
            value.set_sensitive(true);
            headers.insert("x-api-key", value);
        }
        headers
    }
}

/// Merges neighbours of the same role so roles alternate.
fn alternate(messages: &[Message]) -> Vec<Value> {
    let mut merged: Vec<Message> = Vec::new();
    for message in messages {
        match merged.last_mut() {
            Some(last) if last.role == message.role => {
                last.content.push_str("\n\n");
                last.content.push_str(&message.content);
            }
            _ => merged.push(message.clone()),
        }
    }
    merged
        .iter()
        .map(|m| json!({"role": m.role, "content": m.content}))
        .collect()
}

fn completion(body: &Value) -> Result<Completion, Failure> {
    let blocks = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| Failure::Fatal {
            status: Some(200),
            message: format!("the response has no content array: {body}"),
        })?;
    let text: Vec<&str> = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    let tokens = |field: &str| {
        body.pointer(&format!("/usage/{field}"))
            .and_then(Value::as_u64)
    };
    Ok(Completion {
        text: text.join(""),
        input_tokens: tokens("input_tokens").unwrap_or(0),
        output_tokens: tokens("output_tokens").unwrap_or(0),
        retries: 0,
    })
}

#[async_trait]
impl LlmClient for AnthropicClient {
    fn provider(&self) -> &str {
        "anthropic"
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

    #[test]
    fn same_role_neighbours_are_merged() {
        let merged = alternate(&[
            Message::user("a"),
            Message::user("b"),
            Message::assistant("c"),
        ]);
        assert_eq!(
            merged,
            vec![
                json!({"role":"user","content":"a\n\nb"}),
                json!({"role":"assistant","content":"c"})
            ]
        );
    }

    #[test]
    fn text_blocks_are_joined_and_usage_read() {
        let body = json!({"content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"Thought: x"}],
                          "usage":{"input_tokens":10,"output_tokens":2}});
        let c = completion(&body).unwrap();
        assert_eq!(
            (c.text.as_str(), c.input_tokens, c.output_tokens),
            ("Thought: x", 10, 2)
        );
    }
}
