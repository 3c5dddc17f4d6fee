//! SCRAM-SHA-256 and SCRAM-SHA-1 (RFC 5802/7677 as MongoDB uses them) on the server side:
//! keys derived once from the configured [`Credentials`], then one conversation per
//! `saslStart`/`saslContinue` exchange. Every failure is the same `AuthenticationFailed`
//! to the client (the reason is only logged); the password is never logged or echoed.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use hmac::{Hmac, KeyInit, Mac};
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256};

use crate::error::MongoError;

/// A user the endpoint accepts, authenticated against database `source` ("admin").
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub username: String,
    pub password: String,
    pub source: String,
}

impl Credentials {
    /// A user whose authentication database is `admin`, the drivers' default.
    pub fn new(username: impl Into<String>, password: impl Into<String>) -> Self {
        Self {
            username: username.into(),
            password: password.into(),
            source: "admin".to_owned(),
        }
    }
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

/// The two SCRAM variants MongoDB offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mechanism {
    Sha1,
    Sha256,
}

impl Mechanism {
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "SCRAM-SHA-1" => Some(Self::Sha1),
            "SCRAM-SHA-256" => Some(Self::Sha256),
            _ => None,
        }
    }

    /// The names in `saslSupportedMechs`.
    pub const NAMES: [&'static str; 2] = ["SCRAM-SHA-1", "SCRAM-SHA-256"];

    /// `mongod`'s default iteration counts.
    fn iterations(self) -> u32 {
        match self {
            Self::Sha1 => 10_000,
            Self::Sha256 => 15_000,
        }
    }

    fn hmac(self, key: &[u8], data: &[u8]) -> Vec<u8> {
        match self {
            Self::Sha1 => mac::<Hmac<Sha1>>(key, data),
            Self::Sha256 => mac::<Hmac<Sha256>>(key, data),
        }
    }

    fn hash(self, data: &[u8]) -> Vec<u8> {
        match self {
            Self::Sha1 => Sha1::digest(data).to_vec(),
            Self::Sha256 => Sha256::digest(data).to_vec(),
        }
    }

    fn salted_password(self, password: &[u8], salt: &[u8]) -> Result<Vec<u8>, String> {
        let mut out = vec![0; if self == Self::Sha1 { 20 } else { 32 }];
        let result = match self {
            Self::Sha1 => pbkdf2::pbkdf2::<Hmac<Sha1>>(password, salt, self.iterations(), &mut out),
            Self::Sha256 => {
                pbkdf2::pbkdf2::<Hmac<Sha256>>(password, salt, self.iterations(), &mut out)
            }
        };
        result.map_err(|e| e.to_string())?;
        Ok(out)
    }
}

fn mac<M: Mac + KeyInit>(key: &[u8], data: &[u8]) -> Vec<u8> {
    match <M as KeyInit>::new_from_slice(key) {
        Ok(mut m) => {
            m.update(data);
            m.finalize().into_bytes().to_vec()
        }
        // HMAC accepts keys of any length; unreachable in practice, and a wrong MAC
        // only fails the authentication.
        Err(_) => Vec::new(),
    }
}

/// Stored keys of one mechanism, as `mongod` keeps them in `system.users`.
#[derive(Debug, Clone)]
struct Keys {
    salt: Vec<u8>,
    stored_key: Vec<u8>,
    server_key: Vec<u8>,
}

/// The configured user with keys for both mechanisms.
#[derive(Debug, Clone)]
pub struct UserKeys {
    pub username: String,
    pub source: String,
    sha1: Keys,
    sha256: Keys,
}

