//! TEST DOUBLE of eltbench's own Airbyte API server (crate eltbench-airbyte,
//! being built in parallel): just enough of the public API v1 (sources,
//! destinations, connections: create/get/put/patch/delete, Basic auth) to
//! drive plan/apply/destroy, plus a log of every request. Replace with the
//! real eltbench-airbyte server once it lands.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

pub const USER: &str = "airbyte";
pub const PASSWORD: &str = "password";

#[derive(Default)]
struct Store {
    next: u64,
    objects: BTreeMap<String, BTreeMap<String, Value>>,
    log: Vec<(String, String, Value)>,
}

#[derive(Clone)]
pub struct FakeAirbyte {
    store: Arc<Mutex<Store>>,
    pub url: String,
}

impl FakeAirbyte {
    /// Starts the server on 127.0.0.1 (free port) in a background thread.
    pub fn start() -> FakeAirbyte {
        let store = Arc::new(Mutex::new(Store::default()));
        let app = Router::new()
            .route("/v1/{kind}", post(create))
            .route(
                "/v1/{kind}/{id}",
                get(read).put(update).patch(update).delete(remove),
            )
            .with_state(store.clone());
        let (tx, rx) = std::sync::mpsc::channel::<SocketAddr>();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind");
                tx.send(listener.local_addr().expect("addr"))
                    .expect("send addr");
                axum::serve(listener, app).await.expect("serve");
            });
        });
        let addr = rx.recv().expect("server address");
        FakeAirbyte {
            store,
            url: format!("http://{addr}/v1"),
        }
    }

    /// `(method, path, body)` of every authorized request so far.
    pub fn log(&self) -> Vec<(String, String, Value)> {
        self.store.lock().expect("lock").log.clone()
    }

    pub fn object(&self, kind: &str, id: &str) -> Option<Value> {
        self.store
            .lock()
            .expect("lock")
            .objects
            .get(kind)?
            .get(id)
            .cloned()
    }

    pub fn count(&self, kind: &str) -> usize {
        self.store
            .lock()
            .expect("lock")
            .objects
            .get(kind)
            .map_or(0, BTreeMap::len)
    }

    /// Deletes an object behind Terraform's back (drift).
    pub fn forget(&self, kind: &str, id: &str) {
        if let Some(m) = self.store.lock().expect("lock").objects.get_mut(kind) {
            m.remove(id);
        }
    }
}

type Shared = Arc<Mutex<Store>>;

fn authorized(headers: &HeaderMap) -> bool {
    // "airbyte:password" in base64.
    headers.get("authorization").and_then(|v| v.to_str().ok())
        == Some("Basic YWlyYnl0ZTpwYXNzd29yZA==")
}

fn problem(status: StatusCode, detail: &str) -> Response {
    let body = json!({"status": status.as_u16(), "type": "https://reference.airbyte.com/reference/errors", "title": status.canonical_reason(), "detail": detail});
    (status, axum::Json(body)).into_response()
}

fn id_key(kind: &str) -> &'static str {
    match kind {
        "sources" => "sourceId",
        "destinations" => "destinationId",
        _ => "connectionId",
    }
}

async fn create(
    State(s): State<Shared>,
    Path(kind): Path<String>,
    m: Method,
    uri: Uri,
    h: HeaderMap,
    body: String,
) -> Response {
    if !authorized(&h) {
        return problem(StatusCode::UNAUTHORIZED, "Unauthorized");
    }
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let mut st = s.lock().expect("lock");
    st.log
        .push((m.to_string(), uri.path().to_string(), body.clone()));
    let obj = match kind.as_str() {
        "sources" => connector(&body, "sourceType", "custom"),
        "destinations" => connector(&body, "destinationType", "custom"),
        "connections" => match connection(&st, &body) {
            Ok(c) => c,
            Err(detail) => return problem(StatusCode::BAD_REQUEST, &detail),
        },
        _ => return problem(StatusCode::NOT_FOUND, "no such collection"),
    };
    st.next += 1;
    let id = format!("00000000-0000-4000-8000-{:012}", st.next);
    let mut obj = obj;
    obj[id_key(&kind)] = json!(id);
    st.objects.entry(kind).or_default().insert(id, obj.clone());
    axum::Json(obj).into_response()
}

