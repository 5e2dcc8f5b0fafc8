//! One byte a heap (`width = 8`): a heap's value is stored as its position
//! in the statistics' `first_heaps`, the values in order of first
//! appearance. Grundy's game has 222 distinct values among its first
//! 2^32 + 1 heaps, 218 of them by heap 2^26, so a byte holds them at half
//! the size of a u16 table; a 257th distinct value stops the build with an
//! error (never a wrong byte). The order of first appearance is fixed by
//! the heaps before, so a stopped build's codes are those of an unstopped one.

use super::stats::{FirstHeap, GrundyStats};
use crate::table::{EntryKind, Table};
use anyhow::{bail, ensure, Context, Result};
use std::borrow::Cow;

/// Codes a byte can hold.
const MAX_CODES: usize = 256;

/// No code yet.
const NONE: u16 = u16::MAX;

/// Turns values into codes, in heap order.
pub(super) struct Encoder {
    code_of: Vec<u16>,
    codes: usize,
    next_heap: u64,
}

impl Encoder {
    /// For heaps `from` onwards: the codes are those of the values whose
    /// first heap is below `from`.
    pub(super) fn resume(first: &[FirstHeap], from: u64) -> Result<Self> {
        let mut e = Encoder {
            code_of: vec![NONE; 1 << 16],
            codes: 0,
            next_heap: from,
        };
        for f in first.iter().take_while(|f| f.heap < from) {
            e.add(f.value, f.heap)?;
        }
        Ok(e)
    }

    fn add(&mut self, value: u16, heap: u64) -> Result<u8> {
        if self.codes == MAX_CODES {
            bail!(
                "heap {heap} has value {value}, the 257th distinct value: one byte a heap holds 256; set `width = 16` in [grundy] and rebuild"
            );
        }
        let code = self.codes as u8;
        self.code_of[usize::from(value)] = u16::from(code);
        self.codes += 1;
        Ok(code)
    }

    /// Appends the codes of the next `values` to `out`.
    pub(super) fn encode(&mut self, values: &[u16], out: &mut Vec<u8>) -> Result<()> {
        out.reserve(values.len());
        for &v in values {
            let code = match self.code_of[usize::from(v)] {
                NONE => self.add(v, self.next_heap)?,
                c => c as u8,
            };
            out.push(code);
            self.next_heap += 1;
        }
        Ok(())
    }

    /// The number of codes given so far.
    pub(super) fn codes(&self) -> usize {
        self.codes
    }
}

/// The codes of a whole table's values.
pub(super) fn encode_all(values: &[u16]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    Encoder::resume(&[], 0)?.encode(values, &mut out)?;
    Ok(out)
}

/// A `grundy/values` table read as values, whichever its width.
pub struct GrundyValues<'a> {
    table: &'a Table,
    /// For a one-byte table, the value of each code.
    decode: Option<Vec<u16>>,
}

impl<'a> GrundyValues<'a> {
    /// Reads the table's width and, for one byte a heap, its codes.
    pub fn new(table: &'a Table) -> Result<Self> {
        let decode = match table.header().entry_kind {
            EntryKind::U16 => None,
            EntryKind::U8 => {
                let stats: GrundyStats = serde_json::from_value(table.meta().stats.clone())
                    .with_context(|| {
                        format!("{}: statistics are malformed", table.path().display())
                    })?;
                let values: Vec<u16> = stats.first_heaps.iter().map(|f| f.value).collect();
                ensure!(
                    !values.is_empty() && values.len() <= MAX_CODES,
                    "{}: a one-byte values table lists {} values (1 ..= {MAX_CODES} expected)",
                    table.path().display(),
                    values.len()
                );
                Some(values)
            }
            other => bail!(
                "{}: a values table of {} entries (u8 or u16 expected)",
                table.path().display(),
                other.name()
            ),
        };
        Ok(GrundyValues { table, decode })
    }

    /// Bytes a heap.
    pub fn width(&self) -> usize {
        if self.decode.is_some() {
            1
        } else {
            2
        }
    }

    /// G(n).
    pub fn get(&self, n: u64) -> Result<u16> {
        match &self.decode {
            None => Ok(self.table.get::<u16>(n)?),
            Some(d) => self.value_of(d, n, self.table.get::<u8>(n)?),
        }
    }

    fn value_of(&self, decode: &[u16], n: u64, code: u8) -> Result<u16> {
        match decode.get(usize::from(code)) {
            Some(&v) => Ok(v),
            None => bail!(
                "{}: heap {n} holds code {code}, but the table lists {} values: the table is damaged; rebuild it",
                self.table.path().display(),
                decode.len()
            ),
        }
    }

    /// G(start) .. G(start + count - 1).
    pub fn read(&self, start: u64, count: u64) -> Result<Cow<'a, [u16]>> {
        match &self.decode {
            None => Ok(self.table.view::<u16>(start, count)?),
            Some(d) => {
                let codes = self.table.view::<u8>(start, count)?;
                let mut out = Vec::with_capacity(codes.len());
                for (i, &c) in codes.iter().enumerate() {
                    out.push(self.value_of(d, start + i as u64, c)?);
                }
                Ok(Cow::Owned(out))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_first_appearance_and_resume_where_they_stopped() {
        let values = [0u16, 0, 0, 1, 0, 2, 1, 3, 1, 0, 2, 287, 4];
        let whole = encode_all(&values).unwrap();
        assert_eq!(whole, [0, 0, 0, 1, 0, 2, 1, 3, 1, 0, 2, 4, 5]);
        let first: Vec<FirstHeap> = [(0, 0), (1, 3), (2, 5), (3, 7), (287, 11), (4, 12)]
            .map(|(value, heap)| FirstHeap { value, heap })
            .into();
        for from in 0..values.len() {
            let mut e = Encoder::resume(&first, from as u64).unwrap();
            let mut out = whole[..from].to_vec();
            e.encode(&values[from..], &mut out).unwrap();
            assert_eq!(out, whole, "resumed at heap {from}");
            assert_eq!(e.codes(), first.len());
        }
    }

    #[test]
    fn a_257th_distinct_value_is_an_error_naming_its_heap() {
        let values: Vec<u16> = (0..300).collect();
        let err = encode_all(&values).unwrap_err().to_string();
        assert!(
            err.contains("heap 256 has value 256, the 257th distinct value")
                && err.contains("width = 16"),
            "{err}"
        );
        assert_eq!(encode_all(&values[..256]).unwrap().len(), 256);
    }
}
