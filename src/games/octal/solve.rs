//! Sprague–Grundy values of an octal game by direct mex over every option.

use super::code::OctalCode;

/// G(0..=bound). O(bound²) when the game splits heaps.
pub fn values(code: &OctalCode, bound: usize, mut on_heap: impl FnMut()) -> Vec<u16> {
    let mut g = vec![0u16; bound + 1];
    let mut seen: Vec<u64> = vec![0; 4];
    for n in 0..=bound {
        seen.iter_mut().for_each(|w| *w = 0);
        let mut mark = |v: u16| {
            let w = (v >> 6) as usize;
            if w >= seen.len() {
                seen.resize(w + 1, 0);
            }
            seen[w] |= 1 << (v & 63);
        };
        for (i, &d) in code.digits.iter().enumerate() {
            if d & 1 != 0 && n == i && i > 0 {
                mark(0);
            }
            if d & 2 != 0 && n > i && i > 0 {
                mark(g[n - i]);
            }
            if d & 4 != 0 && n >= i + 2 {
                let rest = n - i;
                for a in 1..=rest / 2 {
                    mark(g[a] ^ g[rest - a]);
                }
            }
        }
        let mut v = 0u16;
        while seen
            .get((v >> 6) as usize)
            .is_some_and(|w| w >> (v & 63) & 1 != 0)
        {
            v += 1;
        }
        g[n] = v;
        on_heap();
    }
    g
}