fn connector(body: &Value, type_key: &str, fallback: &str) -> Value {
    let ty = body
        .pointer(&format!("/configuration/{type_key}"))
        .and_then(Value::as_str)
        .unwrap_or(fallback);
    json!({
        "name": body["name"],
        type_key: ty,
        "workspaceId": body["workspaceId"],
        "configuration": body["configuration"],
    })
}

fn connection(st: &Store, body: &Value) -> Result<Value, String> {
    let src = body["sourceId"].as_str().unwrap_or("");
    let dst = body["destinationId"].as_str().unwrap_or("");
    let source = st
        .objects
        .get("sources")
        .and_then(|m| m.get(src))
        .ok_or(format!("source {src} not found"))?;
    if st
        .objects
        .get("destinations")
        .and_then(|m| m.get(dst))
        .is_none()
    {
        return Err(format!("destination {dst} not found"));
    }
    let mut c = json!({
        "name": body.get("name").cloned().unwrap_or(json!("source → destination")),
        "sourceId": src,
        "destinationId": dst,
        "workspaceId": source["workspaceId"],
        "status": body.get("status").cloned().unwrap_or(json!("active")),
        "schedule": {"scheduleType": body.pointer("/schedule/scheduleType").cloned().unwrap_or(json!("manual"))},
        "dataResidency": body.get("dataResidency").cloned().unwrap_or(json!("auto")),
        "namespaceDefinition": body.get("namespaceDefinition").cloned().unwrap_or(json!("destination")),
        "nonBreakingSchemaUpdatesBehavior": body.get("nonBreakingSchemaUpdatesBehavior").cloned().unwrap_or(json!("ignore")),
        "configurations": {"streams": body.pointer("/configurations/streams").cloned().unwrap_or(json!([]))},
    });
    if let Some(p) = body.get("prefix") {
        c["prefix"] = p.clone();
    }
    Ok(c)
}

async fn read(
    State(s): State<Shared>,
    Path((kind, id)): Path<(String, String)>,
    h: HeaderMap,
) -> Response {
    if !authorized(&h) {
        return problem(StatusCode::UNAUTHORIZED, "Unauthorized");
    }
    let st = s.lock().expect("lock");
    match st.objects.get(&kind).and_then(|m| m.get(&id)) {
        Some(o) => axum::Json(o.clone()).into_response(),
        None => problem(StatusCode::NOT_FOUND, &format!("{id} not found")),
    }
}

async fn update(
    State(s): State<Shared>,
    Path((kind, id)): Path<(String, String)>,
    m: Method,
    uri: Uri,
    h: HeaderMap,
    body: String,
) -> Response {
    if !authorized(&h) {
        return problem(StatusCode::UNAUTHORIZED, "Unauthorized");
    }
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let mut st = s.lock().expect("lock");
    st.log
        .push((m.to_string(), uri.path().to_string(), body.clone()));
    let Some(obj) = st.objects.get_mut(&kind).and_then(|o| o.get_mut(&id)) else {
        return problem(StatusCode::NOT_FOUND, &format!("{id} not found"));
    };
    if let (Value::Object(target), Value::Object(patch)) = (obj, body) {
        target.extend(patch);
    }
    let obj = st.objects[&kind][&id].clone();
    axum::Json(obj).into_response()
}

async fn remove(
    State(s): State<Shared>,
    Path((kind, id)): Path<(String, String)>,
    m: Method,
    uri: Uri,
    h: HeaderMap,
) -> Response {
    if !authorized(&h) {
        return problem(StatusCode::UNAUTHORIZED, "Unauthorized");
    }
    let mut st = s.lock().expect("lock");
    st.log
        .push((m.to_string(), uri.path().to_string(), Value::Null));
    match st.objects.get_mut(&kind).and_then(|o| o.remove(&id)) {
        Some(_) => StatusCode::NO_CONTENT.into_response(),
        None => problem(StatusCode::NOT_FOUND, &format!("{id} not found")),
    }
}
