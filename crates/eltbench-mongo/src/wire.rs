//! Message framing of the MongoDB wire protocol: reading one length-prefixed message,
//! parsing OP_MSG (section kind 0 body, kind 1 document sequences) and legacy OP_QUERY,
//! and encoding OP_MSG and OP_REPLY answers. Knows nothing about commands. Every length
//! is checked against the buffer before use; bad input is a [`WireError`], never a panic.

use bson::{Document, RawDocumentBuf};
use tokio::io::{AsyncRead, AsyncReadExt};

pub const OP_REPLY: i32 = 1;
pub const OP_QUERY: i32 = 2004;
pub const OP_MSG: i32 = 2013;

/// `maxMessageSizeBytes` as `mongod` reports it.
pub const MAX_MESSAGE_BYTES: usize = 48_000_000;

const HEADER_BYTES: usize = 16;
const FLAG_CHECKSUM_PRESENT: u32 = 1;
const FLAG_MORE_TO_COME: u32 = 1 << 1;
const FLAG_EXHAUST_ALLOWED: u32 = 1 << 16;
/// Bits 0-15 must be understood by the receiver; these are the ones we do.
const REQUIRED_FLAGS_UNDERSTOOD: u32 = FLAG_CHECKSUM_PRESENT | FLAG_MORE_TO_COME;

/// Why a connection's byte stream could not be understood (the connection is closed).
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    #[error("message length {0} is outside 16..={MAX_MESSAGE_BYTES}")]
    BadLength(i64),
    #[error("unsupported opcode {0}")]
    UnsupportedOpCode(i32),
    #[error("malformed {op}: {reason}")]
    Malformed { op: &'static str, reason: String },
}

/// The standard message header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub request_id: i32,
    pub response_to: i32,
    pub op_code: i32,
}

/// A parsed request.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    Msg(OpMsg),
    Query(OpQuery),
}

/// OP_MSG: flags, the body, and any document sequences (e.g. insert's `documents`).
#[derive(Debug, Clone, PartialEq)]
pub struct OpMsg {
    pub flags: u32,
    pub body: Document,
    pub sequences: Vec<(String, Vec<Document>)>,
}

impl OpMsg {
    /// True when the client expects no reply (`moreToCome`).
    pub fn more_to_come(&self) -> bool {
        self.flags & FLAG_MORE_TO_COME != 0
    }
}

/// Legacy OP_QUERY, as drivers send it only for the first `isMaster`/`hello`.
#[derive(Debug, Clone, PartialEq)]
pub struct OpQuery {
    pub full_collection_name: String,
    pub query: Document,
}

/// Reads one message; `Ok(None)` on a clean end of stream between messages.
pub async fn read_message<R: AsyncRead + Unpin>(
    reader: &mut R,
) -> Result<Option<(Header, Request)>, WireError> {
    let mut head = [0u8; HEADER_BYTES];
    match reader.read_exact(&mut head).await {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e.into()),
    }
    let word = |i: usize| i32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
    let length = usize::try_from(word(0))
        .ok()
        .filter(|l| (HEADER_BYTES..=MAX_MESSAGE_BYTES).contains(l))
        .ok_or(WireError::BadLength(i64::from(word(0))))?;
    let header = Header {
        request_id: word(4),
        response_to: word(8),
        op_code: word(12),
    };
    let mut body = vec![0u8; length - HEADER_BYTES];
    reader.read_exact(&mut body).await?;
    Ok(Some((header, parse(header.op_code, &body)?)))
}

/// Parses a message body (everything after the header).
pub fn parse(op_code: i32, body: &[u8]) -> Result<Request, WireError> {
    match op_code {
        OP_MSG => parse_msg(body)
            .map(Request::Msg)
            .map_err(|reason| WireError::Malformed {
                op: "OP_MSG",
                reason,
            }),
        OP_QUERY => parse_query(body)
            .map(Request::Query)
            .map_err(|reason| WireError::Malformed {
                op: "OP_QUERY",
                reason,
            }),
        other => Err(WireError::UnsupportedOpCode(other)),
    }
}

