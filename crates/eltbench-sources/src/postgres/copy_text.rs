//! Encoding rows as PostgreSQL `COPY ... FROM STDIN` text format: fields separated by
//! tabs, rows ended by `\n`, NULL as `\N`, and backslash, tab, newline and carriage
//! return escaped. The server parses each field with its column type's input function,
//! so values arrive exactly as the CSV wrote them. No I/O happens here.

use bytes::BytesMut;

use crate::table::Row;

/// Appends one row in COPY text format.
pub fn encode_row(row: &Row<'_>, width: usize, out: &mut BytesMut) {
    for col in 0..width {
        if col > 0 {
            out.extend_from_slice(b"\t");
        }
        match row.get(col) {
            None => out.extend_from_slice(b"\\N"),
            Some(value) => encode_field(value, out),
        }
    }
    out.extend_from_slice(b"\n");
}

fn encode_field(value: &str, out: &mut BytesMut) {
    let bytes = value.as_bytes();
    if !bytes
        .iter()
        .any(|b| matches!(b, b'\\' | b'\t' | b'\n' | b'\r'))
    {
        out.extend_from_slice(bytes);
        return;
    }
    for &b in bytes {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.extend_from_slice(&[b]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Rows;

    #[test]
    fn escapes_specials_and_marks_nulls() {
        let mut rows = Rows::new(3);
        rows.push(2, ["a\tb\\c", "", "line1\r\nline2"]).unwrap();
        let mut out = BytesMut::new();
        encode_row(&rows.get(0).unwrap(), 3, &mut out);
        assert_eq!(&out[..], b"a\\tb\\\\c\t\\N\tline1\\r\\nline2\n");
    }
}
