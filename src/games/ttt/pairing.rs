//! Pairing strategies (Hales and Jewett): if every line the attacker could
//! still complete holds two empty cells of its own, disjoint from every
//! other line's two, the defender blocks every line by answering a move on
//! one cell of a pair with the other cell. Whoever is to move, the
//! attacker then never fills a whole line, so it cannot win.

#[cfg(any(test, feature = "internals"))]
/// Two empty cells for each line, no cell used twice (bit masks over the
/// board's cells), or None when no such choice exists. A line with fewer
/// than two empty cells cannot be paired.
pub fn pairing(lines: &[u32], free: u32) -> Option<Vec<(u32, u32)>> {
    // Bipartite matching (augmenting paths): each line appears twice on
    // the left and needs one cell per copy; cells take at most one copy.
    let slots = lines.len() * 2;
    let mut owner: [Option<usize>; 32] = [None; 32];
    for slot in 0..slots {
        let mut seen = 0u32;
        if !augment(slot, lines, free, &mut owner, &mut seen) {
            return None;
        }
    }
    let mut pairs = vec![(0u32, 0u32); lines.len()];
    for (cell, who) in owner.iter().enumerate() {
        if let Some(slot) = *who {
            let pair = &mut pairs[slot / 2];
            if slot % 2 == 0 {
                pair.0 = cell as u32;
            } else {
                pair.1 = cell as u32;
            }
        }
    }
    Some(pairs)
}

#[cfg(any(test, feature = "internals"))]
fn augment(
    slot: usize,
    lines: &[u32],
    free: u32,
    owner: &mut [Option<usize>; 32],
    seen: &mut u32,
) -> bool {
    let mut cells = lines[slot / 2] & free & !*seen;
    while cells != 0 {
        let cell = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        if *seen >> cell & 1 == 1 {
            continue;
        }
        *seen |= 1 << cell;
        let taken_by = owner[cell];
        if taken_by.is_none_or(|other| augment(other, lines, free, owner, seen)) {
            owner[cell] = Some(slot);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every way of giving each line two of its empty cells, tried in
    /// turn: the obvious answer to compare the matching with.
    fn pairing_exists_by_brute_force(lines: &[u32], free: u32, used: u32) -> bool {
        let Some((&first, rest)) = lines.split_first() else {
            return true;
        };
        let cells = first & free & !used;
        (0..32).any(|a| {
            cells >> a & 1 == 1
                && (a + 1..32).any(|b| {
                    cells >> b & 1 == 1
                        && pairing_exists_by_brute_force(rest, free, used | 1 << a | 1 << b)
                })
        })
    }

    #[test]
    fn matching_agrees_with_brute_force_and_its_pairs_are_valid() {
        // Random line families over 9-16 cells, seeded.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut found, mut refused) = (0, 0);
        for _ in 0..3000 {
            let cells = 9 + next() % 8;
            let full = (1u32 << cells) - 1;
            let lines: Vec<u32> = (0..1 + next() % 6)
                .map(|_| (next() as u32) & full)
                .collect();
            let free = (next() as u32 | next() as u32) & full;
            let fast = pairing(&lines, free);
            assert_eq!(
                fast.is_some(),
                pairing_exists_by_brute_force(&lines, free, 0),
                "lines {lines:x?} free {free:x}"
            );
            if let Some(pairs) = fast {
                found += 1;
                let mut used = 0u32;
                for (&l, &(a, b)) in lines.iter().zip(&pairs) {
                    for c in [a, b] {
                        assert!(
                            (l & free) >> c & 1 == 1,
                            "cell {c} not an empty cell of {l:x}"
                        );
                        assert_eq!(used >> c & 1, 0, "cell {c} used twice");
                        used |= 1 << c;
                    }
                }
            } else {
                refused += 1;
            }
        }
        assert!(
            found > 100 && refused > 100,
            "{found} found, {refused} refused"
        );
    }
}
