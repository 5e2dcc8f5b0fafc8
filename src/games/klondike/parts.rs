//! Part tables of the Klondike jobs that build in parts (Solvitaire seed
//! ranges, no-peek games): a part holds u64 entries for a contiguous range
//! of items (seeds or deals) and records which part it is; the merge takes
//! them back in order, checking each is the part expected.

use crate::pipeline::{JobContext, Shard};
use crate::table::writer::write_ranked;
use crate::table::{Table, TableMeta};
use anyhow::{ensure, Context, Result};

/// What a job's part tables are called and hold.
pub(super) struct PartKind<'a> {
    /// The statistics key of the item range ("seeds", "deals").
    pub items: &'a str,
    /// The index, as the part table names it.
    pub index: &'a str,
    /// The entry, as the part table names it.
    pub entry: &'a str,
}

impl PartKind<'_> {
    /// Writes `entries`, part `part` of items `range` of the table named
    /// `table`, to `ctx.output`.
    pub fn write(
        &self,
        ctx: &JobContext,
        table: &str,
        part: Shard,
        range: std::ops::Range<u64>,
        entries: &[u64],
    ) -> Result<()> {
        let mut stats = serde_json::Map::new();
        stats.insert("part".into(), part.index.into());
        stats.insert("parts".into(), part.count.into());
        stats.insert(
            self.items.into(),
            serde_json::json!([range.start, range.end]),
        );
        write_ranked(
            &ctx.output,
            entries,
            &TableMeta::new(
                "klondike",
                &format!("{table}-part"),
                ctx.params.clone(),
                self.index,
                self.entry,
                serde_json::Value::Object(stats),
            )
            .stamped(ctx.stamp()),
            ctx.param_hash,
        )?;
        Ok(())
    }

    /// The entries of `parts` in order, for items `first..first + items`,
    /// each part checked to be the one expected: its number, the part
    /// count, its item range and its length.
    pub fn merged(&self, parts: &[Table], first: u64, items: u64) -> Result<Vec<u64>> {
        let mut all = Vec::with_capacity(items as usize);
        let count = parts.len() as u32;
        for (i, t) in parts.iter().enumerate() {
            let part = Shard::new(i as u32 + 1, count)?;
            let r = part.range(items);
            let stats = &t.meta().stats;
            let number = |key: &str| stats.get(key).and_then(|v| v.as_u64());
            let (held, of, range) = (|| {
                let range: [u64; 2] =
                    serde_json::from_value(stats.get(self.items)?.clone()).ok()?;
                Some((number("part")?, number("parts")?, range))
            })()
            .with_context(|| format!("{}: part statistics are malformed", t.path().display()))?;
            ensure!(
                held == u64::from(part.index)
                    && of == u64::from(count)
                    && range == [first + r.start, first + r.end]
                    && t.len() == r.end - r.start,
                "{}: holds part {held}/{of} {} {range:?} ({} entries), expected part {}/{count}",
                t.path().display(),
                self.items,
                t.len(),
                part.index
            );
            all.extend(t.read_range::<u64>(0, t.len())?);
        }
        Ok(all)
    }
}
