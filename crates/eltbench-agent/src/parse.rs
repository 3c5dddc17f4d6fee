//! Parsing a model reply into a thought and one [`Action`].
//!
//! The format (documented to the model in [`crate::prompt`]) follows Spider-Agent:
//!
//! ```text
//! Thought: what I know and what I will do next
//! Action: Bash(code="""ls -la""")
//! ```
//!
//! Actions are calls `Name(key=value, ...)`; values are `"..."`, `'...'`, triple
//! quoted `"""..."""` / `'''...'''` (a value ends at a quote followed by `,` or `)`),
//! or bare words and numbers. CreateFile and EditFile take the content in a ```
//! fenced block after the call. The first call after `Action:` counts; text from a
//! line starting with `Observation:` on is ignored (models sometimes invent one).
//! Never guesses an action the reply does not spell out.

use crate::actions::Action;

/// The action names the parser knows, as the model writes them.
pub const ACTION_NAMES: &[&str] = &[
    "Bash",
    "CreateFile",
    "EditFile",
    "SQL",
    "ListTables",
    "TableInfo",
    "SampleRows",
    "Terminate",
];

/// Rows SampleRows shows when the model gives no count.
pub const DEFAULT_SAMPLE_ROWS: u32 = 5;

#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub thought: String,
    pub action: Action,
}

/// Why a reply could not be parsed, in words meant for the model.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

fn err<T>(message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(message.into()))
}

/// Parses one reply.
pub fn parse_response(text: &str) -> Result<Parsed, ParseError> {
    let text = cut_invented_observation(text);
    let marker = find_marker(text, "Action:");
    let region = marker.map_or(text, |at| &text[at + "Action:".len()..]);
    let Some((name, at)) = find_call(region) else {
        return err(format!(
            "no action found; the reply must contain `Action: ` followed by one of {}",
            ACTION_NAMES.join(", ")
        ));
    };
    let (args, rest) = parse_args(&region[at + name.len() + 1..], name)?;
    let action = build(name, &Args(args), rest)?;
    let thought_end = marker.unwrap_or(text.len() - region.len() + at);
    Ok(Parsed {
        thought: thought(&text[..thought_end]),
        action,
    })
}

fn cut_invented_observation(text: &str) -> &str {
    find_marker(text, "\nObservation:").map_or(text, |at| &text[..at])
}

fn find_marker(text: &str, marker: &str) -> Option<usize> {
    text.match_indices(marker)
        .map(|(at, _)| at)
        .find(|&at| !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
}

fn thought(before_action: &str) -> String {
    let start = find_marker(before_action, "Thought:").map_or(0, |at| at + "Thought:".len());
    before_action[start..]
        .trim()
        .trim_end_matches("**")
        .trim()
        .to_owned()
}

/// The earliest `Name(` for a known name, not preceded by an identifier character.
fn find_call(region: &str) -> Option<(&'static str, usize)> {
    ACTION_NAMES
        .iter()
        .filter_map(|name| {
            let call = format!("{name}(");
            find_marker(region, &call).map(|at| (*name, at))
        })
        .min_by_key(|(_, at)| *at)
}

type Arg = (Option<String>, String);

/// Parses `key=value, ...)` and returns the arguments and the text after `)`.
fn parse_args<'a>(s: &'a str, name: &str) -> Result<(Vec<Arg>, &'a str), ParseError> {
    let mut args = Vec::new();
    let mut i = skip_ws(s, 0);
    loop {
        if s[i..].starts_with(')') {
            return Ok((args, &s[i + 1..]));
        }
        if i >= s.len() {
            return err(format!("{name}( has no closing parenthesis"));
        }
        let (key, value_at) = read_key(s, i);
        let (value, next) = read_value(s, skip_ws(s, value_at), name)?;
        args.push((key, value));
        i = skip_ws(s, next);
        if s[i..].starts_with(',') {
            i = skip_ws(s, i + 1);
        } else if !s[i..].starts_with(')') {
            return err(format!(
                "in {name}(...), expected `,` or `)` after an argument; quote values that \
                 contain them, e.g. code=\"\"\"...\"\"\""
            ));
        }
    }
}

fn skip_ws(s: &str, i: usize) -> usize {
    i + s[i..].len() - s[i..].trim_start().len()
}

/// `key =` at `i`, or no key (a positional value).
fn read_key(s: &str, i: usize) -> (Option<String>, usize) {
    let ident_len = s[i..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len() - i);
    let after = skip_ws(s, i + ident_len);
    let is_key = ident_len > 0 && s[after..].starts_with('=') && !s[after..].starts_with("==");
    if is_key {
        (Some(s[i..i + ident_len].to_owned()), after + 1)
    } else {
        (None, i)
    }
}

