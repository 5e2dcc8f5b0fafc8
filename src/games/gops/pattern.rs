//! Hand patterns: the relative order of the two hands, ties included.
//!
//! GOPS values depend on the hands only through comparisons, so V ∪ Y is
//! replaced by its sorted distinct values, each tagged A (only player one
//! holds it), B (only player two) or C (both). Two k-card hands with c shared
//! values give a word of length 2k − c with k − c A's, k − c B's and c C's.
//! Swapping the players (A ↔ B) negates the value; the canonical word of a
//! pair is the one whose first non-C letter is A (or the all-C word).
//!
//! Ranking at level k for N cards: group by m = k − c (0 ..= min(k, N − k),
//! the words that fit in 1..N), then within a group, words C^j A w are ordered
//! by j and then by the lexicographic rank (A < B < C) of the rest w.

/// Most cards per player this module handles (words fit in 32 bits).
pub const MAX_CARDS: usize = 16;

/// The letter of a card only the first player holds.
pub const A: u32 = 0;
/// The letter of a card only the second player holds.
pub const B: u32 = 1;
/// The letter of a card both hold.
pub const C: u32 = 2;

/// Multinomial (a+b+c)! / (a! b! c!), saturating (only a+b+c ≤ 16 is used).
static MULTINOMIAL: [[[u64; MAX_CARDS + 1]; MAX_CARDS + 1]; MAX_CARDS + 1] = {
    let mut t = [[[0u64; MAX_CARDS + 1]; MAX_CARDS + 1]; MAX_CARDS + 1];
    let mut s = 0;
    while s <= 3 * MAX_CARDS {
        let mut a = 0;
        while a <= MAX_CARDS {
            let mut b = 0;
            while b <= MAX_CARDS {
                if a + b <= s && s - a - b <= MAX_CARDS {
                    let c = s - a - b;
                    t[a][b][c] = if s == 0 {
                        1
                    } else {
                        let mut v: u64 = 0;
                        if a > 0 {
                            v = v.saturating_add(t[a - 1][b][c]);
                        }
                        if b > 0 {
                            v = v.saturating_add(t[a][b - 1][c]);
                        }
                        if c > 0 {
                            v = v.saturating_add(t[a][b][c - 1]);
                        }
                        v
                    };
                }
                b += 1;
            }
            a += 1;
        }
        s += 1;
    }
    t
};

fn multinomial(a: usize, b: usize, c: usize) -> u64 {
    MULTINOMIAL[a][b][c]
}

/// A word over {A, B, C}; letter i (from the lowest card up) is bits 2i..2i+2.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Pattern {
    len: u8,
    code: u32,
}

impl Pattern {
    /// The pattern of these letters (A, B, C), lowest card first.
    pub fn from_letters(letters: &[u32]) -> Pattern {
        let mut code = 0;
        for (i, &l) in letters.iter().enumerate() {
            code |= l << (2 * i);
        }
        Pattern {
            len: letters.len() as u8,
            code,
        }
    }

    /// From the two hands as bitmasks (bit v−1 = card v).
    pub fn from_hands(mine: u32, theirs: u32) -> Pattern {
        let mut letters = [0u32; 2 * MAX_CARDS];
        let mut len = 0;
        let union = mine | theirs;
        for bit in 0..32 {
            if union >> bit & 1 == 1 {
                letters[len] = match (mine >> bit & 1, theirs >> bit & 1) {
                    (1, 1) => C,
                    (1, 0) => A,
                    _ => B,
                };
                len += 1;
            }
        }
        Pattern::from_letters(&letters[..len])
    }

    /// Its length: the cards it spans.
    pub fn len(&self) -> usize {
        self.len as usize
    }
    #[cfg(any(test, feature = "internals"))]
    /// Whether it spans no card.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    /// Letter `i` (A, B or C).
    pub fn letter(&self, i: usize) -> u32 {
        self.code >> (2 * i) & 3
    }