impl UserKeys {
    /// Derives the stored keys (PBKDF2; done once when the endpoint starts).
    pub fn derive(credentials: &Credentials) -> Result<Self, MongoError> {
        let fail = |reason: String| MongoError::Credentials {
            user: credentials.username.clone(),
            reason,
        };
        let prepped =
            stringprep::saslprep(&credentials.password).map_err(|e| fail(e.to_string()))?;
        let sha1_password = hex(&Md5::digest(
            format!("{}:mongo:{}", credentials.username, credentials.password).as_bytes(),
        ));
        Ok(Self {
            username: credentials.username.clone(),
            source: credentials.source.clone(),
            sha1: derive_keys(Mechanism::Sha1, sha1_password.as_bytes()).map_err(fail)?,
            sha256: derive_keys(Mechanism::Sha256, prepped.as_bytes()).map_err(fail)?,
        })
    }

    fn keys(&self, mechanism: Mechanism) -> &Keys {
        match mechanism {
            Mechanism::Sha1 => &self.sha1,
            Mechanism::Sha256 => &self.sha256,
        }
    }
}

fn derive_keys(mechanism: Mechanism, password: &[u8]) -> Result<Keys, String> {
    let salt: [u8; 16] = rand::random();
    let salted = mechanism.salted_password(password, &salt)?;
    let client_key = mechanism.hmac(&salted, b"Client Key");
    Ok(Keys {
        salt: salt.to_vec(),
        stored_key: mechanism.hash(&client_key),
        server_key: mechanism.hmac(&salted, b"Server Key"),
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Why a conversation failed (logged; the client only sees `AuthenticationFailed`).
#[derive(Debug, thiserror::Error)]
pub enum ScramError {
    #[error("malformed SCRAM message: {0}")]
    Malformed(&'static str),
    #[error("unknown user {0:?}")]
    UnknownUser(String),
    #[error("wrong client proof (bad password) for user {0:?}")]
    BadProof(String),
}

/// One conversation between the server-first and the client-final message.
#[derive(Debug, Clone)]
pub struct Conversation {
    mechanism: Mechanism,
    gs2_header: String,
    client_first_bare: String,
    server_first: String,
    nonce: String,
}

/// Handles client-first; returns the conversation and the server-first message.
pub fn start(
    user: &UserKeys,
    mechanism: Mechanism,
    payload: &[u8],
) -> Result<(Conversation, String), ScramError> {
    let text = std::str::from_utf8(payload).map_err(|_| ScramError::Malformed("not UTF-8"))?;
    let (gs2_header, bare) = split_gs2(text)?;
    let username = decode_name(attribute(bare, 'n').ok_or(ScramError::Malformed("no username"))?);
    let client_nonce = attribute(bare, 'r').ok_or(ScramError::Malformed("no nonce"))?;
    if username != user.username {
        return Err(ScramError::UnknownUser(username));
    }
    let server_nonce: [u8; 24] = rand::random();
    let nonce = format!("{client_nonce}{}", B64.encode(server_nonce));
    let keys = user.keys(mechanism);
    let server_first = format!(
        "r={nonce},s={},i={}",
        B64.encode(&keys.salt),
        mechanism.iterations()
    );
    let conversation = Conversation {
        mechanism,
        gs2_header: gs2_header.to_owned(),
        client_first_bare: bare.to_owned(),
        server_first: server_first.clone(),
        nonce,
    };
    Ok((conversation, server_first))
}

/// Handles client-final; returns the server-final message (`v=<signature>`).
pub fn finish(user: &UserKeys, conv: &Conversation, payload: &[u8]) -> Result<String, ScramError> {
    let text = std::str::from_utf8(payload).map_err(|_| ScramError::Malformed("not UTF-8"))?;
    let (without_proof, proof) = text
        .rsplit_once(",p=")
        .ok_or(ScramError::Malformed("no proof"))?;
    if attribute(without_proof, 'c') != Some(B64.encode(&conv.gs2_header).as_str()) {
        return Err(ScramError::Malformed(
            "channel binding does not match the gs2 header",
        ));
    }
    if attribute(without_proof, 'r') != Some(conv.nonce.as_str()) {
        return Err(ScramError::Malformed("nonce does not match"));
    }
    let proof = B64
        .decode(proof)
        .map_err(|_| ScramError::Malformed("proof is not base64"))?;
    let keys = user.keys(conv.mechanism);
    let auth_message = format!(
        "{},{},{without_proof}",
        conv.client_first_bare, conv.server_first
    );
    let signature = conv
        .mechanism
        .hmac(&keys.stored_key, auth_message.as_bytes());
    if proof.len() != signature.len() {
        return Err(ScramError::BadProof(user.username.clone()));
    }
    let client_key: Vec<u8> = proof.iter().zip(&signature).map(|(p, s)| p ^ s).collect();
    if conv.mechanism.hash(&client_key) != keys.stored_key {
        return Err(ScramError::BadProof(user.username.clone()));
    }
    let server_signature = conv
        .mechanism
        .hmac(&keys.server_key, auth_message.as_bytes());
    Ok(format!("v={}", B64.encode(server_signature)))
}

/// Splits `n,,n=user,r=nonce` into the gs2 header (`n,,`) and the bare message.
fn split_gs2(text: &str) -> Result<(&str, &str), ScramError> {
    if !(text.starts_with("n,") || text.starts_with("y,")) {
        return Err(ScramError::Malformed("channel binding is not supported"));
    }
    let second = text[2..]
        .find(',')
        .ok_or(ScramError::Malformed("no gs2 header"))?
        + 3;
    Ok(text.split_at(second))
}

fn attribute(message: &str, name: char) -> Option<&str> {
    message
        .split(',')
        .find_map(|part| part.strip_prefix(name)?.strip_prefix('='))
}

fn decode_name(raw: &str) -> String {
    raw.replace("=2C", ",").replace("=3D", "=")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client side written from RFC 5802, to check the server against.
    fn client_final(m: Mechanism, password: &[u8], server_first: &str, bare: &str) -> String {
        let salt = B64.decode(attribute(server_first, 's').unwrap()).unwrap();
        let iterations: u32 = attribute(server_first, 'i').unwrap().parse().unwrap();
        assert_eq!(iterations, m.iterations());
        let salted = m.salted_password(password, &salt).unwrap();
        let client_key = m.hmac(&salted, b"Client Key");
        let stored = m.hash(&client_key);
        let without = format!("c=biws,r={}", attribute(server_first, 'r').unwrap());
        let auth = format!("{bare},{server_first},{without}");
        let sig = m.hmac(&stored, auth.as_bytes());
        let proof: Vec<u8> = client_key.iter().zip(sig).map(|(a, b)| a ^ b).collect();
        format!("{without},p={}", B64.encode(proof))
    }

    fn exchange(m: Mechanism, password: &str) -> Result<String, ScramError> {
        let user = UserKeys::derive(&Credentials::new("ann", "s3cret")).unwrap();
        let bare = "n=ann,r=clientnonce";
        let (conv, server_first) = start(&user, m, format!("n,,{bare}").as_bytes())?;
        assert!(server_first.starts_with("r=clientnonce"));
        let prepared = match m {
            Mechanism::Sha1 => hex(&Md5::digest(format!("ann:mongo:{password}").as_bytes())),
            Mechanism::Sha256 => password.to_owned(),
        };
        finish(
            &user,
            &conv,
            client_final(m, prepared.as_bytes(), &server_first, bare).as_bytes(),
        )
    }

    #[test]
    fn right_password_succeeds_for_both_mechanisms() {
        for m in [Mechanism::Sha1, Mechanism::Sha256] {
            assert!(exchange(m, "s3cret").unwrap().starts_with("v="));
        }
    }

    #[test]
    fn wrong_password_and_unknown_user_fail() {
        assert!(matches!(
            exchange(Mechanism::Sha256, "nope"),
            Err(ScramError::BadProof(_))
        ));
        let user = UserKeys::derive(&Credentials::new("ann", "x")).unwrap();
        let err = start(&user, Mechanism::Sha256, b"n,,n=bob,r=abc").unwrap_err();
        assert!(matches!(err, ScramError::UnknownUser(_)));
        assert!(start(&user, Mechanism::Sha256, b"p=tls,,n=ann,r=a").is_err());
    }
}
