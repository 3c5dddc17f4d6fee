//! Errors: the problem documents the API answers with, and the library's own errors.
//!
//! Airbyte's public API answers every failure with an RFC 9457 problem document
//! (`type`, `title`, `status`, `detail`, `data`); the `type` URLs and titles below are
//! Airbyte's own, because agents read them. This module must never decide *when* a
//! problem happens: handlers do; it only knows how each one looks on the wire.

use std::path::PathBuf;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

const ERRORS_URL: &str = "https://reference.airbyte.com/reference/errors";

/// One API failure, rendered as Airbyte's problem JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiProblem {
    pub status: StatusCode,
    pub kind: &'static str,
    pub title: &'static str,
    pub detail: String,
}

#[derive(Serialize)]
struct ProblemBody<'a> {
    #[serde(rename = "type")]
    kind: String,
    title: &'a str,
    status: u16,
    detail: &'a str,
    data: ProblemData<'a>,
}

#[derive(Serialize)]
struct ProblemData<'a> {
    message: &'a str,
}

impl ApiProblem {
    fn new(status: StatusCode, kind: &'static str, title: &'static str, detail: String) -> Self {
        Self {
            status,
            kind,
            title,
            detail,
        }
    }

    /// 400: the request is malformed or names a bad field.
    pub fn bad_request(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "#bad-request",
            "bad-request",
            detail.into(),
        )
    }

    /// 422: the request is well-formed but its values cannot be used.
    pub fn unprocessable(detail: impl Into<String>) -> Self {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        Self::new(
            status,
            "#unprocessable-entity",
            "unprocessable-entity",
            detail.into(),
        )
    }

    /// 404: no resource has this id (Airbyte's wording).
    pub fn not_found(id: &str) -> Self {
        let detail = format!("Could not find a resource for: {id}");
        Self::new(
            StatusCode::NOT_FOUND,
            "#resource-not-found",
            "resource-not-found",
            detail,
        )
    }

    /// 404 for a path no endpoint serves.
    pub fn no_route(method: &str, path: &str) -> Self {
        let detail = format!("No endpoint serves {method} {path}");
        Self::new(
            StatusCode::NOT_FOUND,
            "#resource-not-found",
            "resource-not-found",
            detail,
        )
    }

    /// 405 for a known path with the wrong method.
    pub fn method_not_allowed(method: &str, path: &str) -> Self {
        let detail = format!("Method {method} is not allowed on {path}");
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "#bad-request",
            "bad-request",
            detail,
        )
    }

    /// 409: a sync or reset of the connection is already pending or running.
    pub fn sync_conflict(connection_id: &str) -> Self {
        let detail = format!("A sync is already running for: {connection_id}");
        Self::new(
            StatusCode::CONFLICT,
            "#try-again-later",
            "try-again-later",
            detail,
        )
    }

    /// 409: the resource is not in a state that allows the operation.
    pub fn state_conflict(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "#409-state-conflict",
            "state-conflict",
            detail.into(),
        )
    }

    /// 401: missing or wrong credentials.
    pub fn unauthorized() -> Self {
        let detail = "The credentials in the Authorization header are invalid.".to_owned();
        Self::new(
            StatusCode::UNAUTHORIZED,
            "#invalid-api-key",
            "invalid-api-key",
            detail,
        )
    }

    /// The JSON body as sent on the wire.
    pub fn body(&self) -> serde_json::Value {
        let body = ProblemBody {
            kind: format!("{ERRORS_URL}{}", self.kind),
            title: self.title,
            status: self.status.as_u16(),
            detail: &self.detail,
            data: ProblemData {
                message: &self.detail,
            },
        };
        serde_json::to_value(body).unwrap_or(serde_json::Value::Null)
    }
}

impl IntoResponse for ApiProblem {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body())).into_response();
        let problem_json = HeaderValue::from_static("application/problem+json");
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, problem_json);
        if self.status == StatusCode::UNAUTHORIZED {
            let challenge = HeaderValue::from_static("Basic realm=\"Airbyte\"");
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, challenge);
        }
        response
    }
}

/// What an API handler returns.
pub type ApiResult<T> = Result<T, ApiProblem>;

/// Failures of the server itself (not of one request).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot bind the Airbyte API server to {addr}: {source}")]
    Bind {
        addr: String,
        source: std::io::Error,
    },
    #[error("cannot start the Airbyte API server runtime: {0}")]
    Runtime(std::io::Error),
    #[error("cannot write the Airbyte state snapshot {path}: {source}")]
    Snapshot {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot encode the Airbyte state snapshot {path}: {source}")]
    SnapshotEncode {
        path: PathBuf,
        source: serde_json::Error,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_found_uses_airbyte_wording_and_type_url() {
        let body = ApiProblem::not_found("abc").body();
        assert_eq!(body["status"], 404);
        assert_eq!(body["title"], "resource-not-found");
        assert_eq!(body["detail"], "Could not find a resource for: abc");
        assert_eq!(
            body["type"],
            "https://reference.airbyte.com/reference/errors#resource-not-found"
        );
    }

    #[test]
    fn sync_conflict_names_the_connection() {
        let problem = ApiProblem::sync_conflict("c-1");
        assert_eq!(problem.status, StatusCode::CONFLICT);
        assert_eq!(
            problem.body()["detail"],
            "A sync is already running for: c-1"
        );
    }
}
