//! A deterministic minimal perfect hash (BBHash-style cascade of bit arrays)
//! for sparse u64 key sets, stored as one section of the table file.
//!
//! Section layout (little-endian u64 words):
//! ```text
//! "NMPHBB01" | seed | key count | level count | total words
//! level count × (first bit, bit length)
//! total words × bit array word
//! ceil(total words / 8) × rank sample (ones before each 8-word block)
//! ```
//! A key's slot is the rank of the first set bit it hashes to. The table
//! stores the key of every slot, so a non-member is reported as absent.

use crate::source::ByteSource;
use std::io;

const SECTION_MAGIC: [u8; 8] = *b"NMPHBB01";
const MAX_LEVELS: usize = 64;
const RANK_BLOCK_WORDS: u64 = 8;
/// Seed of every table built by this version: same keys, same bytes.
pub const DEFAULT_SEED: u64 = 0x6e69_6d72_6f64_0001;

fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn level_position(key: u64, seed: u64, level: usize, bits: u64) -> u64 {
    let level_seed = mix(seed.wrapping_add((level as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)));
    let h = mix(key ^ level_seed);
    ((h as u128 * bits as u128) >> 64) as u64
}

/// Why a key set cannot get a perfect hash.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A key given twice.
    #[error("key {0} occurs more than once")]
    Duplicate(u64),
    /// The construction gave up (not seen on distinct keys).
    #[error("perfect-hash construction did not converge in {MAX_LEVELS} levels")]
    NoConvergence,
}

/// Result of a build: the section bytes and, for each input key (in input
/// order), its slot.
pub struct Built {
    /// The index section's bytes.
    pub section: Vec<u8>,
    /// The slot of each input key, in input order.
    pub slots: Vec<u64>,
}

/// Builds the perfect hash of distinct `keys` with `seed`.
pub fn build(keys: &[u64], seed: u64) -> Result<Built, BuildError> {
    let mut sorted = keys.to_vec();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(BuildError::Duplicate(w[0]));
    }
    // Remaining keys as indices into `keys`, kept in input order so that the
    // result does not depend on anything but the key sequence.
    let mut remaining: Vec<u32> = (0..keys.len() as u32).collect();
    let mut levels: Vec<(u64, u64)> = Vec::new();
    let mut words: Vec<u64> = Vec::new();
    let mut placed_at: Vec<u64> = vec![u64::MAX; keys.len()];
    while !remaining.is_empty() {
        if levels.len() == MAX_LEVELS {
            return Err(BuildError::NoConvergence);
        }
        let level = levels.len();
        let bits = ((remaining.len() as u64 * 2).div_ceil(64)).max(1) * 64;
        let first_bit = words.len() as u64 * 64;
        let nwords = (bits / 64) as usize;
        let mut seen = vec![0u64; nwords];
        let mut collided = vec![0u64; nwords];
        for &i in &remaining {
            let p = level_position(keys[i as usize], seed, level, bits);
            let (w, m) = ((p / 64) as usize, 1u64 << (p % 64));
            if seen[w] & m != 0 {
                collided[w] |= m;
            }
            seen[w] |= m;
        }
        for (s, c) in seen.iter_mut().zip(&collided) {
            *s &= !c;
        }
        let mut next = Vec::new();
        for &i in &remaining {
            let p = level_position(keys[i as usize], seed, level, bits);
            if seen[(p / 64) as usize] & (1u64 << (p % 64)) != 0 {
                placed_at[i as usize] = first_bit + p;
            } else {
                next.push(i);
            }
        }
        words.extend_from_slice(&seen);
        levels.push((first_bit, bits));
        remaining = next;
    }
    let ranks = rank_samples(&words);
    let slots = placed_at
        .iter()
        .map(|&bit| rank_in_memory(&words, &ranks, bit))
        .collect();
    let mut section = Vec::new();
    section.extend_from_slice(&SECTION_MAGIC);
    for v in [
        seed,
        keys.len() as u64,
        levels.len() as u64,
        words.len() as u64,
    ] {
        section.extend_from_slice(&v.to_le_bytes());
    }
    for (first, bits) in &levels {
        section.extend_from_slice(&first.to_le_bytes());
        section.extend_from_slice(&bits.to_le_bytes());
    }
    section.extend_from_slice(bytemuck::cast_slice(&words));
    section.extend_from_slice(bytemuck::cast_slice(&ranks));
    Ok(Built { section, slots })
}

fn rank_samples(words: &[u64]) -> Vec<u64> {
    let mut ranks = Vec::with_capacity(words.len().div_ceil(RANK_BLOCK_WORDS as usize));
    let mut ones = 0u64;
    for (i, w) in words.iter().enumerate() {
        if (i as u64).is_multiple_of(RANK_BLOCK_WORDS) {
            ranks.push(ones);
        }
        ones += w.count_ones() as u64;
    }
    ranks
}

fn rank_in_memory(words: &[u64], ranks: &[u64], bit: u64) -> u64 {
    let w = (bit / 64) as usize;
    let block = w / RANK_BLOCK_WORDS as usize;
    let mut r = ranks[block];
    for word in &words[block * RANK_BLOCK_WORDS as usize..w] {
        r += word.count_ones() as u64;
    }
    r + (words[w] & ((1u64 << (bit % 64)) - 1)).count_ones() as u64
}