    /// (A count, B count, C count).
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut n = [0usize; 3];
        for i in 0..self.len() {
            n[self.letter(i) as usize] += 1;
        }
        (n[0], n[1], n[2])
    }

    /// Cards per hand.
    pub fn hand_size(&self) -> usize {
        let (a, _, c) = self.counts();
        a + c
    }

    /// Positions of player one's cards (lowest first), then player two's.
    pub fn positions(&self) -> ([u8; MAX_CARDS], [u8; MAX_CARDS]) {
        let (mut one, mut two) = ([0u8; MAX_CARDS], [0u8; MAX_CARDS]);
        let (mut i, mut j) = (0, 0);
        for p in 0..self.len() {
            let l = self.letter(p);
            if l != B {
                one[i] = p as u8;
                i += 1;
            }
            if l != A {
                two[j] = p as u8;
                j += 1;
            }
        }
        (one, two)
    }

    /// The position after player one bids the card at position `a` and
    /// player two the card at position `b`.
    pub fn without(&self, a: usize, b: usize) -> Pattern {
        let mut code = 0;
        let mut len = 0;
        for p in 0..self.len() {
            let mut l = self.letter(p);
            if p == a && p == b {
                continue;
            }
            if p == a {
                if l == A {
                    continue;
                }
                l = B;
            } else if p == b {
                if l == B {
                    continue;
                }
                l = A;
            }
            code |= l << (2 * len);
            len += 1;
        }
        Pattern { len, code }
    }

    /// The players swapped: A ↔ B.
    pub fn swapped(&self) -> Pattern {
        let mut code = self.code;
        for p in 0..self.len() {
            let l = self.letter(p);
            if l != C {
                code ^= 1 << (2 * p);
            }
        }
        Pattern {
            len: self.len,
            code,
        }
    }

    /// The canonical word of {self, swapped} and whether it is the swap
    /// (in which case the value is negated).
    pub fn canonical(&self) -> (Pattern, bool) {
        match (0..self.len()).map(|p| self.letter(p)).find(|&l| l != C) {
            Some(B) => (self.swapped(), true),
            _ => (*self, false),
        }
    }
}

impl std::fmt::Display for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for p in 0..self.len() {
            f.write_str(["A", "B", "C", "?"][self.letter(p) as usize])?;
        }
        Ok(())
    }
}

/// Rank of a word among all words with the given letter counts (A < B < C).
fn rank_word(letters: impl Iterator<Item = u32>, mut n: [usize; 3]) -> u64 {
    let mut r = 0;
    for l in letters {
        for smaller in 0..l as usize {
            if n[smaller] > 0 {
                let mut m = n;
                m[smaller] -= 1;
                r += multinomial(m[0], m[1], m[2]);
            }
        }
        n[l as usize] -= 1;
    }
    r
}

fn unrank_word(mut r: u64, mut n: [usize; 3], out: &mut Vec<u32>) {
    while n.iter().sum::<usize>() > 0 {
        for l in 0..3 {
            if n[l] == 0 {
                continue;
            }
            let mut m = n;
            m[l] -= 1;
            let count = multinomial(m[0], m[1], m[2]);
            if r < count {
                out.push(l as u32);
                n = m;
                break;
            }
            r -= count;
        }
    }
}

/// The canonical patterns of level k (k cards per hand) that fit in 1..N,
/// ranked densely 0..len.
#[derive(Clone, Debug)]
pub struct PatternSpace {
    /// Cards per suit N.
    #[cfg(any(test, feature = "internals"))]
    pub cards: usize,
    /// Cards per hand.
    pub k: usize,
    /// offset[m] = rank of the first word with m A's; offset[max_m + 1] = len.
    offset: Vec<u64>,
}

impl PatternSpace {
    /// The patterns of level k for N cards (k <= N <= 16).
    pub fn new(cards: usize, k: usize) -> PatternSpace {
        assert!(k <= cards && cards <= MAX_CARDS);
        let max_m = k.min(cards - k);
        let mut offset = vec![0u64];
        for m in 0..=max_m {
            let c = k - m;
            let size = if m == 0 { 1 } else { multinomial(m, m, c) / 2 };
            offset.push(offset[m] + size);
        }
        PatternSpace {
            #[cfg(any(test, feature = "internals"))]
            cards,
            k,
            offset,
        }
    }

