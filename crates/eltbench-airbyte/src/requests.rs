//! Reading request bodies and query strings field by field, so that every rejection
//! names the field that was wrong (`Missing required field: connectionId`).
//!
//! Only shape checks live here (presence, JSON type, enum values); whether a value
//! makes sense (an id exists, a stream is offered) is the handlers' business.

use serde_json::{Map, Value};

use crate::enums::WireEnum;
use crate::errors::{ApiProblem, ApiResult};

/// Parses a request body that must be a JSON object.
pub fn parse_object(body: &[u8]) -> ApiResult<Map<String, Value>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiProblem::bad_request(
            "The request body is empty; a JSON object is required",
        ));
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiProblem::bad_request(
            "The request body must be a JSON object",
        )),
        Err(e) => Err(ApiProblem::bad_request(format!(
            "The body of the request was not understood: {e}"
        ))),
    }
}

/// The fields of one JSON object, with a path prefix for messages (`configurations.streams[0].`).
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: String,
}

impl<'a> Fields<'a> {
    pub fn new(map: &'a Map<String, Value>) -> Self {
        Self {
            map,
            prefix: String::new(),
        }
    }

    pub fn nested(map: &'a Map<String, Value>, prefix: &str) -> Self {
        Self {
            map,
            prefix: format!("{prefix}."),
        }
    }

    /// The full path of a field, for messages.
    pub fn path(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    fn missing(&self, name: &str) -> ApiProblem {
        ApiProblem::bad_request(format!("Missing required field: {}", self.path(name)))
    }

    fn wrong_type(&self, name: &str, expected: &str) -> ApiProblem {
        ApiProblem::bad_request(format!(
            "Invalid value for field {}: expected {expected}",
            self.path(name)
        ))
    }

    pub fn optional_str(&self, name: &str) -> ApiResult<Option<String>> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.wrong_type(name, "a string")),
        }
    }

    pub fn required_str(&self, name: &str) -> ApiResult<String> {
        self.optional_str(name)?.ok_or_else(|| self.missing(name))
    }

    /// A required string that must not be blank.
    pub fn required_name(&self, name: &str) -> ApiResult<String> {
        let value = self.required_str(name)?;
        if value.trim().is_empty() {
            return Err(ApiProblem::bad_request(format!(
                "Field {} must not be blank",
                self.path(name)
            )));
        }
        Ok(value)
    }

    pub fn optional_object(&self, name: &str) -> ApiResult<Option<&'a Map<String, Value>>> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(_) => Err(self.wrong_type(name, "a JSON object")),
        }
    }

    pub fn required_object(&self, name: &str) -> ApiResult<&'a Map<String, Value>> {
        self.optional_object(name)?
            .ok_or_else(|| self.missing(name))
    }

    pub fn optional_array(&self, name: &str) -> ApiResult<Option<&'a Vec<Value>>> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Array(items)) => Ok(Some(items)),
            Some(_) => Err(self.wrong_type(name, "an array")),
        }
    }

    pub fn optional_enum<E: WireEnum>(&self, name: &str) -> ApiResult<Option<E>> {
        let Some(value) = self.optional_str(name)? else {
            return Ok(None);
        };
        E::parse(&value)
            .map(Some)
            .ok_or_else(|| invalid_enum(&self.path(name), &value, E::ALL))
    }

    /// `["a", "b"]`.
    pub fn optional_strings(&self, name: &str) -> ApiResult<Option<Vec<String>>> {
        let Some(items) = self.optional_array(name)? else {
            return Ok(None);
        };
        strings(items)
            .map(Some)
            .ok_or_else(|| self.wrong_type(name, "an array of strings"))
    }

    /// `[["a"], ["b", "c"]]`.
    pub fn optional_string_lists(&self, name: &str) -> ApiResult<Option<Vec<Vec<String>>>> {
        let Some(items) = self.optional_array(name)? else {
            return Ok(None);
        };
        let lists: Option<Vec<Vec<String>>> = items
            .iter()
            .map(|item| item.as_array().and_then(|inner| strings(inner)))
            .collect();
        lists
            .map(Some)
            .ok_or_else(|| self.wrong_type(name, "an array of arrays of strings"))
    }
}