/// The perfect hash of an open table: level geometry in memory, bit array and
/// rank samples read from the table's byte source on demand.
#[derive(Clone, Debug)]
pub struct PerfectHash {
    seed: u64,
    key_count: u64,
    levels: Vec<(u64, u64)>,
    words_at: u64,
    total_words: u64,
    ranks_at: u64,
}

fn invalid(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

impl PerfectHash {
    /// Parses and bounds-checks the section at `offset..offset+len`.
    pub fn parse(src: &dyn ByteSource, offset: u64, len: u64) -> io::Result<Self> {
        let mut head = [0u8; 40];
        if len < 40 {
            return Err(invalid("perfect-hash section shorter than its header"));
        }
        src.read_at(offset, &mut head)?;
        if head[0..8] != SECTION_MAGIC {
            return Err(invalid("perfect-hash section has a bad magic"));
        }
        let word = |i: usize| u64::from_le_bytes(head[8 * i..8 * i + 8].try_into().unwrap());
        let (seed, key_count, level_count, total_words) = (word(1), word(2), word(3), word(4));
        if level_count as usize > MAX_LEVELS || total_words > len / 8 {
            return Err(invalid("perfect-hash section header is out of range"));
        }
        let rank_count = total_words.div_ceil(RANK_BLOCK_WORDS);
        let expected = 40 + 16 * level_count + 8 * total_words + 8 * rank_count;
        if expected != len {
            return Err(invalid(format!(
                "perfect-hash section is {len} bytes, its header implies {expected}"
            )));
        }
        let mut levels = Vec::with_capacity(level_count as usize);
        let mut next_bit = 0u64;
        for l in 0..level_count {
            let mut b = [0u8; 16];
            src.read_at(offset + 40 + 16 * l, &mut b)?;
            let first = u64::from_le_bytes(b[0..8].try_into().unwrap());
            let bits = u64::from_le_bytes(b[8..16].try_into().unwrap());
            if first != next_bit || bits == 0 || bits % 64 != 0 {
                return Err(invalid(format!(
                    "perfect-hash level {l} has a bad geometry"
                )));
            }
            next_bit = first + bits;
            levels.push((first, bits));
        }
        if next_bit != total_words * 64 {
            return Err(invalid("perfect-hash levels do not cover the bit array"));
        }
        let words_at = offset + 40 + 16 * level_count;
        Ok(PerfectHash {
            seed,
            key_count,
            levels,
            words_at,
            total_words,
            ranks_at: words_at + 8 * total_words,
        })
    }

    /// How many keys the hash maps.
    pub fn key_count(&self) -> u64 {
        self.key_count
    }

    fn word(&self, src: &dyn ByteSource, i: u64) -> io::Result<u64> {
        let mut b = [0u8; 8];
        src.read_at(self.words_at + 8 * i, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// The candidate slot of `key` (to be confirmed against the stored key),
    /// or None when no level places it.
    pub fn candidate_slot(&self, src: &dyn ByteSource, key: u64) -> io::Result<Option<u64>> {
        for (level, &(first, bits)) in self.levels.iter().enumerate() {
            let bit = first + level_position(key, self.seed, level, bits);
            let w = self.word(src, bit / 64)?;
            if w & (1u64 << (bit % 64)) != 0 {
                let slot = self.rank(src, bit)?;
                if slot >= self.key_count {
                    return Err(invalid("perfect-hash rank exceeds the key count"));
                }
                return Ok(Some(slot));
            }
        }
        Ok(None)
    }

    fn rank(&self, src: &dyn ByteSource, bit: u64) -> io::Result<u64> {
        let w = bit / 64;
        let block = w / RANK_BLOCK_WORDS;
        let mut b = [0u8; 8];
        src.read_at(self.ranks_at + 8 * block, &mut b)?;
        let mut r = u64::from_le_bytes(b);
        for i in block * RANK_BLOCK_WORDS..w {
            r += self.word(src, i)?.count_ones() as u64;
        }
        Ok(r + (self.word(src, w)? & ((1u64 << (bit % 64)) - 1)).count_ones() as u64)
    }

    /// Total ones in the bit array: must equal the key count.
    pub fn ones(&self, src: &dyn ByteSource) -> io::Result<u64> {
        let mut n = 0;
        for i in 0..self.total_words {
            n += self.word(src, i)?.count_ones() as u64;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_a_permutation_and_lookups_agree() {
        let keys: Vec<u64> = (0..5000u64).map(|i| i * i * 7919 + 3).collect();
        let built = build(&keys, DEFAULT_SEED).unwrap();
        let mut seen = built.slots.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..keys.len() as u64).collect::<Vec<_>>());
        let src = built.section.clone();
        let ph = PerfectHash::parse(&src, 0, src.len() as u64).unwrap();
        assert_eq!(ph.ones(&src).unwrap(), keys.len() as u64);
        for (k, s) in keys.iter().zip(&built.slots) {
            assert_eq!(ph.candidate_slot(&src, *k).unwrap(), Some(*s));
        }
    }

    #[test]
    fn build_is_deterministic_and_rejects_duplicates() {
        let keys: Vec<u64> = (1..1000).map(|i| i * 31).collect();
        assert_eq!(
            build(&keys, DEFAULT_SEED).unwrap().section,
            build(&keys, DEFAULT_SEED).unwrap().section
        );
        assert!(matches!(
            build(&[1, 2, 1], DEFAULT_SEED),
            Err(BuildError::Duplicate(1))
        ));
        assert_eq!(build(&[], DEFAULT_SEED).unwrap().slots.len(), 0);
    }
}
