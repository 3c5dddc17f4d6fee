//! `terraform fmt` canonical layout, line-based: two-space indentation by
//! bracket depth, single spaces around `=`, and `=` aligned across runs of
//! consecutive single-line arguments (a multi-line argument ends a run).
//!
//! Works on text; strings, heredocs and comments are left intact.

/// Formats one HCL file's text.
pub fn format_source(src: &str) -> String {
    let mut lines: Vec<Line> = Vec::new();
    let mut depth: i64 = 0;
    let mut heredoc: Option<String> = None;
    for raw in src.lines() {
        if let Some(marker) = &heredoc {
            if raw.trim() == marker {
                heredoc = None;
            }
            lines.push(Line {
                text: raw.to_string(),
                depth: -1,
                key: None,
                opens: false,
            });
            continue;
        }
        let trimmed = raw.trim();
        let delta = bracket_delta(trimmed);
        let leading_close = trimmed
            .chars()
            .take_while(|c| matches!(c, '}' | ']' | ')'))
            .count() as i64;
        let my_depth = (depth - leading_close).max(0);
        depth = (depth + delta).max(0);
        heredoc = heredoc_marker(trimmed);
        let key = assignment(trimmed);
        lines.push(Line {
            text: trimmed.to_string(),
            depth: my_depth,
            key,
            opens: delta > 0,
        });
    }
    align(&mut lines);
    let mut out = String::new();
    for l in &lines {
        if l.depth > 0 && !l.text.is_empty() {
            out.push_str(&"  ".repeat(l.depth as usize));
        }
        out.push_str(&l.text);
        out.push('\n');
    }
    let trimmed = out.trim_end_matches('\n');
    if trimmed.is_empty() {
        String::new()
    } else {
        format!("{trimmed}\n")
    }
}

struct Line {
    text: String,
    depth: i64,
    /// `(name, rest after "=")` for `name = value` lines.
    key: Option<(String, String)>,
    opens: bool,
}

fn align(lines: &mut [Line]) {
    let mut i = 0;
    while i < lines.len() {
        let Some(depth) = lines[i].key.as_ref().map(|_| lines[i].depth) else {
            i += 1;
            continue;
        };
        let mut j = i;
        while j < lines.len()
            && lines[j].key.is_some()
            && lines[j].depth == depth
            && !lines[j].opens
        {
            j += 1;
        }
        let end = j.max(i + 1);
        let width = lines[i..end]
            .iter()
            .filter_map(|l| l.key.as_ref().map(|k| k.0.len()))
            .max()
            .unwrap_or(0);
        for l in &mut lines[i..end] {
            if let Some((k, v)) = &l.key {
                l.text = if l.opens {
                    format!("{k} = {v}")
                } else {
                    format!("{k:<width$} = {v}")
                };
            }
        }
        i = end.max(i + 1);
    }
}

/// `name = value` (not `==`), with the name an identifier or quoted string.
fn assignment(line: &str) -> Option<(String, String)> {
    if line.starts_with('#') || line.starts_with("//") {
        return None;
    }
    let idx = line.find('=')?;
    let (name, rest) = (line[..idx].trim_end(), &line[idx + 1..]);
    if rest.starts_with('=') || rest.starts_with('>') || name.is_empty() {
        return None;
    }
    let ident = name
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    let quoted = name.starts_with('"') && name.ends_with('"') && name.len() > 1;
    (ident || quoted).then(|| (name.to_string(), rest.trim().to_string()))
}

fn heredoc_marker(line: &str) -> Option<String> {
    let i = line.find("<<")?;
    let marker: String = line[i + 2..]
        .trim_start_matches('-')
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!marker.is_empty() && !line[i..].contains('"')).then_some(marker)
}

/// Net bracket depth change of a line, ignoring strings and comments.
fn bracket_delta(line: &str) -> i64 {
    let mut delta = 0;
    let mut in_str = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if in_str => {
                chars.next();
            }
            '"' => in_str = !in_str,
            '#' if !in_str => break,
            '/' if !in_str && chars.peek() == Some(&'/') => break,
            '{' | '[' | '(' if !in_str => delta += 1,
            '}' | ']' | ')' if !in_str => delta -= 1,
            _ => {}
        }
    }
    delta
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_equals_and_reindents() {
        let src = "resource \"a\" \"b\" {\nname = \"x\"\n    workspace_id = \"y\"\nconfiguration = {\nhost = \"h\"\n}\n}\n";
        let want = "resource \"a\" \"b\" {\n  name         = \"x\"\n  workspace_id = \"y\"\n  configuration = {\n    host = \"h\"\n  }\n}\n";
        assert_eq!(format_source(src), want);
        assert_eq!(format_source(want), want);
    }
}
