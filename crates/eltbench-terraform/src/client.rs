//! The provider's HTTP calls to the Airbyte public API (POST/GET/PUT/PATCH/
//! DELETE under `server_url`, Basic or Bearer auth), and the provider's error
//! diagnostics for failed calls: "failure to invoke API" for transport errors
//! and unexpected status codes, "unexpected response from API. Got an
//! unexpected response code N" with the request/response dump otherwise.

use std::time::Duration;

use serde_json::Value as Json;

use crate::diagnostics::Diagnostic;

pub const DEFAULT_SERVER_URL: &str = "https://api.airbyte.com/v1";
const USER_AGENT: &str = "speakeasy-sdk/go 0.6.5 2.404.3 1.0.0 github.com/airbytehq/terraform-provider-airbyte/internal/sdk";

#[derive(Debug, Clone, Default)]
pub struct Auth {
    pub username: Option<String>,
    pub password: Option<String>,
    pub bearer: Option<String>,
}

pub struct Client {
    base: String,
    auth: Auth,
    http: reqwest::blocking::Client,
}

/// The HTTP verbs the provider uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Verb {
    fn name(self) -> &'static str {
        match self {
            Verb::Get => "GET",
            Verb::Post => "POST",
            Verb::Put => "PUT",
            Verb::Patch => "PATCH",
            Verb::Delete => "DELETE",
        }
    }
}

/// A completed call: status and parsed JSON body (Null when empty or not JSON).
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub body: Json,
}

impl Client {
    pub fn new(server_url: Option<&str>, auth: Auth) -> Client {
        let base = server_url
            .filter(|s| !s.is_empty())
            .unwrap_or(DEFAULT_SERVER_URL);
        let http = reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(120))
            .build()
            .unwrap_or_else(|_| reqwest::blocking::Client::new());
        Client {
            base: base.trim_end_matches('/').to_string(),
            auth,
            http,
        }
    }

    /// Performs one call. `ok` lists the status codes the SDK hands back to the
    /// provider (other non-2xx codes become an SDK error, as in the real SDK).
    pub fn call(
        &self,
        verb: Verb,
        path: &str,
        body: Option<&Json>,
        ok: &[u16],
    ) -> Result<Response, Box<Diagnostic>> {
        let url = format!("{}{}", self.base, path);
        let mut req = match verb {
            Verb::Get => self.http.get(&url),
            Verb::Post => self.http.post(&url),
            Verb::Put => self.http.put(&url),
            Verb::Patch => self.http.patch(&url),
            Verb::Delete => self.http.delete(&url),
        };
        req = req
            .header("Accept", "application/json")
            .header("User-Agent", USER_AGENT);
        if let Some(token) = &self.auth.bearer {
            req = req.bearer_auth(token);
        } else {
            req = req.basic_auth(
                self.auth.username.clone().unwrap_or_default(),
                self.auth.password.clone(),
            );
        }
        let body_text = body.map(|b| serde_json::to_string(b).unwrap_or_default());
        if let Some(text) = &body_text {
            req = req
                .header("Content-Type", "application/json")
                .body(text.clone());
        }
        let resp = req.send().map_err(|e| transport_error(verb, &url, &e))?;
        let status = resp.status().as_u16();
        let reason = resp.status().canonical_reason().unwrap_or("").to_string();
        let text = resp.text().unwrap_or_default();
        let parsed = serde_json::from_str(&text).unwrap_or(Json::Null);
        if (200..300).contains(&status) || ok.contains(&status) {
            if !(200..300).contains(&status) {
                return Err(unexpected_status(
                    verb,
                    &url,
                    body_text.as_deref(),
                    status,
                    &reason,
                    &text,
                ));
            }
            return Ok(Response {
                status,
                body: parsed,
            });
        }
        let msg = format!(
            "unknown status code returned: Status {status}{}",
            if text.is_empty() {
                String::new()
            } else {
                format!("\n{text}")
            }
        );
        Err(Box::new(Diagnostic::error("failure to invoke API", msg)))
    }
}

fn transport_error(verb: Verb, url: &str, e: &reqwest::Error) -> Box<Diagnostic> {
    let mut cause = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        cause = s.to_string();
        src = s.source();
    }
    let verb_title = match verb {
        Verb::Get => "Get",
        Verb::Post => "Post",
        Verb::Put => "Put",
        Verb::Patch => "Patch",
        Verb::Delete => "Delete",
    };
    let cause = go_network_error(url, &cause);
    Box::new(Diagnostic::error(
        "failure to invoke API",
        format!("error sending request: {verb_title} \"{url}\": {cause}"),
    ))
}

/// Go's net package wording for the common failures, as the provider prints them.
fn go_network_error(url: &str, cause: &str) -> String {
    let (host, _) = split_url(url);
    let hostname = host.rsplit_once(':').map_or(host, |(h, _)| h);
    if cause.contains("Connection refused") {
        format!("dial tcp {host}: connect: connection refused")
    } else if cause.contains("failed to lookup address")
        || cause.contains("Name or service not known")
    {
        format!("dial tcp: lookup {hostname}: no such host")
    } else {
        cause.to_string()
    }
}

fn unexpected_status(
    verb: Verb,
    url: &str,
    req_body: Option<&str>,
    status: u16,
    reason: &str,
    text: &str,
) -> Box<Diagnostic> {
    let (host, path) = split_url(url);
    let mut dump = format!(
        "**Request**:\n{} {path} HTTP/1.1\r\nHost: {host}\r\nAccept: application/json\r\nAuthorization: (sensitive)\r\n",
        verb.name()
    );
    if let Some(b) = req_body {
        dump.push_str(&format!(
            "Content-Type: application/json\r\nUser-Agent: {USER_AGENT}\r\n\r\n{b}"
        ));
    } else {
        dump.push_str(&format!("User-Agent: {USER_AGENT}\r\n\r\n"));
    }
    dump.push_str(&format!(
        "\n**Response**:\nHTTP/1.1 {status} {reason}\r\nContent-Length: {}\r\nContent-Type: application/json\r\n\r\n{text}",
        text.len()
    ));
    Box::new(Diagnostic::error(
        format!("unexpected response from API. Got an unexpected response code {status}"),
        dump.replace('\r', ""),
    ))
}

fn split_url(url: &str) -> (&str, &str) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_host_and_path_for_request_dumps() {
        assert_eq!(
            split_url("http://127.0.0.1:8000/api/public/v1/sources"),
            ("127.0.0.1:8000", "/api/public/v1/sources")
        );
    }

    #[test]
    fn refused_connection_reads_like_the_provider() {
        let client = Client::new(Some("http://127.0.0.1:9"), Auth::default());
        let err = client.call(Verb::Get, "/sources/x", None, &[]).unwrap_err();
        assert_eq!(err.summary, "failure to invoke API");
        assert_eq!(
            err.detail,
            "error sending request: Get \"http://127.0.0.1:9/sources/x\": dial tcp 127.0.0.1:9: connect: connection refused"
        );
    }
}
