//! 1-based line numbers for CSV records.
//!
//! The `csv` crate reports a record's start as the position before the line end that
//! precedes it is fully consumed: after a `\r\n` it still names the previous line. So
//! this reader sits between the file and the CSV parser, remembers where every `\n`
//! is, and a record starting at byte `b` is on line 1 + (number of `\n` at offsets
//! `<= b`). It only observes bytes; it never changes them.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Read;
use std::rc::Rc;

/// Newline offsets seen by the reader but not yet passed by the parser.
#[derive(Debug, Default)]
pub(crate) struct LineIndex {
    pending: VecDeque<u64>,
    passed: u64,
}

impl LineIndex {
    /// The line of a record whose position is byte `start`.
    pub(crate) fn line_at(&mut self, start: u64) -> u64 {
        while self.pending.front().is_some_and(|&nl| nl <= start) {
            self.pending.pop_front();
            self.passed += 1;
        }
        self.passed + 1
    }
}

/// A reader that feeds newline offsets into a shared [`LineIndex`].
pub(crate) struct LineCounting<R> {
    inner: R,
    offset: u64,
    index: Rc<RefCell<LineIndex>>,
}

impl<R: Read> LineCounting<R> {
    pub(crate) fn new(inner: R) -> (Self, Rc<RefCell<LineIndex>>) {
        let index = Rc::new(RefCell::new(LineIndex::default()));
        (
            Self {
                inner,
                offset: 0,
                index: index.clone(),
            },
            index,
        )
    }
}

impl<R: Read> Read for LineCounting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut index = self.index.borrow_mut();
        for (i, _) in buf[..n].iter().enumerate().filter(|(_, b)| **b == b'\n') {
            index.pending.push_back(self.offset + i as u64);
        }
        self.offset += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_newlines_up_to_and_including_the_start_byte() {
        let (mut reader, index) = LineCounting::new(&b"ab\r\ncd\nef"[..]);
        let mut sink = Vec::new();
        reader.read_to_end(&mut sink).unwrap();
        let mut index = index.borrow_mut();
        assert_eq!(index.line_at(0), 1);
        assert_eq!(index.line_at(3), 2); // the `\n` of `\r\n`
        assert_eq!(index.line_at(7), 3);
    }
}
