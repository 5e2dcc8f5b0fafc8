//! Witness lists for the rare values a heap still lacks after its first marks.
//!
//! A rare value v is an option of heap n when some part a has
//! G(n − a) = G(a) ⊕ v. Values of large heaps are far from uniform (near
//! 2^22 a handful of values cover a third of all heaps), so a part whose
//! value x makes x ⊕ v one of the frequent values hits v far more often than
//! a part taken in turn. Each rare value gets a list of parts ordered that
//! way, from the value counts of the recent heaps. The lists only decide the
//! order in which true options are tried; they never decide a value.

use crate::pipeline::checkpoint::{StateReader, StateWriter};
use anyhow::{ensure, Result};

/// Heaps between rebuilds; the value distribution drifts slowly.
const REBUILD_EVERY: u64 = 1 << 16;
/// Parts taken from one value class before moving to the next best.
const PER_CLASS: usize = 32;
/// Longest list per rare value; past it the general scan takes over.
const LIST_LEN: usize = 512;

/// Recent witnesses kept per rare value.
const REMEMBERED: usize = 8;

#[derive(Default)]
pub struct Targets {
    /// Parts that recently reached each rare value: a value hard to reach
    /// from heap n is often reached by the same part, or a close one, from
    /// the next heaps.
    remembered: Vec<[u32; REMEMBERED]>,
    witnesses: Multiset,
    /// Heaps per value since the last rebuild.
    counts: Vec<u32>,
    counted: u64,
    /// Parts for rare value v: `parts[starts[v]..starts[v + 1]]`.
    starts: Vec<usize>,
    parts: Vec<u32>,
}

impl Targets {
    pub fn count(&mut self, value: u16) {
        let v = usize::from(value);
        if v >= self.counts.len() {
            self.counts.resize(v + 1, 0);
        }
        self.counts[v] += 1;
        self.counted += 1;
    }

    pub fn due(&self) -> bool {
        self.starts.is_empty() || self.counted >= REBUILD_EVERY
    }

    /// Rebuilds every list from `by_value` (the candidate parts, grouped by
    /// their value) and the counts since the last rebuild, then resets them.
    pub fn rebuild(&mut self, by_value: &[Vec<u32>], value_bits: u32) {
        let values = 1usize << value_bits;
        let frequency = |y: usize| self.counts.get(y).copied().unwrap_or(0);
        self.starts.clear();
        self.parts.clear();
        let mut classes: Vec<usize> = Vec::with_capacity(by_value.len());
        for v in 0..values {
            self.starts.push(self.parts.len());
            if !super::rare::is_rare_value(v as u16) {
                continue;
            }
            classes.clear();
            classes.extend(
                (0..by_value.len()).filter(|&x| !by_value[x].is_empty() && frequency(x ^ v) > 0),
            );
            classes.sort_by_key(|&x| (std::cmp::Reverse(frequency(x ^ v)), x));
            let end = self.parts.len() + LIST_LEN;
            for &x in &classes {
                let class = &by_value[x];
                // Evenly spaced members: neighbouring heaps have correlated
                // values, spread ones behave more like independent tries.
                let take = class.len().min(PER_CLASS).min(end - self.parts.len());
                self.parts
                    .extend((0..take).map(|i| class[i * class.len() / take]));
                if self.parts.len() == end {
                    break;
                }
            }
        }
        self.starts.push(self.parts.len());
        self.counts.iter_mut().for_each(|c| *c = 0);
        self.counted = 0;
    }

    /// Recent witnesses of rare value v; zeros are empty slots.
    pub fn remembered(&self, v: u32) -> [u32; REMEMBERED] {
        self.remembered.get(v as usize).copied().unwrap_or_default()
    }

    /// Records that part a reached rare value v.
    pub fn remember(&mut self, v: u32, a: u32) {
        let v = v as usize;
        if v >= self.remembered.len() {
            self.remembered.resize(v + 1, [0; REMEMBERED]);
        }
        let slots = &mut self.remembered[v];
        if slots.contains(&a) {
            return;
        }
        let evicted = slots[REMEMBERED - 1];
        slots.rotate_right(1);
        slots[0] = a;
        self.witnesses.add(a);
        if evicted != 0 {
            self.witnesses.remove(evicted);
        }
    }

