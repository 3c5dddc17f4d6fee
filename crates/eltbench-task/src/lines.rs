//! Finding the 1-based line of an entry in a file's text.
//!
//! serde_yaml and serde_json report where a *syntax* error is, but not where
//! a well-formed value lives, so validation finds lines by searching the text
//! for the offending entry. These helpers only search; they never parse.

/// The line of the `nth` (0-based) YAML entry whose value is `value`:
/// `- value`, `key: value` or `- key: value` (quotes allowed), with `key`
/// one of `keys`, at or after line `from`.
pub(crate) fn yaml_entry(
    text: &str,
    keys: &[&str],
    value: &str,
    from: usize,
    nth: usize,
) -> Option<usize> {
    numbered(text, from)
        .filter(|(_, line)| yaml_line_matches(line, keys, value))
        .nth(nth)
        .map(|(n, _)| n)
}

/// The line of the top-level YAML key `key:` (no indentation).
pub(crate) fn yaml_top_key(text: &str, key: &str) -> Option<usize> {
    numbered(text, 1)
        .find(|(_, line)| strip_key(line, key).is_some())
        .map(|(n, _)| n)
}

/// The line of `key:` at any indentation, at or after line `from`.
pub(crate) fn yaml_key(text: &str, key: &str, from: usize) -> Option<usize> {
    numbered(text, from)
        .find(|(_, line)| strip_key(line.trim_start().trim_start_matches("- "), key).is_some())
        .map(|(n, _)| n)
}

/// The line of the JSON object key reached by following `path`: each key is
/// searched for after the previous one, so `["db", "table"]` finds `"table"`
/// inside `"db"`'s object (when keys are unique enough, as in these files).
pub(crate) fn json_key(text: &str, path: &[&str]) -> Option<usize> {
    let mut at = 0;
    for key in path {
        let quoted = serde_json::to_string(key).ok()?;
        at += find_json_key(&text[at..], &quoted)?;
    }
    Some(text[..at].matches('\n').count() + 1)
}

fn find_json_key(text: &str, quoted: &str) -> Option<usize> {
    let mut start = 0;
    while let Some(pos) = text[start..].find(quoted) {
        let end = start + pos + quoted.len();
        if text[end..].trim_start().starts_with(':') {
            return Some(end);
        }
        start = end;
    }
    None
}

fn numbered(text: &str, from: usize) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .skip(from.saturating_sub(1))
}

fn yaml_line_matches(line: &str, keys: &[&str], value: &str) -> bool {
    let item = line.trim_start();
    let (is_item, rest) = match item.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, item),
    };
    if is_item && unquote(rest) == value {
        return true;
    }
    keys.iter()
        .any(|key| strip_key(rest, key).is_some_and(|v| unquote(v) == value))
}

/// `key: rest` => `rest`.
fn strip_key<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(key)?.strip_prefix(':')?;
    (rest.is_empty() || rest.starts_with(' ')).then(|| rest.trim())
}

fn unquote(value: &str) -> &str {
    let value = value.split(" #").next().unwrap_or(value).trim();
    for q in ['"', '\''] {
        if let Some(inner) = value.strip_prefix(q).and_then(|v| v.strip_suffix(q)) {
            return inner;
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "postgres:\n  config:\n    tables:\n    - orders\n    - 'users'\nflat_files:\n- format: csv\n  table: orders\n";

    #[test]
    fn finds_list_items_and_table_keys_in_order() {
        assert_eq!(yaml_entry(CONFIG, &["table"], "orders", 1, 0), Some(4));
        assert_eq!(yaml_entry(CONFIG, &["table"], "orders", 1, 1), Some(8));
        assert_eq!(yaml_entry(CONFIG, &["table"], "users", 1, 0), Some(5));
        assert_eq!(yaml_entry(CONFIG, &["table"], "user", 1, 0), None);
        assert_eq!(yaml_entry(CONFIG, &["table"], "orders", 5, 0), Some(8));
    }

    #[test]
    fn finds_top_level_and_nested_keys() {
        assert_eq!(yaml_top_key(CONFIG, "flat_files"), Some(6));
        assert_eq!(yaml_top_key(CONFIG, "config"), None);
        assert_eq!(yaml_key(CONFIG, "config", 1), Some(2));
        assert_eq!(yaml_key(CONFIG, "format", 1), Some(7));
    }

    #[test]
    fn follows_json_key_paths() {
        let text = "{\n  \"a\": {\n    \"x\": 1\n  },\n  \"b\": {\n    \"x\": 2\n  }\n}";
        assert_eq!(json_key(text, &["b", "x"]), Some(6));
        assert_eq!(json_key(text, &["a", "x"]), Some(3));
        assert_eq!(json_key(text, &["c"]), None);
    }
}
