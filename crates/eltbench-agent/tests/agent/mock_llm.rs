//! A scripted LLM server for tests: speaks OpenAI Chat Completions
//! (`POST /v1/chat/completions`) and Anthropic Messages (`POST /v1/messages`),
//! checks each request's auth headers and shape the way the real APIs do, records
//! it, and answers with the next scripted reply.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

pub const KEY: &str = "sk-test-0123456789abcdef-SECRET";

#[derive(Debug, Clone)]
pub enum Reply {
    Text {
        text: String,
        input_tokens: u64,
        output_tokens: u64,
    },
    Error {
        status: u16,
        retry_after: Option<&'static str>,
    },
}

impl Reply {
    pub fn text(text: impl Into<String>) -> Self {
        Reply::Text {
            text: text.into(),
            input_tokens: 100,
            output_tokens: 20,
        }
    }

    pub fn priced(text: impl Into<String>, input_tokens: u64, output_tokens: u64) -> Self {
        Reply::Text {
            text: text.into(),
            input_tokens,
            output_tokens,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Recorded {
    pub provider: &'static str,
    pub headers: BTreeMap<String, String>,
    pub body: Value,
}

struct Shared {
    script: Mutex<VecDeque<Reply>>,
    /// Answered once the script is used up (none: 500 "script exhausted").
    then: Option<Reply>,
    requests: Mutex<Vec<Recorded>>,
}

pub struct MockLlm {
    base: String,
    shared: Arc<Shared>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for MockLlm {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl MockLlm {
    pub async fn start(replies: Vec<Reply>, then: Option<Reply>) -> Self {
        let shared = Arc::new(Shared {
            script: Mutex::new(replies.into()),
            then,
            requests: Mutex::new(Vec::new()),
        });
        let app = Router::new()
            .route("/v1/chat/completions", post(openai))
            .route("/v1/messages", post(anthropic))
            .with_state(Arc::clone(&shared));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        MockLlm {
            base,
            shared,
            server,
        }
    }

    pub fn openai_base(&self) -> String {
        format!("{}/v1", self.base)
    }

    pub fn anthropic_base(&self) -> String {
        self.base.clone()
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.requests.lock().unwrap().clone()
    }
}

fn record(shared: &Shared, provider: &'static str, headers: &HeaderMap, body: &Value) {
    let headers = headers
        .iter()
        .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap_or("").to_owned()))
        .collect();
    shared.requests.lock().unwrap().push(Recorded {
        provider,
        headers,
        body: body.clone(),
    });
}

fn next_reply(shared: &Shared) -> Option<Reply> {
    let popped = shared.script.lock().unwrap().pop_front();
    popped.or_else(|| shared.then.clone())
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

async fn openai(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let Ok(body) = serde_json::from_slice::<Value>(&body) else {
        return openai_error(400, "We could not parse the JSON body of your request.");
    };
    record(&shared, "openai", &headers, &body);
    let auth = header(&headers, "authorization");
    if auth != format!("Bearer {KEY}") {
        let given = auth.trim_start_matches("Bearer ");
        return openai_error(401, &format!("Incorrect API key provided: {given}."));
    }
    if let Err(problem) = check_openai(&body) {
        return openai_error(400, &problem);
    }
    match next_reply(&shared) {
        Some(Reply::Text { text, input_tokens, output_tokens }) => Json200(json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": input_tokens, "completion_tokens": output_tokens,
                      "total_tokens": input_tokens + output_tokens}
        }))
        .into_response(),
        Some(Reply::Error { status, retry_after }) => {
            with_retry_after(openai_error(status, "The server had an error."), retry_after)
        }
        None => openai_error(500, "script exhausted"),
    }
}

fn check_openai(body: &Value) -> Result<(), String> {
    let model = body["model"].as_str().filter(|m| !m.is_empty());
    model.ok_or("you must provide a model parameter")?;
    let messages = body["messages"]
        .as_array()
        .filter(|m| !m.is_empty())
        .ok_or("messages must be a non-empty array")?;
    for m in messages {
        let role = m["role"].as_str().unwrap_or("");
        if !["system", "user", "assistant"].contains(&role) || !m["content"].is_string() {
            return Err(format!("invalid message {m}"));
        }
    }
    Ok(())
}

fn openai_error(status: u16, message: &str) -> Response {
    let body =
        json!({"error": {"message": message, "type": "invalid_request_error", "code": null}});
    (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response()
}

async fn anthropic(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let Ok(body) = serde_json::from_slice::<Value>(&body) else {
        return anthropic_error(400, "invalid_request_error", "invalid JSON body");
    };
    record(&shared, "anthropic", &headers, &body);
    if header(&headers, "x-api-key") != KEY {
        return anthropic_error(401, "authentication_error", "invalid x-api-key");
    }
    if header(&headers, "anthropic-version") != "2023-06-01" {
        return anthropic_error(
            400,
            "invalid_request_error",
            "anthropic-version header is required",
        );
    }
    if let Err(problem) = check_anthropic(&body) {
        return anthropic_error(400, "invalid_request_error", &problem);
    }
    match next_reply(&shared) {
        Some(Reply::Text {
            text,
            input_tokens,
            output_tokens,
        }) => Json200(json!({
            "id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens}
        }))
        .into_response(),
        Some(Reply::Error {
            status,
            retry_after,
        }) => {
            let kind = if status == 529 {
                "overloaded_error"
            } else {
                "api_error"
            };
            with_retry_after(anthropic_error(status, kind, "Overloaded"), retry_after)
        }
        None => anthropic_error(500, "api_error", "script exhausted"),
    }
}

fn check_anthropic(body: &Value) -> Result<(), String> {
    body["model"]
        .as_str()
        .filter(|m| !m.is_empty())
        .ok_or("model: Field required")?;
    body["max_tokens"]
        .as_u64()
        .ok_or("max_tokens: Field required")?;
    if !body["system"].is_null() && !body["system"].is_string() {
        return Err("system: must be a string".into());
    }
    let messages = body["messages"]
        .as_array()
        .filter(|m| !m.is_empty())
        .ok_or("messages: at least one message is required")?;
    for (i, m) in messages.iter().enumerate() {
        let expected = if i % 2 == 0 { "user" } else { "assistant" };
        if m["role"].as_str() != Some(expected) {
            return Err(format!(
                "messages.{i}.role: roles must alternate starting with user"
            ));
        }
        if !m["content"].is_string() {
            return Err(format!("messages.{i}.content: must be a string"));
        }
    }
    Ok(())
}

fn anthropic_error(status: u16, kind: &str, message: &str) -> Response {
    let body = json!({"type": "error", "error": {"type": kind, "message": message}});
    (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response()
}

fn with_retry_after(mut response: Response, retry_after: Option<&'static str>) -> Response {
    if let Some(value) = retry_after {
        response
            .headers_mut()
            .insert("retry-after", value.parse().unwrap());
    }
    response
}

struct Json200(Value);

impl IntoResponse for Json200 {
    fn into_response(self) -> Response {
        (StatusCode::OK, axum::Json(self.0)).into_response()
    }
}
