//! A scripted OpenAI Chat Completions server (`POST /v1/chat/completions`)
//! on its own thread and runtime, for driving the builtin agent through the
//! real CLI: it checks the Bearer key, records each request and answers with
//! the next scripted reply (a text, or an HTTP error), then with `then`.

use std::collections::VecDeque;
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
    Text(String),
    Error(u16),
}

struct Shared {
    script: Mutex<VecDeque<Reply>>,
    then: Option<Reply>,
    requests: Mutex<Vec<Value>>,
}

pub struct MockLlm {
    base: String,
    shared: Arc<Shared>,
    _runtime: tokio::runtime::Runtime,
}

impl MockLlm {
    pub fn start(replies: Vec<Reply>, then: Option<Reply>) -> Self {
        let shared = Arc::new(Shared {
            script: Mutex::new(replies.into()),
            then,
            requests: Mutex::new(Vec::new()),
        });
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let app = Router::new()
            .route("/v1/chat/completions", post(openai))
            .with_state(Arc::clone(&shared));
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let base = format!("http://{}/v1", listener.local_addr().unwrap());
        runtime.spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        MockLlm {
            base,
            shared,
            _runtime: runtime,
        }
    }

    /// The `OPENAI_BASE_URL` to give the CLI.
    pub fn base_url(&self) -> &str {
        &self.base
    }

    /// Request bodies received so far.
    pub fn requests(&self) -> Vec<Value> {
        self.shared.requests.lock().unwrap().clone()
    }
}

async fn openai(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let Ok(body) = serde_json::from_slice::<Value>(&body) else {
        return error(400, "We could not parse the JSON body of your request.");
    };
    shared.requests.lock().unwrap().push(body.clone());
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if auth != format!("Bearer {KEY}") {
        return error(401, "Incorrect API key provided.");
    }
    if !body["messages"].is_array() || !body["model"].is_string() {
        return error(400, "model and messages are required");
    }
    let next = shared.script.lock().unwrap().pop_front();
    match next.or_else(|| shared.then.clone()) {
        Some(Reply::Text(text)) => {
            let reply = json!({
                "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": body["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
            });
            (StatusCode::OK, axum::Json(reply)).into_response()
        }
        Some(Reply::Error(status)) => error(status, "The server had an error."),
        None => error(500, "script exhausted"),
    }
}

fn error(status: u16, message: &str) -> Response {
    let body = json!({"error": {"message": message, "type": "server_error", "code": null}});
    (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response()
}
