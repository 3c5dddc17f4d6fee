//! HTTP(S) GETs for the file and REST readers, with Airbyte-like failure messages
//! (connection refused, HTTP status, body errors), each naming the URL.

use bytes::Bytes;

use crate::sync::error::ConnectorError;

/// The body of `GET url`, or why it could not be fetched.
pub async fn get(client: &reqwest::Client, url: &str) -> Result<Bytes, ConnectorError> {
    let response = client
        .get(url)
        .send()
        .await
        .map_err(|e| request_error(url, &e))?;
    let status = response.status();
    if status == reqwest::StatusCode::NOT_FOUND {
        return Err(ConnectorError::NotFound(format!(
            "{url} returned HTTP 404 Not Found: check that the URL is correct"
        )));
    }
    if status == reqwest::StatusCode::UNAUTHORIZED || status == reqwest::StatusCode::FORBIDDEN {
        return Err(ConnectorError::credentials(url, status));
    }
    if !status.is_success() {
        return Err(ConnectorError::Data(format!(
            "{url} returned HTTP {status}"
        )));
    }
    response
        .bytes()
        .await
        .map_err(|e| ConnectorError::Data(format!("Could not read the body of {url}: {e}")))
}

fn request_error(url: &str, error: &reqwest::Error) -> ConnectorError {
    let detail = std::error::Error::source(error)
        .map(|s| s.to_string())
        .unwrap_or_else(|| error.to_string());
    if error.is_connect() || error.is_timeout() {
        ConnectorError::refused(url, detail)
    } else if error.is_builder() {
        ConnectorError::Config(format!("Invalid URL {url}: {detail}"))
    } else {
        ConnectorError::Connection(format!("Could not fetch {url}: {detail}"))
    }
}

/// A client with sane timeouts.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(std::time::Duration::from_secs(10))
        .build()
        .unwrap_or_default()
}
