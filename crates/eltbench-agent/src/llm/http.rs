//! One JSON POST to a model API, classified into success, a retryable failure or
//! a fatal one.
//!
//! Never logs or returns request headers (they carry the key).

use reqwest::header::HeaderMap;
use serde_json::Value;

use super::retry::{Failure, is_retryable_status, retry_after};
use super::{ApiKey, Completion, LlmError, RetryPolicy};

/// One completion call as both providers make it: POST `body` to `url` under
/// `retry`, parse each reply with `parse`, count the retries, and keep the key
/// out of the final error message.
pub(crate) async fn complete_with_retry(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    body: &Value,
    retry: &RetryPolicy,
    key: &ApiKey,
    parse: fn(&Value) -> Result<Completion, Failure>,
) -> Result<Completion, LlmError> {
    let attempt = || async {
        let response = post_json(client, url, headers.clone(), body).await?;
        parse(&response)
    };
    match retry.run(url, attempt).await {
        Ok((completion, retries)) => Ok(Completion {
            retries,
            ..completion
        }),
        Err(err) => Err(LlmError {
            message: key.redact(&err.message),
            ..err
        }),
    }
}

/// Longest error body kept in a message.
const MAX_ERROR_CHARS: usize = 2000;

pub(crate) async fn post_json(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    body: &Value,
) -> Result<Value, Failure> {
    let response = client
        .post(url)
        .headers(headers)
        .json(body)
        .send()
        .await
        .map_err(|err| Failure::Retryable {
            status: err.status().map(|s| s.as_u16()),
            message: format!("request failed: {err}"),
            retry_after: None,
        })?;
    let status = response.status().as_u16();
    let wait = retry_after(response.headers());
    let text = response.text().await.map_err(|err| Failure::Retryable {
        status: Some(status),
        message: format!("reading the response failed: {err}"),
        retry_after: None,
    })?;
    if (200..300).contains(&status) {
        return serde_json::from_str(&text).map_err(|err| Failure::Fatal {
            status: Some(status),
            message: format!("the response is not JSON ({err}): {}", clip(&text)),
        });
    }
    let message = error_message(&text);
    Err(if is_retryable_status(status) {
        Failure::Retryable {
            status: Some(status),
            message,
            retry_after: wait,
        }
    } else {
        Failure::Fatal {
            status: Some(status),
            message,
        }
    })
}

/// `error.message` from an OpenAI- or Anthropic-style error body, else the body.
fn error_message(body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let message = parsed
        .as_ref()
        .and_then(|v| v.pointer("/error/message"))
        .and_then(Value::as_str);
    clip(message.unwrap_or(body))
}

fn clip(text: &str) -> String {
    match text.char_indices().nth(MAX_ERROR_CHARS) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages_come_from_either_provider_shape() {
        assert_eq!(
            error_message(r#"{"error":{"message":"slow down","type":"x"}}"#),
            "slow down"
        );
        assert_eq!(
            error_message(
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
            ),
            "Overloaded"
        );
        assert_eq!(error_message("plain text"), "plain text");
    }
}
