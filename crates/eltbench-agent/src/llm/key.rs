//! The API key: held by a client, sent only in its auth header, never printed.
//!
//! `Debug` shows no part of it, and [`ApiKey::redact`] removes it from any text.

use std::fmt;

/// What replaces a secret in text.
pub const REDACTED: &str = "[REDACTED]";

/// Keys shorter than this are placeholders (`EMPTY`, `x`) and are not redacted,
/// since replacing them would mangle ordinary text.
const MIN_SECRET_LEN: usize = 8;

#[derive(Clone, Default)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into())
    }

    /// The key from an environment variable (empty when unset).
    pub fn from_env(var: &str) -> Self {
        ApiKey(std::env::var(var).unwrap_or_default())
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `text` with every occurrence of the key replaced by [`REDACTED`].
    pub fn redact(&self, text: &str) -> String {
        if self.0.len() < MIN_SECRET_LEN {
            return text.to_owned();
        }
        text.replace(&self.0, REDACTED)
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(")?;
        f.write_str(REDACTED)?;
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_redact_hide_the_key() {
        let key = ApiKey::new("sk-abcdef123456");
        assert_eq!(format!("{key:?}"), "ApiKey([REDACTED])");
        assert_eq!(key.redact("key=sk-abcdef123456!"), "key=[REDACTED]!");
        assert_eq!(ApiKey::new("EMPTY").redact("EMPTY"), "EMPTY");
    }
}