    /// Every remembered witness, once each.
    pub fn witnesses(&self) -> impl Iterator<Item = u32> + '_ {
        self.witnesses.members.iter().copied()
    }

    /// The parts to try for rare value v (empty when none are listed).
    pub fn list(&self, v: u32) -> &[u32] {
        let v = v as usize;
        match (self.starts.get(v), self.starts.get(v + 1)) {
            (Some(&s), Some(&e)) => &self.parts[s..e],
            _ => &[],
        }
    }
}

impl Targets {
    /// Saves everything the lists and witnesses have learnt: a resumed
    /// solve tries the same parts in the same order, so its statistics
    /// (`scan_steps`) are those of a solve never stopped.
    pub fn save(&self, w: &mut StateWriter) -> Result<()> {
        w.u32s(self.remembered.concat().into_iter())?;
        w.u32s(self.witnesses.members.iter().copied())?;
        w.u32s(self.counts.iter().copied())?;
        w.u64(self.counted)?;
        w.u64s(self.starts.iter().map(|&s| s as u64))?;
        w.u32s(self.parts.iter().copied())
    }

    /// Reads what `save` wrote; the witness set is rebuilt from the slots
    /// and checked against the saved order.
    pub fn restore(r: &mut StateReader) -> Result<Targets> {
        let slots = r.u32s()?;
        ensure!(
            slots.len() % REMEMBERED == 0,
            "{}: {} witness slots",
            r.name(),
            slots.len()
        );
        let remembered: Vec<[u32; REMEMBERED]> = slots
            .chunks_exact(REMEMBERED)
            .map(|c| c.try_into().expect("REMEMBERED slots"))
            .collect();
        let members = r.u32s()?;
        let counts = r.u32s()?;
        let counted = r.u64()?;
        let starts: Vec<usize> = r.u64s()?.into_iter().map(|s| s as usize).collect();
        let parts = r.u32s()?;
        ensure!(
            starts.windows(2).all(|w| w[0] <= w[1])
                && starts.last().is_none_or(|&e| e == parts.len()),
            "{}: witness lists out of order",
            r.name()
        );
        let largest = slots.iter().chain(&members).copied().max().unwrap_or(0) as usize;
        ensure!(largest < 1 << 24, "{}: witness part {largest}", r.name());
        let mut witnesses = Multiset {
            members,
            count: vec![0; largest + 1],
            index: vec![0; largest + 1],
        };
        for &a in slots.iter().filter(|&&a| a != 0) {
            witnesses.count[a as usize] += 1;
        }
        let mut held = 0;
        for (i, &a) in witnesses.members.iter().enumerate() {
            ensure!(
                witnesses.count[a as usize] > 0,
                "{}: witness {a} is in no slot",
                r.name()
            );
            witnesses.index[a as usize] = i as u32;
            held += 1;
        }
        ensure!(
            held == witnesses.count.iter().filter(|&&c| c > 0).count(),
            "{}: the witness set does not match the slots",
            r.name()
        );
        Ok(Targets {
            remembered,
            witnesses,
            counts,
            counted,
            starts,
            parts,
        })
    }
}

/// The distinct parts among the remembered witnesses, in a stable order
/// (the order of first arrival, with removals filled from the end).
#[derive(Default)]
struct Multiset {
    members: Vec<u32>,
    /// Per part: how many slots hold it, and its index in `members`.
    count: Vec<u16>,
    index: Vec<u32>,
}

impl Multiset {
    fn add(&mut self, a: u32) {
        let i = a as usize;
        if i >= self.count.len() {
            self.count.resize(i + 1, 0);
            self.index.resize(i + 1, 0);
        }
        self.count[i] += 1;
        if self.count[i] == 1 {
            self.index[i] = self.members.len() as u32;
            self.members.push(a);
        }
    }

    fn remove(&mut self, a: u32) {
        let i = a as usize;
        self.count[i] -= 1;
        if self.count[i] == 0 {
            let at = self.index[i] as usize;
            self.members.swap_remove(at);
            if let Some(&moved) = self.members.get(at) {
                self.index[moved as usize] = at as u32;
            }
        }
    }
}