fn parse_msg(body: &[u8]) -> Result<OpMsg, String> {
    let mut r = Bytes::new(body);
    let flags = r.u32()?;
    let unknown = flags & 0xFFFF & !REQUIRED_FLAGS_UNDERSTOOD;
    if unknown != 0 {
        return Err(format!("unknown required flag bits {unknown:#x}"));
    }
    let end = if flags & FLAG_CHECKSUM_PRESENT != 0 {
        body.len()
            .checked_sub(4)
            .ok_or("no room for the checksum")?
    } else {
        body.len()
    };
    let mut r = Bytes::new(&body[..end]);
    r.u32()?;
    let (mut main, mut sequences) = (None, Vec::new());
    while !r.is_empty() {
        match r.u8()? {
            0 if main.is_none() => main = Some(r.document()?),
            0 => return Err("more than one body section".into()),
            1 => sequences.push(r.sequence()?),
            kind => return Err(format!("unknown section kind {kind}")),
        }
    }
    let body = main.ok_or("no body section")?;
    Ok(OpMsg {
        flags: flags & !FLAG_EXHAUST_ALLOWED,
        body,
        sequences,
    })
}

fn parse_query(body: &[u8]) -> Result<OpQuery, String> {
    let mut r = Bytes::new(body);
    r.u32()?;
    let full_collection_name = r.cstring()?;
    r.u32()?;
    r.u32()?;
    let mut query = r.document()?;
    let wrapped = matches!(
        query.keys().next().map(String::as_str),
        Some("$query" | "query")
    );
    if wrapped && let Some((_, bson::Bson::Document(inner))) = query.iter().next() {
        query = inner.clone();
    }
    Ok(OpQuery {
        full_collection_name,
        query,
    })
}

/// A bounds-checked little-endian reader over a message body.
struct Bytes<'a> {
    buf: &'a [u8],
}

impl<'a> Bytes<'a> {
    fn new(buf: &'a [u8]) -> Self {
        Self { buf }
    }

    fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.buf.len() {
            return Err(format!("needs {n} bytes, {} left", self.buf.len()));
        }
        let (head, rest) = self.buf.split_at(n);
        self.buf = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A length as stored on the wire (an int32 that counts itself).
    fn peek_len(&self) -> Result<usize, String> {
        let b = self.buf.get(..4).ok_or("truncated length")?;
        let n = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        usize::try_from(n)
            .ok()
            .filter(|n| *n >= 5)
            .ok_or(format!("bad length {n}"))
    }

    fn cstring(&mut self) -> Result<String, String> {
        let nul = self
            .buf
            .iter()
            .position(|b| *b == 0)
            .ok_or("unterminated string")?;
        let s = std::str::from_utf8(&self.buf[..nul])
            .map_err(|e| e.to_string())?
            .to_owned();
        self.buf = &self.buf[nul + 1..];
        Ok(s)
    }

    fn document(&mut self) -> Result<Document, String> {
        let bytes = self.take(self.peek_len()?)?;
        Document::from_reader(bytes).map_err(|e| format!("bad BSON document: {e}"))
    }

    fn sequence(&mut self) -> Result<(String, Vec<Document>), String> {
        let size = self.peek_len()?;
        let mut section = Bytes::new(self.take(size)?);
        section.u32()?;
        let identifier = section.cstring()?;
        let mut docs = Vec::new();
        while !section.is_empty() {
            docs.push(section.document()?);
        }
        Ok((identifier, docs))
    }
}

/// Encodes an OP_MSG reply carrying one body section.
pub fn encode_msg(request_id: i32, response_to: i32, body: &RawDocumentBuf) -> Vec<u8> {
    let doc = body.as_bytes();
    let mut out = header(
        HEADER_BYTES + 4 + 1 + doc.len(),
        request_id,
        response_to,
        OP_MSG,
    );
    out.extend_from_slice(&0u32.to_le_bytes());
    out.push(0);
    out.extend_from_slice(doc);
    out
}

