//! Authentication: HTTP Basic (Airbyte OSS's user and password) or a Bearer token.
//!
//! Runs before every API route except `/health`; a missing or wrong
//! `Authorization` header gets a 401 problem document. This module must never look
//! at the request body or the path.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::errors::ApiProblem;

/// The credentials a server accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    pub username: String,
    pub password: String,
    pub bearer_tokens: Vec<String>,
}

impl Credentials {
    /// Whether an `Authorization` header value is accepted.
    pub fn accepts(&self, header_value: &str) -> bool {
        let (scheme, rest) = header_value
            .trim()
            .split_once(' ')
            .unwrap_or((header_value, ""));
        let rest = rest.trim();
        if scheme.eq_ignore_ascii_case("basic") {
            return self.accepts_basic(rest);
        }
        scheme.eq_ignore_ascii_case("bearer") && self.bearer_tokens.iter().any(|t| t == rest)
    }

    fn accepts_basic(&self, encoded: &str) -> bool {
        let Ok(decoded) = STANDARD.decode(encoded) else {
            return false;
        };
        let Ok(text) = String::from_utf8(decoded) else {
            return false;
        };
        text.split_once(':')
            .is_some_and(|(user, password)| user == self.username && password == self.password)
    }
}

/// Middleware: lets the request through only with accepted credentials.
pub async fn require_auth(
    State(credentials): State<Arc<Credentials>>,
    request: Request,
    next: Next,
) -> Response {
    let header_value = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if credentials.accepts(header_value) {
        next.run(request).await
    } else {
        ApiProblem::unauthorized().into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creds() -> Credentials {
        Credentials {
            username: "airbyte".to_owned(),
            password: "pa:ss".to_owned(),
            bearer_tokens: vec!["tok".to_owned()],
        }
    }

    #[test]
    fn basic_auth_checks_user_and_password() {
        let good = format!("Basic {}", STANDARD.encode("airbyte:pa:ss"));
        let bad = format!("Basic {}", STANDARD.encode("airbyte:nope"));
        assert!(creds().accepts(&good));
        assert!(creds().accepts(&good.replace("Basic", "basic")));
        assert!(!creds().accepts(&bad));
        assert!(!creds().accepts("Basic !!!notbase64"));
        assert!(!creds().accepts(""));
    }

    #[test]
    fn bearer_tokens_must_match_exactly() {
        assert!(creds().accepts("Bearer tok"));
        assert!(!creds().accepts("Bearer tok2"));
        assert!(!creds().accepts("Bearer "));
    }
}
