//! `GET /workspaces` and `GET /workspaces/{id}`: the server's one workspace.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;
use serde_json::Value;

use super::{AppState, ListRequest};
use crate::errors::{ApiProblem, ApiResult};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/workspaces", get(list))
        .route("/workspaces/{id}", get(get_one))
}

async fn list(State(app): State<AppState>, request: ListRequest) -> ApiResult<Json<Value>> {
    let page = request.page()?;
    let wanted = request.query.list("workspaceIds");
    let workspace = app.store.read(|state| state.workspace.clone());
    let items = if wanted.is_empty()
        || wanted
            .iter()
            .any(|w| w.eq_ignore_ascii_case(&workspace.workspace_id))
    {
        vec![workspace.response()]
    } else {
        Vec::new()
    };
    Ok(request.respond(items, page))
}

async fn get_one(State(app): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let workspace = app.store.read(|state| state.workspace.clone());
    if workspace.workspace_id.eq_ignore_ascii_case(&id) {
        Ok(Json(workspace.response()))
    } else {
        Err(ApiProblem::not_found(&id))
    }
}
