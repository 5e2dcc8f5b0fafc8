//! The classes a search has stored: exact keys in open-addressed tables
//! (linear probing), split into shards by the key's mixed bits. A shard
//! grows by a quarter when it is four-fifths full, so the whole set holds
//! 10–12.5 bytes a class for 64-bit keys, and a growth step copies one
//! shard, never the whole set (a single table that doubles holds both
//! copies at once: that peak is what took deal 1192, drawing three, past
//! 2 GB).

/// A class key: exact, with one value no class has (the empty slot).
pub(super) trait Key: Copy + Eq {
    /// No class has this key (see `Position::key`: its mixed-radix part
    /// is never all ones in its bits).
    const EMPTY: Self;
    /// The key kept, from the full 128-bit one.
    fn of(key: u128) -> Self;
    /// The key's bits mixed (a bijection on 64 bits, so only equal keys
    /// collide in full).
    fn mixed(self) -> u64;
    /// The shard's bits: the key without its talon part mixed. A step that
    /// only moves a talon card keeps the shard, so a search's probes stay
    /// in a few shards for a while (cache and TLB) instead of all over.
    fn shard_mixed(self) -> u64;
}

fn mix64(k: u64) -> u64 {
    let mut x = k;
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Key for u64 {
    const EMPTY: u64 = u64::MAX;
    fn of(key: u128) -> u64 {
        key as u64
    }
    fn mixed(self) -> u64 {
        mix64(self)
    }
    fn shard_mixed(self) -> u64 {
        mix64(self >> TALON_BITS)
    }
}

impl Key for u128 {
    const EMPTY: u128 = u128::MAX;
    fn of(key: u128) -> u128 {
        key
    }
    fn mixed(self) -> u64 {
        mix64(self as u64 ^ mix64((self >> 64) as u64))
    }
    fn shard_mixed(self) -> u64 {
        (self >> TALON_BITS).mixed()
    }
}

/// The low bits of a key that hold the talon (`Position::key`: 24 places
/// and a 5-bit split).
const TALON_BITS: u32 = super::position::TALON_KEY_BITS;

const SHARD_BITS: u32 = 16;
const FIRST_SLOTS: usize = 8;

struct Shard<K> {
    slots: Vec<K>,
    len: usize,
}

impl<K: Key> Shard<K> {
    /// The home slot of mixed bits `h` in `n` slots: the high half of
    /// `h · n`, any `n`.
    fn home(h: u64, n: usize) -> usize {
        ((h as u128 * n as u128) >> 64) as usize
    }

    /// Where `key` is, or the empty slot where it would go.
    fn find(&self, key: K, h: u64) -> (usize, bool) {
        let n = self.slots.len();
        let mut i = Self::home(h, n);
        loop {
            let s = self.slots[i];
            if s == key {
                return (i, true);
            }
            if s == K::EMPTY {
                return (i, false);
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    fn grow(&mut self) {
        let n = self.slots.len() + self.slots.len() / 4;
        let old = std::mem::replace(&mut self.slots, vec![K::EMPTY; n]);
        for k in old.into_iter().filter(|&k| k != K::EMPTY) {
            let (i, _) = self.find(k, k.mixed());
            self.slots[i] = k;
        }
    }
}

/// A set of class keys.
pub(super) struct Seen<K> {
    shards: Vec<Shard<K>>,
    len: u64,
}

impl<K: Key> Seen<K> {
    pub(super) fn new() -> Seen<K> {
        Seen {
            shards: (0..1 << SHARD_BITS)
                .map(|_| Shard {
                    slots: Vec::new(),
                    len: 0,
                })
                .collect(),
            len: 0,
        }
    }

    /// Classes stored.
    pub(super) fn len(&self) -> u64 {
        self.len
    }

    /// Stores `key`; false when it was there already.
    pub(super) fn insert(&mut self, key: K) -> bool {
        let h = key.mixed();
        let shard = &mut self.shards[(key.shard_mixed() >> (64 - SHARD_BITS)) as usize];
        if shard.slots.is_empty() {
            // A shard's table is made when its first key comes: most
            // searches touch few of them.
            shard.slots = vec![K::EMPTY; FIRST_SLOTS];
        }
        let (mut i, found) = shard.find(key, h);
        if found {
            return false;
        }
        if (shard.len + 1) * 5 > shard.slots.len() * 4 {
            shard.grow();
            i = shard.find(key, h).0;
        }
        shard.slots[i] = key;
        shard.len += 1;
        self.len += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Against the standard set, through many growth steps, with keys that
    /// share high or low halves (the 128-bit case).
    #[test]
    fn agrees_with_the_standard_set() {
        let mut ours: Seen<u128> = Seen::new();
        let mut theirs = HashSet::new();
        let mut x = 0x1234_5678_9abc_def0u64;
        for i in 0..300_000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = ((x % 50_000) as u128) << (64 * (i % 2) as u32) | (i % 7) as u128;
            assert_eq!(ours.insert(k), theirs.insert(k), "key {k:#x}");
        }
        assert_eq!(ours.len(), theirs.len() as u64);
        let mut small: Seen<u64> = Seen::new();
        for k in (0..100_000u64).chain(0..100_000) {
            small.insert(k * 3);
        }
        assert_eq!(small.len(), 100_000);
        assert!(!small.insert(0) && small.insert(1));
    }
}
