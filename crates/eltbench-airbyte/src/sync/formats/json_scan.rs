//! One fast pass over a JSON Lines file that learns what the native load needs
//! without building values: every top-level key in first-seen order, with the kinds
//! of values it held. Each line goes through serde_json (so validity, strings and
//! numbers are judged exactly as the Rust reader judges them) into borrowed keys and
//! raw value text; lines are split into chunks scanned on all cores.
//!
//! The scan refuses (`None`) whatever the native path could get wrong, so the Rust
//! reader handles it: lines that are not objects or not valid JSON (or UTF-8),
//! duplicate keys in a record, keys equal but for case, numbers whose decimal text
//! serde and DuckDB may round or print differently (16+ significant digits in a
//! decimal, 20+ digit integers, exponents, `-0`), and `\u` escapes of UTF-16
//! surrogates anywhere in a line.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::wider;
use crate::sync::typing::AirbyteType;

/// The kinds of JSON values one key held (a bit set).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kinds(u16);

impl Kinds {
    pub const NULL: u16 = 1;
    pub const BOOL: u16 = 1 << 1;
    /// An integer that fits a signed 64-bit integer.
    pub const INT: u16 = 1 << 2;
    /// An integer above `i64::MAX` (a `u64` to serde).
    pub const UINT: u16 = 1 << 3;
    /// A decimal, or a negative integer below `i64::MIN` (an `f64` to serde).
    pub const FLOAT: u16 = 1 << 4;
    pub const STRING: u16 = 1 << 5;
    pub const OBJECT: u16 = 1 << 6;
    pub const ARRAY: u16 = 1 << 7;

    /// Whether every value was of the `allowed` kinds.
    pub fn only(self, allowed: u16) -> bool {
        self.0 & !allowed == 0
    }

    /// Whether some value was of one of `kinds`.
    pub fn any(self, kinds: u16) -> bool {
        self.0 & kinds != 0
    }

    /// The column type `json::infer` gives these values (all null: string).
    pub fn airbyte_type(self) -> AirbyteType {
        let mut merged: Option<AirbyteType> = None;
        for (bits, ty) in [
            (Self::BOOL, AirbyteType::Boolean),
            (Self::INT | Self::UINT, AirbyteType::Integer),
            (Self::FLOAT, AirbyteType::Number),
            (Self::STRING, AirbyteType::String),
            (Self::OBJECT | Self::ARRAY, AirbyteType::Json),
        ] {
            if self.any(bits) {
                merged = Some(merged.map_or(ty, |m| wider(m, ty)));
            }
        }
        merged.unwrap_or(AirbyteType::String)
    }
}

/// What a scan found: top-level keys in first-seen order with their value kinds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    pub columns: Vec<(String, Kinds)>,
}

impl Scan {
    /// The kinds of one key (no values at all when the file never had it).
    pub fn kinds(&self, key: &str) -> Kinds {
        self.columns
            .iter()
            .find(|(k, _)| k == key)
            .map_or(Kinds::default(), |(_, kinds)| *kinds)
    }
}

/// Scans the bytes of a JSON Lines file; `None` when the Rust reader must read it.
#[cfg(test)]
pub fn scan(bytes: &[u8]) -> Option<Scan> {
    let mut merged = Chunk::default();
    merge_block(&mut merged, bytes)?;
    finish(merged)
}

/// Bytes read per block by [`scan_file`]: memory stays bounded for any file size.
const BLOCK: usize = 64 << 20;

/// Scans a JSON Lines file block by block; `None` when the Rust reader must read it
/// (or the file cannot be read).
pub fn scan_file(path: &Path) -> Option<Scan> {
    let size = std::fs::metadata(path).ok()?.len();
    // a small file is one block (no 64 MiB buffer for a 1 KiB file)
    let block = usize::try_from(size).map_or(BLOCK, |size| BLOCK.min(size + 1));
    scan_blocks(path, block.max(4096))
}

fn scan_blocks(path: &Path, block: usize) -> Option<Scan> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut merged = Chunk::default();
    let mut buffer: Vec<u8> = Vec::with_capacity(block);
    loop {
        let kept = buffer.len();
        buffer.resize(kept + block, 0);
        let mut filled = kept;
        while filled < buffer.len() {
            match file.read(&mut buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
        buffer.truncate(filled);
        let end_of_file = filled < kept + block;
        // whole lines now; a partial last line waits for the next block
        let cut = if end_of_file {
            buffer.len()
        } else {
            buffer
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1)
        };
        merge_block(&mut merged, &buffer[..cut])?;
        buffer.drain(..cut);
        if end_of_file {
            break;
        }
    }
    finish(merged)
}

/// Scans one block of whole lines on all cores and folds it into `merged` (blocks
/// come in file order, so first-seen key order holds).
fn merge_block(merged: &mut Chunk, bytes: &[u8]) -> Option<()> {
    merge_chunks(merged, bytes, chunk_count(bytes.len()))
}

