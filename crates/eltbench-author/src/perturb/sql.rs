//! Renaming inside gold SQL (dbt models): identifiers (bare or double-quoted)
//! that are renamed tables, columns or models; quoted names inside `{{ ... }}`
//! (`source('airbyte_schema', 't')`, `ref('m')`); and string literals that are
//! data values mapped by the value perturbation, integer literals compared
//! for equality (`id = 41`) mapped the same way; words of comments. Function
//! names (an identifier followed by `(`) are never renamed. Never runs SQL.

use super::names::Renames;

/// The SQL with names and mapped literals replaced.
pub fn rename_sql(sql: &str, names: &Renames, literal: &dyn Fn(&str) -> Option<String>) -> String {
    let chars: Vec<char> = sql.chars().collect();
    let mut out = String::with_capacity(sql.len());
    let mut i = 0;
    let mut in_jinja = false;
    while i < chars.len() {
        let c = chars[i];
        let rest = |n: usize| chars.get(i + n).copied();
        if c == '{' && rest(1) == Some('{') {
            in_jinja = true;
        } else if c == '}' && rest(1) == Some('}') {
            in_jinja = false;
        }
        if c == '-' && rest(1) == Some('-') {
            let end = chars[i..]
                .iter()
                .position(|&x| x == '\n')
                .map_or(chars.len(), |p| i + p);
            let comment: String = chars[i..end].iter().collect();
            out.push_str(&names.apply_words(&comment));
            i = end;
        } else if c == '\'' {
            let end = string_end(&chars, i, '\'');
            let inner: String = chars[i + 1..end.saturating_sub(1).max(i + 1)]
                .iter()
                .collect();
            let new = if in_jinja {
                names.get(&inner).map(str::to_owned)
            } else {
                literal(&inner.replace("''", "'"))
            };
            match new {
                Some(v) => out.push_str(&format!("'{}'", v.replace('\'', "''"))),
                None => out.extend(&chars[i..end]),
            }
            i = end;
        } else if c == '"' {
            let end = string_end(&chars, i, '"');
            let inner: String = chars[i + 1..end.saturating_sub(1).max(i + 1)]
                .iter()
                .collect();
            out.push('"');
            out.push_str(&names.apply(&inner));
            out.push('"');
            i = end;
        } else if c.is_ascii_digit() && !prev_is_word(&chars, i) {
            let end = chars[i..]
                .iter()
                .position(|x| !(x.is_ascii_alphanumeric() || *x == '_' || *x == '.'))
                .map_or(chars.len(), |p| i + p);
            let number: String = chars[i..end].iter().collect();
            let compared = after_comparison(&out);
            match literal(&number).filter(|_| compared && !number.contains('.')) {
                Some(new) => out.push_str(&new),
                None => out.push_str(&number),
            }
            i = end;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let end = chars[i..]
                .iter()
                .position(|x| !(x.is_ascii_alphanumeric() || *x == '_'))
                .map_or(chars.len(), |p| i + p);
            let ident: String = chars[i..end].iter().collect();
            let called = chars[end..].iter().find(|x| !x.is_whitespace()) == Some(&'(');
            match names.get(&ident) {
                Some(new) if !called => out.push_str(new),
                _ => out.push_str(&ident),
            }
            i = end;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether the character before `i` continues a word (`t1`, `x_2`).
fn prev_is_word(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '_')
}

/// Whether the SQL written so far ends with `=`, `<>` or `!=` (an equality
/// lookup such as `WHERE id = 41`, whose literal must follow the data).
fn after_comparison(out: &str) -> bool {
    let trimmed = out.trim_end();
    trimmed.ends_with('=') && !trimmed.ends_with("<=") && !trimmed.ends_with(">=")
        || trimmed.ends_with("<>")
}

/// The index after the closing quote of a string starting at `start` ('' escapes).
fn string_end(chars: &[char], start: usize, quote: char) -> usize {
    let mut i = start + 1;
    while i < chars.len() {
        if chars[i] == quote {
            if chars.get(i + 1) == Some(&quote) {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i += 1;
    }
    chars.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn identifiers_sources_and_literals_are_renamed() {
        let names = Renames::new(
            3,
            ["orders", "amount", "sum"].into_iter(),
            &mut BTreeSet::new(),
        );
        let (o, a) = (
            names.get("orders").unwrap().to_owned(),
            names.get("amount").unwrap().to_owned(),
        );
        let sql = "select sum(o.amount) as \"amount\" -- amount\nfrom {{ source('airbyte_schema', 'orders') }} o where o.kind = 'big' and o.id = 41 and o.x > 41 limit 10";
        let map = |v: &str| match v {
            "big" => Some("zuk".to_owned()),
            "41" => Some("1041".to_owned()),
            _ => None,
        };
        let out = rename_sql(sql, &names, &map);
        assert_eq!(
            out,
            format!(
                "select sum(o.{a}) as \"{a}\" -- {a}\nfrom {{{{ source('airbyte_schema', '{o}') }}}} o where o.kind = 'zuk' and o.id = 1041 and o.x > 41 limit 10"
            )
        );
    }
}