/// A value starting at `i`; returns it and the index just after it.
fn read_value(s: &str, i: usize, name: &str) -> Result<(String, usize), ParseError> {
    for quote in ["\"\"\"", "'''", "\"", "'"] {
        if s[i..].starts_with(quote) {
            return read_quoted(s, i + quote.len(), quote, name);
        }
    }
    let end = s[i..].find([',', ')']).map_or(s.len(), |n| i + n);
    Ok((s[i..end].trim().to_owned(), end))
}

/// The closing quote is the first one followed (after blanks) by `,`, `)` or the end.
fn read_quoted(
    s: &str,
    start: usize,
    quote: &str,
    name: &str,
) -> Result<(String, usize), ParseError> {
    let single = quote.len() == 1;
    let mut from = start;
    while let Some(n) = s[from..].find(quote) {
        let at = from + n;
        let escaped = single && s[..at].ends_with('\\') && !s[..at].ends_with("\\\\");
        let after = skip_ws(s, at + quote.len());
        let closes = after >= s.len() || s[after..].starts_with([',', ')']);
        if closes && !escaped {
            let raw = &s[start..at];
            let value = if single {
                raw.replace(&format!("\\{quote}"), quote)
            } else {
                raw.to_owned()
            };
            return Ok((value, at + quote.len()));
        }
        from = at + 1;
    }
    err(format!(
        "a {quote}-quoted value in {name}(...) is never closed"
    ))
}

struct Args(Vec<Arg>);

impl Args {
    /// The value named by one of `keys`, else the positional value at `position`.
    fn get(&self, keys: &[&str], position: usize) -> Option<&str> {
        let named = self
            .0
            .iter()
            .find(|(k, _)| k.as_deref().is_some_and(|k| keys.contains(&k)));
        let positional = || self.0.iter().filter(|(k, _)| k.is_none()).nth(position);
        named.or_else(positional).map(|(_, v)| v.as_str())
    }

    fn require(&self, name: &str, keys: &[&str], position: usize) -> Result<&str, ParseError> {
        match self.get(keys, position) {
            Some(value) if !value.trim().is_empty() => Ok(value),
            _ => err(format!(
                "{name}(...) needs a non-empty `{}` argument",
                keys[0]
            )),
        }
    }
}

fn build(name: &str, args: &Args, rest: &str) -> Result<Action, ParseError> {
    Ok(match name {
        "Bash" => Action::Bash {
            code: args
                .require(name, &["code", "command", "cmd"], 0)?
                .trim()
                .to_owned(),
        },
        "CreateFile" | "EditFile" => {
            let filepath = args.require(name, &["filepath", "path", "file_path"], 0)?;
            let filepath = filepath.trim().to_owned();
            let content = match args.get(&["content", "code"], 1) {
                Some(content) => content.trim_matches('\n').to_owned(),
                None => fenced_block(rest, name)?,
            };
            if name == "CreateFile" {
                Action::CreateFile { filepath, content }
            } else {
                Action::EditFile { filepath, content }
            }
        }
        "SQL" => Action::Sql {
            query: args
                .require(name, &["query", "sql", "sql_query", "command"], 0)?
                .trim()
                .to_owned(),
        },
        "ListTables" => Action::ListTables,
        "TableInfo" => Action::TableInfo {
            table: args
                .require(name, &["table", "table_name"], 0)?
                .trim()
                .to_owned(),
        },
        "SampleRows" => Action::SampleRows {
            table: args
                .require(name, &["table", "table_name"], 0)?
                .trim()
                .to_owned(),
            rows: sample_rows(args.get(&["rows", "n", "row_number", "limit"], 1))?,
        },
        _ => Action::Terminate {
            answer: args
                .get(&["answer", "output", "result"], 0)
                .unwrap_or("")
                .trim()
                .to_owned(),
        },
    })
}

fn sample_rows(value: Option<&str>) -> Result<u32, ParseError> {
    match value {
        None => Ok(DEFAULT_SAMPLE_ROWS),
        Some(text) => text.trim().parse().or_else(|_| {
            err(format!(
                "SampleRows rows must be a whole number, not {text:?}"
            ))
        }),
    }
}

