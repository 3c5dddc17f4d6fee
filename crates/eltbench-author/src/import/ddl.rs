//! The original's `setup/sources/<db>/postgres.sh` read into
//! `postgres_ddl.json` entries: each `CREATE TABLE name (...)` (with
//! `$TABLE_NAME` resolved from the script's `TABLE_NAME="..."`), its columns
//! (name, type, NOT NULL) and primary key. Never runs the script.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// `table => {columns, primary_key}` of one script.
pub fn parse_script(text: &str) -> BTreeMap<String, Value> {
    let table_var = text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("TABLE_NAME=")?;
        Some(rest.trim_matches(|c| c == '"' || c == '\'').to_owned())
    });
    let mut out = BTreeMap::new();
    let mut rest = text;
    while let Some(at) = find_ci(rest, "create table") {
        rest = &rest[at + "create table".len()..];
        let Some(open) = rest.find('(') else { break };
        let name = clean_ident(rest[..open].trim());
        let name = match (name.as_str(), &table_var) {
            ("$TABLE_NAME" | "${TABLE_NAME}", Some(var)) => var.clone(),
            _ => name,
        };
        let Some(len) = matching_paren(&rest[open..]) else {
            break;
        };
        let body = &rest[open + 1..open + len];
        out.insert(name, table_entry(body));
        rest = &rest[open + len..];
    }
    out
}

fn find_ci(text: &str, needle: &str) -> Option<usize> {
    text.to_ascii_lowercase().find(needle)
}

fn clean_ident(raw: &str) -> String {
    raw.replace("\\\"", "")
        .replace('"', "")
        .replace("IF NOT EXISTS", "")
        .trim()
        .to_owned()
}

/// Length up to the `)` matching the `(` at the start.
fn matching_paren(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits on commas outside parentheses.
fn split_top(body: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in body.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

fn table_entry(body: &str) -> Value {
    let mut columns = Vec::new();
    let mut primary_key: Vec<String> = Vec::new();
    for part in split_top(body) {
        let upper = part.to_ascii_uppercase();
        if upper.starts_with("PRIMARY KEY") {
            let inner = part
                .split_once('(')
                .map_or("", |(_, r)| r.trim_end_matches(')'));
            primary_key.extend(inner.split(',').map(clean_ident).filter(|k| !k.is_empty()));
            continue;
        }
        if upper.starts_with("FOREIGN KEY")
            || upper.starts_with("CONSTRAINT")
            || upper.starts_with("UNIQUE")
        {
            continue;
        }
        let (name, rest) = split_name(part);
        let rest_upper = rest.to_ascii_uppercase();
        let end = [
            "NOT NULL",
            "NULL",
            "PRIMARY KEY",
            "DEFAULT",
            "REFERENCES",
            "UNIQUE",
            "CHECK",
        ]
        .iter()
        .filter_map(|kw| rest_upper.find(kw))
        .min()
        .unwrap_or(rest.len());
        let ty = rest[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        if rest_upper.contains("PRIMARY KEY") {
            primary_key.push(name.clone());
        }
        let not_null = rest_upper.contains("NOT NULL") || rest_upper.contains("PRIMARY KEY");
        columns.push(json!({"name": name, "not_null": not_null, "type": ty.to_ascii_uppercase()}));
    }
    json!({"columns": columns, "primary_key": primary_key})
}

/// The column name (maybe quoted) and the rest of a column definition.
fn split_name(part: &str) -> (String, &str) {
    let part = part.trim_start_matches('\\');
    if let Some(quoted) = part.strip_prefix('"') {
        let end = quoted.find('"').unwrap_or(quoted.len());
        let rest = quoted.get(end + 1..).unwrap_or("");
        return (quoted[..end].trim_end_matches('\\').to_owned(), rest.trim());
    }
    let end = part.find(char::is_whitespace).unwrap_or(part.len());
    (part[..end].to_owned(), part[end..].trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_columns_and_keys_are_read() {
        let script = "TABLE_NAME=\"area_code\"\npsql -c \"\nCREATE TABLE $TABLE_NAME\n(\n    zip_code  INTEGER NOT NULL,\n    area_code INTEGER NOT NULL,\n    PRIMARY KEY (zip_code, area_code)\n);\n\"\npsql -c \"\nCREATE TABLE zip_data (\n    zip_code INTEGER PRIMARY KEY,\n    \\\"avg price\\\" NUMERIC(10, 2),\n    city TEXT\n)\n\"\n";
        let tables = parse_script(script);
        assert_eq!(tables.keys().collect::<Vec<_>>(), ["area_code", "zip_data"]);
        assert_eq!(
            tables["area_code"]["primary_key"],
            json!(["zip_code", "area_code"])
        );
        let zip = &tables["zip_data"];
        assert_eq!(zip["primary_key"], json!(["zip_code"]));
        assert_eq!(
            zip["columns"][1],
            json!({"name": "avg price", "not_null": false, "type": "NUMERIC(10, 2)"})
        );
        assert_eq!(zip["columns"][2]["type"], "TEXT");
    }
}
