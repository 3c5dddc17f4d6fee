//! The S3 source's glob patterns, as the file-based CDK reads them (wcmatch with
//! GLOBSTAR and SPLIT): `**` spans folders, `*` and `?` stay within one, `[...]` is a
//! character class, and `a|b` is two patterns.

/// Whether `key` matches any of the `|`-separated patterns of any glob.
pub fn matches_any(globs: &[String], key: &str) -> bool {
    globs
        .iter()
        .flat_map(|g| g.split('|'))
        .any(|pattern| matches(pattern.trim(), key))
}

/// Whether `key` matches one pattern.
pub fn matches(pattern: &str, key: &str) -> bool {
    let parts: Vec<&str> = pattern.split('/').collect();
    let segments: Vec<&str> = key.split('/').collect();
    match_segments(&parts, &segments)
}

fn match_segments(parts: &[&str], segments: &[&str]) -> bool {
    match parts.split_first() {
        None => segments.is_empty(),
        Some((&"**", rest)) => {
            (0..=segments.len()).any(|skip| match_segments(rest, &segments[skip..]))
        }
        Some((part, rest)) => match segments.split_first() {
            Some((segment, tail)) => {
                match_segment(part.as_bytes(), segment.as_bytes()) && match_segments(rest, tail)
            }
            None => false,
        },
    }
}

fn match_segment(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len()).any(|skip| match_segment(rest, &text[skip..])),
        Some((b'?', rest)) => !text.is_empty() && match_segment(rest, &text[1..]),
        Some((b'[', rest)) => match (rest.iter().position(|b| *b == b']'), text.split_first()) {
            (Some(end), Some((c, tail))) => {
                in_class(&rest[..end], *c) && match_segment(&rest[end + 1..], tail)
            }
            _ => false,
        },
        Some((p, rest)) => text.first() == Some(p) && match_segment(rest, &text[1..]),
    }
}

fn in_class(class: &[u8], c: u8) -> bool {
    let (negate, class) = match class.split_first() {
        Some((b'!' | b'^', rest)) => (true, rest),
        _ => (false, class),
    };
    let mut found = false;
    let mut i = 0;
    while i < class.len() {
        if i + 2 < class.len() && class[i + 1] == b'-' {
            found |= (class[i]..=class[i + 2]).contains(&c);
            i += 3;
        } else {
            found |= class[i] == c;
            i += 1;
        }
    }
    found != negate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globstar_spans_folders_and_star_does_not() {
        assert!(matches("**", "a/b/c.csv"));
        assert!(matches("**/*.csv", "c.csv"));
        assert!(matches("**/*.csv", "a/b/c.csv"));
        assert!(!matches("*.csv", "a/c.csv"));
        assert!(matches("myFolder/**/*.csv", "myFolder/x/y.csv"));
        assert!(!matches("myFolder/**/*.csv", "other/x/y.csv"));
        assert!(matches("CBSA.jsonl", "CBSA.jsonl"));
    }

    #[test]
    fn classes_questions_and_split_patterns() {
        assert!(matches("part[0-9].csv", "part3.csv"));
        assert!(!matches("part[!0-9].csv", "part3.csv"));
        assert!(matches("file?.csv", "file1.csv"));
        let globs = vec!["a/*.csv|b/*.csv".to_owned()];
        assert!(matches_any(&globs, "b/x.csv"));
        assert!(!matches_any(&globs, "c/x.csv"));
    }
}
