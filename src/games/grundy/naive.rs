//! The slow obvious reference: G(n) as the mex over all n/2 splits.

/// The values of heaps 0..=bound by the definition (mex over every split): the reference.
pub fn values(bound: usize) -> Vec<u16> {
    let mut g = vec![0u16; bound + 1];
    let mut seen = vec![false; 64];
    for n in 3..=bound {
        seen.iter_mut().for_each(|s| *s = false);
        for a in 1..n.div_ceil(2) {
            let v = (g[a] ^ g[n - a]) as usize;
            if v >= seen.len() {
                seen.resize(v.next_power_of_two() * 2, false);
            }
            seen[v] = true;
        }
        g[n] = seen.iter().position(|s| !s).unwrap_or(seen.len()) as u16;
    }
    g
}