    /// Patterns at this level.
    pub fn len(&self) -> u64 {
        *self.offset.last().expect("offsets")
    }
    #[cfg(any(test, feature = "internals"))]
    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The most cards only one player holds (min(k, N - k)).
    pub fn max_unshared(&self) -> usize {
        self.offset.len() - 2
    }

    /// Rank of a canonical pattern of this level, or None if it does not
    /// belong (wrong hand size, too long for N cards, not canonical).
    pub fn rank(&self, p: &Pattern) -> Option<u64> {
        let (a, b, c) = p.counts();
        if a != b || a + c != self.k || a > self.max_unshared() {
            return None;
        }
        let m = a;
        if m == 0 {
            return Some(self.offset[0]);
        }
        let j = (0..p.len()).position(|i| p.letter(i) != C)?;
        if p.letter(j) != A {
            return None;
        }
        let mut r = 0;
        for jj in 0..j {
            r += multinomial(m - 1, m, c - jj);
        }
        r += rank_word((j + 1..p.len()).map(|i| p.letter(i)), [m - 1, m, c - j]);
        Some(self.offset[m] + r)
    }

    /// The pattern of a rank (below `len()`).
    pub fn unrank(&self, rank: u64) -> Pattern {
        assert!(rank < self.len(), "pattern rank {rank} out of range");
        let m = self.offset.partition_point(|&o| o <= rank) - 1;
        let c = self.k - m;
        let mut r = rank - self.offset[m];
        let mut letters = Vec::with_capacity(2 * m + c);
        if m == 0 {
            letters.resize(c, C);
            return Pattern::from_letters(&letters);
        }
        let mut j = 0;
        loop {
            let size = multinomial(m - 1, m, c - j);
            if r < size {
                break;
            }
            r -= size;
            j += 1;
        }
        letters.resize(j, C);
        letters.push(A);
        unrank_word(r, [m - 1, m, c - j], &mut letters);
        Pattern::from_letters(&letters)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Central Delannoy numbers: words for two k-card hands with no limit.
    const DELANNOY: [u64; 8] = [1, 3, 13, 63, 321, 1683, 8989, 48639];

    #[test]
    fn pattern_counts_are_half_the_delannoy_numbers() {
        for (k, &d) in DELANNOY.iter().enumerate() {
            let s = PatternSpace::new(2 * k.max(1), k);
            assert_eq!(s.len(), (d - 1) / 2 + 1, "k = {k}");
        }
    }

    #[test]
    fn ranking_is_a_bijection_onto_canonical_words() {
        for cards in 1..=9 {
            for k in 0..=cards {
                let s = PatternSpace::new(cards, k);
                let mut seen = std::collections::HashSet::new();
                for r in 0..s.len() {
                    let p = s.unrank(r);
                    assert_eq!(s.rank(&p), Some(r));
                    assert_eq!(p.canonical(), (p, false));
                    assert!(p.len() <= cards);
                    assert!(seen.insert(p));
                }
                // Every pair of k-subsets of 1..cards lands on a ranked word.
                if cards <= 7 {
                    for mine in 0u32..1 << cards {
                        if mine.count_ones() as usize != k {
                            continue;
                        }
                        for theirs in 0u32..1 << cards {
                            if theirs.count_ones() as usize == k {
                                let (p, _) = Pattern::from_hands(mine, theirs).canonical();
                                assert!(s.rank(&p).is_some(), "{p} at N={cards}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn removing_bids_matches_removing_cards() {
        // Hands {2,5,9} and {1,5,8}: pattern B A C B A.
        let (mine, theirs) = (0b1_0001_0010u32, 0b0_1001_0001u32);
        let p = Pattern::from_hands(mine, theirs);
        assert_eq!(p.to_string(), "BACBA");
        let (one, two) = p.positions();
        for i in 0..3 {
            for j in 0..3 {
                let v = [2, 5, 9][i];
                let y = [1, 5, 8][j];
                let direct = Pattern::from_hands(mine & !(1 << (v - 1)), theirs & !(1 << (y - 1)));
                assert_eq!(p.without(one[i] as usize, two[j] as usize), direct);
            }
        }
    }
}
