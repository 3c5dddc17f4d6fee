//! The HTTP surface: one router mounted under `/api/public/v1` and `/v1`, with
//! authentication, path normalisation, JSON fallbacks, and list pagination.
//!
//! Handlers live in one file per resource; this module only wires them together and
//! holds what they share. It must never contain resource logic.

mod actors;
mod connections;
mod destinations;
mod jobs;
mod sources;
mod streams;
mod workspaces;

use std::sync::Arc;

use axum::extract::{FromRequestParts, OriginalUri, Request};
use axum::http::request::Parts;
use axum::http::{Method, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::auth::{Credentials, require_auth};
use crate::config::AirbyteConfig;
use crate::errors::ApiProblem;
use crate::requests::Query;
use crate::store::Store;

/// What every handler can reach.
pub struct App {
    pub store: Store,
    pub config: AirbyteConfig,
}

pub type AppState = Arc<App>;

/// The whole API as one router (before path normalisation).
pub fn router(app: AppState) -> Router {
    let credentials = Arc::new(Credentials {
        username: app.config.username.clone(),
        password: app.config.password.clone(),
        bearer_tokens: app.config.bearer_tokens.clone(),
    });
    let api = Router::new()
        .merge(sources::routes())
        .merge(destinations::routes())
        .merge(connections::routes())
        .merge(jobs::routes())
        .merge(streams::routes())
        .merge(workspaces::routes())
        .route_layer(middleware::from_fn_with_state(credentials, require_auth))
        .route("/health", get(health))
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(app);
    Router::new()
        .nest("/api/public/v1", api.clone())
        .nest("/v1", api)
        .fallback(no_route)
}

async fn health() -> &'static str {
    "Successful operation"
}

async fn no_route(method: Method, uri: OriginalUri) -> ApiProblem {
    ApiProblem::no_route(method.as_str(), uri.path())
}

async fn method_not_allowed(method: Method, uri: OriginalUri) -> ApiProblem {
    ApiProblem::method_not_allowed(method.as_str(), uri.path())
}

/// Middleware for the outer service: `//a//b/` is routed as `/a/b`.
pub async fn normalize_path(mut request: Request, next: Next) -> Response {
    if let Some(uri) = normalized(request.uri()) {
        *request.uri_mut() = uri;
    }
    next.run(request).await
}

fn normalized(uri: &Uri) -> Option<Uri> {
    let path = uri.path();
    let mut clean: String = path
        .split('/')
        .filter(|s| !s.is_empty())
        .flat_map(|s| ["/", s])
        .collect();
    if clean.is_empty() {
        clean.push('/');
    }
    if clean == path {
        return None;
    }
    let with_query = match uri.query() {
        Some(q) => format!("{clean}?{q}"),
        None => clean,
    };
    with_query.parse().ok()
}

/// The query string of a list request plus what is needed to build `next`/`previous`.
pub struct ListRequest {
    pub query: Query,
    base: String,
}

impl<S: Send + Sync> FromRequestParts<S> for ListRequest {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let uri = OriginalUri::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let query = Query::parse(uri.query()).map_err(IntoResponse::into_response)?;
        let host = parts
            .headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("localhost");
        let base = format!("http://{host}{}", uri.path());
        Ok(Self { query, base })
    }
}

/// `limit` and `offset` of a list request.
#[derive(Debug, Clone, Copy)]
pub struct Page {
    pub limit: u64,
    pub offset: u64,
}

impl ListRequest {
    /// Limit (default 20, any value ≥ 1, so `limit=100000` works) and offset.
    pub fn page(&self) -> Result<Page, ApiProblem> {
        Ok(Page {
            limit: self.query.int("limit", 20, 1)?,
            offset: self.query.int("offset", 0, 0)?,
        })
    }

    /// `{data, next, previous}` for one page of `items` (already filtered and ordered).
    pub fn respond(&self, items: Vec<Value>, page: Page) -> Json<Value> {
        let total = items.len() as u64;
        let start = usize::try_from(page.offset).unwrap_or(usize::MAX);
        let take = usize::try_from(page.limit).unwrap_or(usize::MAX);
        let data: Vec<Value> = items.into_iter().skip(start).take(take).collect();
        let next = if page.offset.saturating_add(page.limit) < total {
            self.link(page.limit, page.offset + page.limit)
        } else {
            String::new()
        };
        let previous = if page.offset > 0 {
            self.link(page.limit, page.offset.saturating_sub(page.limit))
        } else {
            String::new()
        };
        Json(json!({ "data": data, "next": next, "previous": previous }))
    }

    fn link(&self, limit: u64, offset: u64) -> String {
        let mut pairs = self.query.without(&["limit", "offset"]);
        pairs.push(("limit".to_owned(), limit.to_string()));
        pairs.push(("offset".to_owned(), offset.to_string()));
        let query = serde_urlencoded::to_string(pairs).unwrap_or_default();
        format!("{}?{query}", self.base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised() {
        let uri: Uri = "/api/public/v1//jobs/?limit=5".parse().unwrap();
        assert_eq!(
            normalized(&uri).map(|u| u.to_string()),
            Some("/api/public/v1/jobs?limit=5".to_owned())
        );
        let clean: Uri = "/v1/jobs".parse().unwrap();
        assert_eq!(normalized(&clean), None);
    }
}