/// Encodes an OP_REPLY carrying one document (the answer to an OP_QUERY command).
pub fn encode_reply(request_id: i32, response_to: i32, doc: &RawDocumentBuf) -> Vec<u8> {
    let doc = doc.as_bytes();
    let mut out = header(
        HEADER_BYTES + 20 + doc.len(),
        request_id,
        response_to,
        OP_REPLY,
    );
    out.extend_from_slice(&0i32.to_le_bytes()); // responseFlags
    out.extend_from_slice(&0i64.to_le_bytes()); // cursorID
    out.extend_from_slice(&0i32.to_le_bytes()); // startingFrom
    out.extend_from_slice(&1i32.to_le_bytes()); // numberReturned
    out.extend_from_slice(doc);
    out
}

fn header(length: usize, request_id: i32, response_to: i32, op_code: i32) -> Vec<u8> {
    let mut out = Vec::with_capacity(length);
    out.extend_from_slice(&i32::try_from(length).unwrap_or(i32::MAX).to_le_bytes());
    out.extend_from_slice(&request_id.to_le_bytes());
    out.extend_from_slice(&response_to.to_le_bytes());
    out.extend_from_slice(&op_code.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bson::doc;

    fn doc_bytes(d: &Document) -> Vec<u8> {
        bson::to_vec(d).unwrap()
    }

    fn msg_with_sequence() -> Vec<u8> {
        let mut body = 0u32.to_le_bytes().to_vec();
        body.push(0);
        body.extend(doc_bytes(&doc! {"insert": "c", "$db": "d"}));
        let mut seq = b"documents\0".to_vec();
        seq.extend(doc_bytes(&doc! {"a": 1}));
        seq.extend(doc_bytes(&doc! {"a": 2}));
        body.push(1);
        body.extend(u32::try_from(seq.len() + 4).unwrap().to_le_bytes());
        body.extend(seq);
        body
    }

    #[test]
    fn parses_body_and_document_sequences() {
        let Request::Msg(msg) = parse(OP_MSG, &msg_with_sequence()).unwrap() else {
            panic!()
        };
        assert_eq!(msg.body.get_str("insert").unwrap(), "c");
        assert_eq!(
            msg.sequences,
            vec![("documents".to_owned(), vec![doc! {"a": 1}, doc! {"a": 2}])]
        );
        assert!(!msg.more_to_come());
    }

    #[test]
    fn parses_legacy_query_with_wrapped_command() {
        let mut body = 0u32.to_le_bytes().to_vec();
        body.extend(b"admin.$cmd\0");
        body.extend(0u32.to_le_bytes());
        body.extend((-1i32).to_le_bytes());
        body.extend(doc_bytes(
            &doc! {"$query": {"isMaster": 1}, "$readPreference": {}},
        ));
        let Request::Query(q) = parse(OP_QUERY, &body).unwrap() else {
            panic!()
        };
        assert_eq!(
            (q.full_collection_name.as_str(), q.query),
            ("admin.$cmd", doc! {"isMaster": 1})
        );
    }

    #[test]
    fn rejects_truncated_and_unknown_input() {
        let good = msg_with_sequence();
        for cut in [0, 3, 7, 20, good.len() - 1] {
            assert!(parse(OP_MSG, &good[..cut]).is_err(), "cut at {cut}");
        }
        let mut flagged = good.clone();
        flagged[0] = 0b100;
        assert!(parse(OP_MSG, &flagged).is_err());
        assert!(matches!(
            parse(2012, &good),
            Err(WireError::UnsupportedOpCode(2012))
        ));
    }

    #[tokio::test]
    async fn reads_framed_messages_and_rejects_bad_lengths() {
        let reply = RawDocumentBuf::from_document(&doc! {"ok": 1.0}).unwrap();
        let framed = encode_msg(5, 9, &reply);
        let (header, Request::Msg(msg)) =
            read_message(&mut framed.as_slice()).await.unwrap().unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (header.request_id, header.response_to, header.op_code),
            (5, 9, OP_MSG)
        );
        assert_eq!(msg.body, doc! {"ok": 1.0});
        assert!(read_message(&mut [].as_slice()).await.unwrap().is_none());
        let mut huge = framed.clone();
        huge[..4].copy_from_slice(&i32::MAX.to_le_bytes());
        assert!(matches!(
            read_message(&mut huge.as_slice()).await,
            Err(WireError::BadLength(_))
        ));
    }
}