fn merge_chunks(merged: &mut Chunk, bytes: &[u8], count: usize) -> Option<()> {
    let chunks = split(bytes, count);
    let parts: Vec<Option<Chunk>> = if chunks.len() == 1 {
        vec![scan_chunk(chunks[0])]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = chunks
                .iter()
                .map(|chunk| scope.spawn(move || scan_chunk(chunk)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().ok().flatten())
                .collect()
        })
    };
    for part in parts {
        for (key, kinds) in part?.columns {
            let index = merged.index_of(Cow::Owned(key));
            merged.columns[index].1.0 |= kinds.0;
        }
    }
    Some(())
}

/// The scan of every block; `None` without keys or with keys equal but for case.
fn finish(merged: Chunk) -> Option<Scan> {
    let mut folded: Vec<String> = merged
        .columns
        .iter()
        .map(|(k, _)| k.to_lowercase())
        .collect();
    folded.sort_unstable();
    folded.dedup();
    if merged.columns.is_empty() || folded.len() != merged.columns.len() {
        return None;
    }
    Some(Scan {
        columns: merged.columns,
    })
}

fn chunk_count(len: usize) -> usize {
    if len < 4 << 20 {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// `count` slices of `bytes`, each ending after a newline (the last at the end).
fn split(bytes: &[u8], count: usize) -> Vec<&[u8]> {
    let mut chunks = Vec::with_capacity(count);
    let mut start = 0;
    for i in 1..count {
        let target = (bytes.len() * i / count).max(start);
        let end = match bytes[target..].iter().position(|&b| b == b'\n') {
            Some(offset) => target + offset + 1,
            None => bytes.len(),
        };
        chunks.push(&bytes[start..end]);
        start = end;
    }
    chunks.push(&bytes[start..]);
    chunks
}

#[derive(Default)]
struct Chunk {
    columns: Vec<(String, Kinds)>,
    index: HashMap<String, usize>,
    /// The line number each column was last seen on (duplicate keys).
    seen_on: Vec<u64>,
    line: u64,
}

impl Chunk {
    fn index_of(&mut self, key: Cow<'_, str>) -> usize {
        if let Some(&index) = self.index.get(key.as_ref()) {
            return index;
        }
        let index = self.columns.len();
        self.columns.push((key.to_string(), Kinds::default()));
        self.index.insert(key.into_owned(), index);
        self.seen_on.push(0);
        index
    }

    fn add(&mut self, key: Cow<'_, str>, raw: &str) -> Option<()> {
        let index = self.index_of(key);
        if self.seen_on[index] == self.line {
            return None;
        }
        self.seen_on[index] = self.line;
        self.columns[index].1.0 |= kind(raw)?;
        Some(())
    }
}

fn scan_chunk(bytes: &[u8]) -> Option<Chunk> {
    let mut chunk = Chunk::default();
    for line in bytes.split(|&b| b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if line.contains(&b'\\') && has_surrogate_escape(line) {
            return None;
        }
        chunk.line += 1;
        let mut de = serde_json::Deserializer::from_slice(line);
        de.deserialize_map(Record(&mut chunk)).ok()?;
        de.end().ok()?;
    }
    Some(chunk)
}

/// `\u` followed by `d`/`D` and `8`-`f`: an escaped UTF-16 surrogate.
fn has_surrogate_escape(line: &[u8]) -> bool {
    line.windows(4).any(|w| {
        w[0] == b'\\'
            && w[1] == b'u'
            && matches!(w[2], b'd' | b'D')
            && matches!(w[3], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
    })
}

/// The kind of one raw JSON value; `None` for a number serde and DuckDB may disagree on.
fn kind(raw: &str) -> Option<u16> {
    Some(match raw.as_bytes().first()? {
        b'"' => Kinds::STRING,
        b'{' => Kinds::OBJECT,
        b'[' => Kinds::ARRAY,
        b't' | b'f' => Kinds::BOOL,
        b'n' => Kinds::NULL,
        _ => return number(raw),
    })
}

fn number(text: &str) -> Option<u16> {
    if text.contains(['e', 'E']) {
        return None;
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    match digits.split_once('.') {
        Some((int, frac)) => {
            let negative_zero =
                text.starts_with('-') && int == "0" && frac.bytes().all(|b| b == b'0');
            (!negative_zero && int.len() + frac.len() < 16).then_some(Kinds::FLOAT)
        }
        None if digits.len() >= 20 || text == "-0" => None,
        None if text.starts_with('-') => Some(if text.parse::<i64>().is_ok() {
            Kinds::INT
        } else {
            Kinds::FLOAT
        }),
        None => Some(match text.parse::<u64>().ok()? {
            n if i64::try_from(n).is_ok() => Kinds::INT,
            _ => Kinds::UINT,
        }),
    }
}

/// Visits one record's entries into the chunk.
struct Record<'a>(&'a mut Chunk);

impl<'de> Visitor<'de> for Record<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(Key(key)) = map.next_key()? {
            let raw: &RawValue = map.next_value()?;
            self.0
                .add(key, raw.get())
                .ok_or_else(|| de::Error::custom("needs the Rust reader"))?;
        }
        Ok(())
    }
}

/// A key, borrowed from the line unless it had escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }

            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(text: &str) -> Option<Vec<(String, AirbyteType)>> {
        let scan = scan(text.as_bytes())?;
        Some(
            scan.columns
                .into_iter()
                .map(|(k, kinds)| (k, kinds.airbyte_type()))
                .collect(),
        )
    }

    #[test]
    fn keys_come_in_first_seen_order_with_widened_types() {
        let got = types(
            "{\"b\":1,\"a\":\"x\",\"n\":null}\n\n  \r\n{\"a\":2,\"c\":true,\"b\":2.5,\"o\":{\"k\":1},\"e\\u0041\":[1]}\r\n",
        )
        .unwrap();
        let expected = [
            ("b", AirbyteType::Number),
            ("a", AirbyteType::String),
            ("n", AirbyteType::String),
            ("c", AirbyteType::Boolean),
            ("o", AirbyteType::Json),
            ("eA", AirbyteType::Json),
        ];
        let expected: Vec<_> = expected
            .iter()
            .map(|(k, t)| ((*k).to_owned(), *t))
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn numbers_are_classified_as_serde_does() {
        let kinds = |text: &str| scan(format!("{{\"v\":{text}}}").as_bytes()).map(|s| s.kinds("v"));
        assert_eq!(kinds("9223372036854775807"), Some(Kinds(Kinds::INT)));
        assert_eq!(kinds("9223372036854775808"), Some(Kinds(Kinds::UINT)));
        assert_eq!(kinds("-9223372036854775808"), Some(Kinds(Kinds::INT)));
        assert_eq!(kinds("-9223372036854775809"), Some(Kinds(Kinds::FLOAT)));
        assert_eq!(kinds("-0.5"), Some(Kinds(Kinds::FLOAT)));
        assert_eq!(kinds("1234567.12345678"), Some(Kinds(Kinds::FLOAT)));
        for risky in [
            "-0",
            "-0.00",
            "1e5",
            "2E-3",
            "1234567.123456789",
            "12345678901234567890",
        ] {
            assert_eq!(kinds(risky), None, "{risky}");
        }
    }

    #[test]
    fn what_the_native_path_could_get_wrong_is_refused() {
        for text in [
            "{\"a\":1,\"a\":2}\n",
            "{\"a\":1,\"A\":2}\n",
            "[1,2]\n",
            "{\"a\":1}\n{oops\n",
            "{\"a\":\"\\ud83d\\ude00\"}\n",
            "{\"a\":\n1}\n",
            "\u{feff}{\"a\":1}\n",
            "",
        ] {
            assert!(scan(text.as_bytes()).is_none(), "{text:?}");
        }
    }

    #[test]
    fn a_file_is_scanned_in_blocks_with_the_same_answer() {
        let mut text = String::new();
        let mut i = 0;
        let block = 64 << 10;
        while text.len() < 5 * block + (block / 2) {
            text.push_str(&format!(
                "{{\"id\":{i},\"s\":\"{}\"}}\n",
                "x".repeat(i % 300)
            ));
            i += 1;
        }
        text.push_str("{\"id\":2.5,\"tail\":true}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.jsonl");
        std::fs::write(&path, &text).unwrap();
        let from_file = scan_blocks(&path, block).unwrap();
        assert_eq!(Some(&from_file), scan(text.as_bytes()).as_ref());
        assert_eq!(from_file.kinds("id").airbyte_type(), AirbyteType::Number);
        assert_eq!(from_file.columns.len(), 3);
        std::fs::write(&path, text.replace("{\"id\":2.5", "{\"id\":1e5")).unwrap();
        assert!(scan_blocks(&path, block).is_none());
        assert!(scan_file(&dir.path().join("missing.jsonl")).is_none());
    }

    #[test]
    fn chunks_split_at_line_ends_and_merge_in_order() {
        let mut text = String::new();
        for i in 0..2_000 {
            if i == 1_500 {
                text.push_str("{\"late\":1.5,\"id\":1}\n");
            }
            text.push_str(&format!("{{\"id\":{i},\"s\":\"row {i}\"}}\n"));
        }
        let chunks = split(text.as_bytes(), 3);
        assert_eq!(chunks.len(), 3);
        assert_eq!(chunks.concat(), text.as_bytes());
        assert!(chunks[..2].iter().all(|c| c.ends_with(b"\n")));
        let mut merged = Chunk::default();
        merge_chunks(&mut merged, text.as_bytes(), 3).unwrap();
        let names: Vec<_> = finish(merged)
            .unwrap()
            .columns
            .into_iter()
            .map(|(k, kinds)| (k, kinds.airbyte_type()))
            .collect();
        assert_eq!(
            names,
            [
                ("id".to_owned(), AirbyteType::Integer),
                ("s".to_owned(), AirbyteType::String),
                ("late".to_owned(), AirbyteType::Number)
            ]
        );
        assert_eq!(Some(finish_of(&text)), scan(text.as_bytes()));
    }

    fn finish_of(text: &str) -> Scan {
        let mut merged = Chunk::default();
        merge_chunks(&mut merged, text.as_bytes(), 1).unwrap();
        finish(merged).unwrap()
    }
}