/// The content of the ``` block after `CreateFile(...)`/`EditFile(...)`: from the
/// line after the opening fence to the last closing fence.
fn fenced_block(rest: &str, name: &str) -> Result<String, ParseError> {
    let missing = || {
        err(format!(
            "{name}(filepath=\"...\") must be followed by the file content in a ``` fenced block"
        ))
    };
    let body = rest.trim_start().trim_start_matches(':').trim_start();
    let Some(after_fence) = body.strip_prefix("```") else {
        return missing();
    };
    let Some(line_end) = after_fence.find('\n') else {
        return missing();
    };
    let inner = &after_fence[line_end + 1..];
    let Some(close) = inner.rfind("```") else {
        return missing();
    };
    Ok(inner[..close].trim_end().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(text: &str) -> Action {
        parse_response(text).unwrap().action
    }

    #[test]
    fn thought_and_triple_quoted_bash() {
        let p = parse_response(
            "Thought: look around\nAction: Bash(code=\"\"\"ls -la | grep \"x\"\"\"\")",
        )
        .unwrap();
        assert_eq!(p.thought, "look around");
        assert_eq!(
            p.action,
            Action::Bash {
                code: "ls -la | grep \"x\"".into()
            }
        );
    }

    #[test]
    fn quotes_and_parentheses_inside_values() {
        assert_eq!(
            action("Action: Bash(code=\"echo $(pwd) \\\"hi\\\", done\")"),
            Action::Bash {
                code: "echo $(pwd) \"hi\", done".into()
            }
        );
        assert_eq!(
            action("Action: Bash('ls')"),
            Action::Bash { code: "ls".into() }
        );
    }

    #[test]
    fn create_file_takes_a_fenced_block_up_to_the_last_fence() {
        let text = "Thought: write\nAction: CreateFile(filepath=\"models/a.md\"):\n```markdown\n# T\n```sql\nselect 1\n```\n```";
        assert_eq!(
            action(text),
            Action::CreateFile {
                filepath: "models/a.md".into(),
                content: "# T\n```sql\nselect 1\n```".into()
            }
        );
        let edit = action("Action: EditFile(filepath='x.sql')\n```\nselect 2\n```");
        assert_eq!(
            edit,
            Action::EditFile {
                filepath: "x.sql".into(),
                content: "select 2".into()
            }
        );
    }

    #[test]
    fn sql_and_warehouse_actions() {
        assert_eq!(
            action("Action: SQL(query=\"\"\"\nSELECT 1;\n\"\"\")"),
            Action::Sql {
                query: "SELECT 1;".into()
            }
        );
        assert_eq!(action("Action: ListTables()"), Action::ListTables);
        assert_eq!(
            action("Action: TableInfo(table=\"s.t\")"),
            Action::TableInfo {
                table: "s.t".into()
            }
        );
        assert_eq!(
            action("Action: SampleRows(table=\"t\", rows=3)"),
            Action::SampleRows {
                table: "t".into(),
                rows: 3
            }
        );
        assert_eq!(
            action("Action: SampleRows(table=\"t\")"),
            Action::SampleRows {
                table: "t".into(),
                rows: 5
            }
        );
        assert_eq!(
            action("Action: Terminate(output=\"done\")"),
            Action::Terminate {
                answer: "done".into()
            }
        );
    }

    #[test]
    fn invented_observations_are_ignored() {
        let text = "Thought: a\nAction: Bash(code=\"ls\")\nObservation: x\nThought: b\nAction: Bash(code=\"rm -rf /\")";
        assert_eq!(action(text), Action::Bash { code: "ls".into() });
    }

    #[test]
    fn malformed_replies_say_what_is_wrong() {
        let none = parse_response("I will list the files.").unwrap_err();
        assert!(none.0.contains("no action found"), "{none}");
        let open = parse_response("Action: Bash(code=\"ls").unwrap_err();
        assert!(open.0.contains("never closed"), "{open}");
        let unclosed = parse_response("Action: ListTables(").unwrap_err();
        assert!(unclosed.0.contains("no closing parenthesis"), "{unclosed}");
        let no_block = parse_response("Action: CreateFile(filepath=\"a\")").unwrap_err();
        assert!(no_block.0.contains("fenced block"), "{no_block}");
        let empty = parse_response("Action: Bash(code=\"\")").unwrap_err();
        assert!(empty.0.contains("needs a non-empty `code`"), "{empty}");
        let rows = parse_response("Action: SampleRows(table=\"t\", rows=many)").unwrap_err();
        assert!(rows.0.contains("whole number"), "{rows}");
    }

    #[test]
    fn identifiers_ending_in_an_action_name_do_not_match() {
        assert!(parse_response("Action: MyBash(code=\"ls\")").is_err());
    }
}
