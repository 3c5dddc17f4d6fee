//! Retrying model requests: exponential backoff with jitter on 429, 500, 502, 503,
//! 529 and connection errors, honouring `retry-after` / `retry-after-ms`, then
//! giving up with an [`LlmError`].
//!
//! Never retries other client errors (400, 401, 404): they will not get better.

use std::future::Future;
use std::time::Duration;

use rand::Rng;
use reqwest::header::HeaderMap;

use super::LlmError;

/// How often and how patiently to retry.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (so `max_retries + 1` attempts in all).
    pub max_retries: u32,
    /// The delay before the first retry, doubled for each further one.
    pub base_delay: Duration,
    /// The largest backoff delay.
    pub max_delay: Duration,
    /// The longest `retry-after` honoured; longer requests are cut to this.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 6,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(60),
            max_retry_after: Duration::from_secs(120),
        }
    }
}

/// Why one attempt failed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Failure {
    Retryable {
        status: Option<u16>,
        message: String,
        retry_after: Option<Duration>,
    },
    Fatal {
        status: Option<u16>,
        message: String,
    },
}

pub(crate) fn is_retryable_status(status: u16) -> bool {
    matches!(status, 429 | 500 | 502 | 503 | 529)
}

/// `retry-after-ms` (milliseconds), else `retry-after` (seconds or an HTTP date).
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = |name: &str| headers.get(name)?.to_str().ok().map(str::trim);
    if let Some(ms) = text("retry-after-ms").and_then(|v| v.parse::<f64>().ok()) {
        return duration_secs(ms / 1000.0);
    }
    let value = text("retry-after")?;
    if let Ok(secs) = value.parse::<f64>() {
        return duration_secs(secs);
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let wait = at.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(wait.to_std().unwrap_or(Duration::ZERO))
}

fn duration_secs(secs: f64) -> Option<Duration> {
    Duration::try_from_secs_f64(secs.max(0.0)).ok()
}

impl RetryPolicy {
    /// The wait before retry number `retry` (0-based).
    pub(crate) fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_retry_after);
        }
        let factor = 2u32.saturating_pow(retry.min(30));
        let full = self.base_delay.saturating_mul(factor).min(self.max_delay);
        let half = full / 2;
        half + full
            .saturating_sub(half)
            .mul_f64(rand::rng().random_range(0.0..=1.0))
    }

    /// Runs `attempt` until it succeeds, fails fatally, or retries run out; returns
    /// the value and the number of retries it took.
    pub(crate) async fn run<T, F, Fut>(
        &self,
        url: &str,
        mut attempt: F,
    ) -> Result<(T, u32), LlmError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Failure>>,
    {
        let mut retries = 0;
        loop {
            let error = |status, message| LlmError {
                url: url.to_owned(),
                status,
                message,
                attempts: retries + 1,
            };
            match attempt().await {
                Ok(value) => return Ok((value, retries)),
                Err(Failure::Fatal { status, message }) => return Err(error(status, message)),
                Err(Failure::Retryable {
                    status, message, ..
                }) if retries >= self.max_retries => {
                    return Err(error(status, message));
                }
                Err(Failure::Retryable { retry_after, .. }) => {
                    tokio::time::sleep(self.delay(retries, retry_after)).await;
                    retries += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn retry_after_reads_seconds_milliseconds_and_dates() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("3"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(3)));
        headers.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(250)));
        let mut dated = HeaderMap::new();
        dated.insert(
            "retry-after",
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after(&dated), Some(Duration::ZERO));
        assert_eq!(retry_after(&HeaderMap::new()), None);
    }

    #[test]
    fn backoff_doubles_within_jitter_bounds_and_caps() {
        let policy = RetryPolicy::default();
        for retry in 0..4 {
            let full = Duration::from_secs(1 << retry);
            let d = policy.delay(retry, None);
            assert!(d >= full / 2 && d <= full, "{retry}: {d:?}");
        }
        assert!(policy.delay(20, None) <= Duration::from_secs(60));
        assert_eq!(
            policy.delay(0, Some(Duration::from_secs(999))),
            Duration::from_secs(120)
        );
    }

    #[test]
    fn only_transient_statuses_are_retried() {
        for status in [429, 500, 502, 503, 529] {
            assert!(is_retryable_status(status));
        }
        for status in [400, 401, 403, 404, 422] {
            assert!(!is_retryable_status(status));
        }
    }

    #[tokio::test]
    async fn gives_up_after_max_retries_with_the_last_status() {
        let policy = RetryPolicy {
            max_retries: 2,
            base_delay: Duration::from_millis(1),
            ..RetryPolicy::default()
        };
        let mut calls = 0;
        let result: Result<((), u32), LlmError> = policy
            .run("http://x", || {
                calls += 1;
                async {
                    Err(Failure::Retryable {
                        status: Some(503),
                        message: "busy".into(),
                        retry_after: None,
                    })
                }
            })
            .await;
        let err = result.unwrap_err();
        assert_eq!((calls, err.attempts, err.status), (3, 3, Some(503)));
        assert_eq!(
            err.to_string(),
            "http://x: HTTP 503: busy (after 3 attempt(s))"
        );
    }
}
