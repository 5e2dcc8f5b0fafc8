//! A small seeded generator for reproducible play and sampling: SplitMix64
//! (Steele, Lea & Flood 2014), whose output sequence for a seed is fixed
//! forever, unlike a library generator that may change between versions.

#[derive(Clone, Debug)]
/// SplitMix64 (Steele, Lea and Flood 2014): a small seeded generator whose sequence never changes between versions, for play and sampling.
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n (n > 0), without modulo bias (rejection).
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// Fisher–Yates, from the last element down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// An index drawn from a probability vector (the last positive one
    /// absorbs rounding).
    pub fn pick(&mut self, probs: &[f64]) -> usize {
        let mut x = self.next_f64();
        let mut last = 0;
        for (i, &p) in probs.iter().enumerate() {
            if p > 0.0 {
                last = i;
                if x < p {
                    return i;
                }
                x -= p;
            }
        }
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_outputs_for_seed_zero() {
        // Published SplitMix64 outputs for seed 0.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn pick_follows_the_probabilities() {
        let mut r = SplitMix64::new(7);
        let probs = [0.25, 0.0, 0.75];
        let mut counts = [0; 3];
        for _ in 0..40_000 {
            counts[r.pick(&probs)] += 1;
        }
        assert_eq!(counts[1], 0);
        assert!(
            (counts[0] as f64 / 40_000.0 - 0.25).abs() < 0.01,
            "{counts:?}"
        );
    }
}

/// The 32-bit Mersenne Twister MT19937 (Matsumoto and Nishimura 1998), as
/// C++'s `std::mt19937`: other programs' numbered deals are defined by it.
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; 624],
    index: usize,
}

impl Mt19937 {
    /// Seeded as `std::mt19937(seed)`.
    pub fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: 624 }
    }

    /// The next 32 bits.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for i in 0..624 {
                let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % 624] & 0x7fff_ffff);
                let mut v = self.state[(i + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_b0df;
                }
                self.state[i] = v;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// Uniform in `0..=max` as Boost's `uniform_int_distribution` draws it
    /// from a 32-bit engine: buckets of ⌊2^32 / (max + 1)⌋ outputs, a draw
    /// past the last whole bucket rejected.
    pub fn boost_uniform(&mut self, max: u32) -> u32 {
        let bucket = (1u64 << 32) / (max as u64 + 1);
        loop {
            let r = self.next_u32() as u64 / bucket;
            if r <= max as u64 {
                return r as u32;
            }
        }
    }
}

#[cfg(test)]
mod mt_tests {
    use super::Mt19937;

    #[test]
    fn mt19937_matches_the_standard_s_check_value() {
        // C++11 [rand.predef]: the 10000th output of a default-constructed
        // std::mt19937 (seed 5489) is 4123659995.
        let mut g = Mt19937::new(5489);
        let mut last = 0;
        for _ in 0..10_000 {
            last = g.next_u32();
        }
        assert_eq!(last, 4_123_659_995);
    }
}
