//! PostgreSQL's COPY text format, decoded: rows end with `\n`, fields are separated by
//! tabs, `\N` is NULL, and backslash escapes (`\t`, `\n`, `\\`, octal, `\x`) are undone.

use crate::sync::records::RowBatchBuilder;

/// Splits a byte stream into lines across chunk boundaries.
#[derive(Debug, Default)]
pub struct Lines {
    partial: Vec<u8>,
}

impl Lines {
    /// Feeds one chunk, calling `each` for every complete line.
    pub fn feed(&mut self, chunk: &[u8], mut each: impl FnMut(&[u8])) {
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|b| *b == b'\n') {
            if self.partial.is_empty() {
                each(&rest[..end]);
            } else {
                self.partial.extend_from_slice(&rest[..end]);
                each(&std::mem::take(&mut self.partial));
            }
            rest = &rest[end + 1..];
        }
        self.partial.extend_from_slice(rest);
    }
}

/// Pushes one COPY line as a row.
pub fn push_row(rows: &mut RowBatchBuilder, line: &[u8]) {
    let mut scratch = String::new();
    for (col, field) in line.split(|b| *b == b'\t').enumerate() {
        if field == b"\\N" {
            rows.push_text(col, None);
        } else if field.contains(&b'\\') {
            scratch.clear();
            unescape(field, &mut scratch);
            rows.push_text(col, Some(&scratch));
        } else {
            rows.push_text(col, Some(&String::from_utf8_lossy(field)));
        }
    }
    rows.end_row();
}

/// Undoes COPY's backslash escapes.
pub fn unescape(field: &[u8], out: &mut String) {
    let mut bytes = Vec::with_capacity(field.len());
    let mut i = 0;
    while i < field.len() {
        let b = field[i];
        i += 1;
        if b != b'\\' || i >= field.len() {
            bytes.push(b);
            continue;
        }
        let e = field[i];
        i += 1;
        match e {
            b'b' => bytes.push(8),
            b'f' => bytes.push(12),
            b'n' => bytes.push(b'\n'),
            b'r' => bytes.push(b'\r'),
            b't' => bytes.push(b'\t'),
            b'v' => bytes.push(11),
            b'0'..=b'7' => {
                let mut value = u32::from(e - b'0');
                for _ in 0..2 {
                    match field.get(i) {
                        Some(d @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                bytes.push(u8::try_from(value & 0xff).unwrap_or(0));
            }
            b'x' => {
                let hex: Vec<u8> = field[i..]
                    .iter()
                    .take(2)
                    .take_while(|d| d.is_ascii_hexdigit())
                    .copied()
                    .collect();
                i += hex.len();
                let value = std::str::from_utf8(&hex)
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                bytes.push(value.unwrap_or(b'x'));
            }
            other => bytes.push(other),
        }
    }
    out.push_str(&String::from_utf8_lossy(&bytes));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_join_across_chunks() {
        let mut lines = Lines::default();
        let mut seen = Vec::new();
        lines.feed(b"a\tb\nc", |l| seen.push(l.to_vec()));
        lines.feed(b"d\n", |l| seen.push(l.to_vec()));
        assert_eq!(seen, vec![b"a\tb".to_vec(), b"cd".to_vec()]);
    }

    #[test]
    fn escapes_are_undone() {
        let mut out = String::new();
        unescape(br"tab\there\nnew\\slash\101\x42", &mut out);
        assert_eq!(out, "tab\there\nnew\\slashAB");
    }
}