fn strings(items: &[Value]) -> Option<Vec<String>> {
    items
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// 400 naming a field whose value is not one of the allowed ones.
pub fn invalid_enum(path: &str, value: &str, allowed: &[&str]) -> ApiProblem {
    ApiProblem::bad_request(format!(
        "Invalid value for field {path}: \"{value}\". Must be one of [{}]",
        allowed.join(", ")
    ))
}

/// A query string as ordered `(key, value)` pairs (keys may repeat).
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    pub fn parse(raw: Option<&str>) -> ApiResult<Self> {
        let pairs = serde_urlencoded::from_str(raw.unwrap_or_default()).map_err(|e| {
            ApiProblem::bad_request(format!("The query string was not understood: {e}"))
        })?;
        Ok(Self { pairs })
    }

    /// The last value given for a key.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// All values of a key, also splitting comma-separated values.
    pub fn list(&self, key: &str) -> Vec<String> {
        self.pairs
            .iter()
            .filter(|(k, _)| k == key)
            .flat_map(|(_, v)| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
            .collect()
    }

    pub fn bool(&self, key: &str, default: bool) -> ApiResult<bool> {
        match self.get(key) {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(other) => Err(invalid_enum(key, other, &["true", "false"])),
        }
    }

    /// A non-negative integer; `min` is the smallest accepted value.
    pub fn int(&self, key: &str, default: u64, min: u64) -> ApiResult<u64> {
        let Some(raw) = self.get(key) else {
            return Ok(default);
        };
        match raw.parse::<u64>() {
            Ok(n) if n >= min => Ok(n),
            _ => Err(ApiProblem::bad_request(format!(
                "Invalid value for query parameter {key}: \"{raw}\". Must be an integer >= {min}"
            ))),
        }
    }

    pub fn enum_value<E: WireEnum>(&self, key: &str) -> ApiResult<Option<E>> {
        let Some(raw) = self.get(key) else {
            return Ok(None);
        };
        E::parse(raw)
            .map(Some)
            .ok_or_else(|| invalid_enum(key, raw, E::ALL))
    }

    /// Every pair except those with `key`, for building pagination links.
    pub fn without(&self, keys: &[&str]) -> Vec<(String, String)> {
        self.pairs
            .iter()
            .filter(|(k, _)| !keys.contains(&k.as_str()))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::SyncMode;
    use serde_json::json;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn errors_name_the_field() {
        let map = object(json!({ "name": 3, "mode": "nope" }));
        let fields = Fields::nested(&map, "configurations.streams[0]");
        let err = fields.required_str("name").unwrap_err();
        assert_eq!(
            err.detail,
            "Invalid value for field configurations.streams[0].name: expected a string"
        );
        let err = fields.required_str("other").unwrap_err();
        assert_eq!(
            err.detail,
            "Missing required field: configurations.streams[0].other"
        );
        let err = fields.optional_enum::<SyncMode>("mode").unwrap_err();
        assert!(
            err.detail
                .contains("\"nope\". Must be one of [full_refresh_overwrite"),
            "{}",
            err.detail
        );
    }

    #[test]
    fn bodies_must_be_objects() {
        assert!(parse_object(b"").is_err());
        assert!(parse_object(b"[1]").is_err());
        assert!(
            parse_object(b"{not json")
                .unwrap_err()
                .detail
                .contains("not understood")
        );
        assert_eq!(parse_object(b"{\"a\":1}").map(|m| m.len()), Ok(1));
    }

    #[test]
    fn query_lists_accept_repeats_and_commas() {
        let query = Query::parse(Some("workspaceIds=a&workspaceIds=b,c&limit=500")).unwrap();
        assert_eq!(query.list("workspaceIds"), vec!["a", "b", "c"]);
        assert_eq!(query.int("limit", 20, 1), Ok(500));
        assert!(query.int("offset", 0, 0).is_ok());
        let bad = Query::parse(Some("limit=-1")).unwrap();
        assert!(bad.int("limit", 20, 1).is_err());
    }
}
