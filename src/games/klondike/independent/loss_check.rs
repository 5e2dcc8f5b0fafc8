//! The second opinion on a "not winnable" verdict: an exhaustive
//! depth-first search over the exact positions of the independent rules
//! engine (`rules.rs`), every legal move, nothing pruned. It shares no move
//! generation, dominance rule, normal form, relaxation or key with the
//! solver (`solver.rs`, `relaxed.rs`, `state.rs`).
//!
//! Only two identifications of positions, each proved here:
//! - the columns are interchangeable (every rule treats them alike), so a
//!   position's key lists its columns sorted;
//! - with unlimited redeals, talon splits that dealing and turning the
//!   waste over lead from one to the other and back (they touch nothing
//!   else, and the pass count then matters to no rule) reach the same
//!   positions, so they are one position: it is keyed by the least split
//!   of the cycle, and its steps are the moves of every split of the cycle
//!   (the waste plays at each split, preceded by the deals to it). The
//!   cycle is found by following the two moves (`orbit`), not by a
//!   formula.
//!
//! A win it finds is a line of its own engine's moves; a loss is every
//! reachable position seen. Past its budget it says so and decides nothing.

use super::rules::Table;
use crate::games::klondike::state::{Move, Redeal, Rules};
use std::collections::HashSet;

/// What the exhaustive search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// Every reachable position seen (this many), none won.
    Lost {
        /// Positions seen.
        positions: u64,
    },
    /// A winning line, legal move by move in the independent engine.
    Won(Vec<Move>),
    /// More than the budget of positions; nothing decided.
    Unfinished {
        /// Positions seen.
        positions: u64,
    },
}

/// Searches deal `deal` under `rules`, storing at most `budget` positions.
pub fn check_deal(deal: u64, rules: &Rules, budget: u64) -> Finding {
    check_from(Table::deal(deal), rules, budget)
}

/// Searches from `root`.
pub fn check_from(root: Table, rules: &Rules, budget: u64) -> Finding {
    /// A position and its steps: a move, played after dealing (and turning
    /// the waste over) until the talon's split is the one given, when the
    /// position stands for the whole orbit of its split.
    struct Frame {
        table: Table,
        /// The split the position was reached at, before `settle` moved it
        /// along its orbit (the line deals from there).
        arrived: usize,
        steps: Vec<(usize, Move)>,
        next: usize,
    }
    let mut root = root;
    if root.is_won() {
        return Finding::Won(Vec::new());
    }
    let mut seen: HashSet<Key, std::hash::BuildHasherDefault<WordHasher>> = HashSet::default();
    seen.reserve(budget.min(1 << 20) as usize);
    let arrived = root.dealt;
    let on_orbit = settle(&mut root, rules);
    seen.insert(key(&root, rules));
    let mut stack = vec![Frame {
        arrived,
        steps: steps(&root, rules, on_orbit),
        table: root,
        next: 0,
    }];
    while let Some(frame) = stack.last_mut() {
        let Some(&(split, m)) = frame.steps.get(frame.next) else {
            stack.pop();
            continue;
        };
        frame.next += 1;
        let mut child = frame.table;
        deal_to(&mut child, split, rules, &mut |_| {});
        if let Err(e) = child.play(m, rules) {
            unreachable!("the engine listed an illegal move {m:?}: {e}");
        }
        if child.is_won() {
            let mut line = Vec::new();
            for f in &stack {
                let (split, m) = f.steps[f.next - 1];
                let mut t = f.table;
                t.dealt = f.arrived;
                deal_to(&mut t, split, rules, &mut |d| line.push(d));
                line.push(m);
            }
            return Finding::Won(line);
        }
        let arrived = child.dealt;
        let on_orbit = settle(&mut child, rules);
        if !seen.insert(key(&child, rules)) {
            continue;
        }
        if seen.len() as u64 > budget {
            return Finding::Unfinished {
                positions: seen.len() as u64,
            };
        }
        stack.push(Frame {
            steps: steps(&child, rules, on_orbit),
            table: child,
            arrived,
            next: 0,
        });
    }
    Finding::Lost {
        positions: seen.len() as u64,
    }
}

/// With unlimited redeals, when the talon's split lies on a cycle of
/// dealing and turning over, moves it to the least split of that cycle
/// (the position stands for every split of the cycle, each reachable from
/// every other by those moves alone) and says so.
fn settle(t: &mut Table, rules: &Rules) -> bool {
    if rules.redeal != Redeal::Unlimited {
        return false;
    }
    match orbit(t.dealt, t.talon.len(), rules.draw) {
        Some(splits) => {
            t.dealt = splits.into_iter().min().expect("an orbit holds its start");
            true
        }
        None => false,
    }
}

/// A position's steps. On a cycle of splits: the moves that do not touch
/// the talon, then every waste play at every split of the cycle (dealing
/// between splits stays inside the position). Otherwise every legal move
/// as it stands, dealing included.
fn steps(t: &Table, rules: &Rules, on_orbit: bool) -> Vec<(usize, Move)> {
    if !on_orbit {
        return t.moves(rules).into_iter().map(|m| (t.dealt, m)).collect();
    }
    let from_waste = |m: &Move| matches!(m, Move::WasteToFoundation | Move::WasteToColumn(_));
    let talon_only = |m: &Move| matches!(m, Move::Deal | Move::Redeal);
    let mut out: Vec<(usize, Move)> = t
        .moves(rules)
        .into_iter()
        .filter(|m| !from_waste(m) && !talon_only(m))
        .map(|m| (t.dealt, m))
        .collect();
    let splits = orbit(t.dealt, t.talon.len(), rules.draw).expect("settled on an orbit");
    let mut plays = Vec::new();
    for split in splits {
        plays.clear();
        t.waste_moves_at(split, &mut plays);
        out.extend(plays.iter().map(|&m| (split, m)));
    }
    out
}

/// Deals (turning the waste over at the end of the stock) until the talon's
/// split is `split`, handing each move to `record`.
fn deal_to(t: &mut Table, split: usize, rules: &Rules, record: &mut impl FnMut(Move)) {
    let mut guard = 0;
    while t.dealt != split {
        let m = if t.dealt < t.talon.len() {
            Move::Deal
        } else {
            Move::Redeal
        };
        if let Err(e) = t.play(m, rules) {
            unreachable!("dealing to split {split} inside an orbit: {e}");
        }
        record(m);
        guard += 1;
        assert!(
            guard <= 2 * t.talon.len() + 2,
            "split {split} is not on the orbit"
        );
    }
}

/// The position's identity up to the two identifications above.
fn key(t: &Table, rules: &Rules) -> Key {
    let mut order: [usize; 7] = std::array::from_fn(|c| c);
    let column = |c: usize| (t.down[c], &t.columns[c][..]);
    order.sort_unstable_by(|&a, &b| column(a).cmp(&column(b)));
    let mut out = [0u8; KEY_BYTES];
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        out[len..len + bytes.len()].copy_from_slice(bytes);
        len += bytes.len();
    };
    for c in order {
        put(&[t.down[c], t.columns[c].len() as u8]);
        put(&t.columns[c]);
    }
    put(&[t.talon.len() as u8]);
    put(&t.talon);
    // With unlimited redeals the pass count matters to no rule.
    let passes = match rules.redeal {
        Redeal::Unlimited => 0,
        _ => t.passes,
    };
    put(&[t.dealt as u8]);
    put(&t.home);
    put(&passes.to_le_bytes());
    Key(out)
}

/// Every card once (52 bytes), two bytes per column, talon length and
/// split, four foundation heights, the pass count.
const KEY_BYTES: usize = 52 + 14 + 2 + 4 + 4;

/// A position's exact identity: its bytes, compared in full.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key([u8; KEY_BYTES]);

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Only the bucket depends on this; equality compares every byte.
        let mut h = 0u64;
        for chunk in self.0.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        state.write_u64(h);
    }
}

/// Passes the one word `Key` writes through unchanged.
#[derive(Default)]
struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }
}

/// The splits that dealing and turning the waste over lead `dealt` through
/// and back to it, when they do (with unlimited redeals); None when they
/// never come back (drawing three, a waste that lost a card mid-pass: the
/// splits after it are reachable, it is not). Found by following the two
/// moves, not by a formula.
fn orbit(dealt: usize, talon: usize, draw: u8) -> Option<Vec<usize>> {
    if talon == 0 {
        return None;
    }
    let next = |k: usize| {
        if k < talon {
            (k + draw.max(1) as usize).min(talon)
        } else {
            0
        }
    };
    let mut splits = vec![dealt];
    let mut k = next(dealt);
    // An orbit has at most talon + 1 splits.
    for _ in 0..=talon + 1 {
        if k == dealt {
            return Some(splits);
        }
        splits.push(k);
        k = next(k);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_orbit_is_followed_not_assumed() {
        let least =
            |dealt, talon, draw| orbit(dealt, talon, draw).map(|o| *o.iter().min().unwrap());
        // Drawing three from 24 cards: 0, 3, ..., 24, then 0 again.
        assert_eq!(orbit(9, 24, 3).map(|o| o.len()), Some(9));
        assert_eq!(least(24, 24, 3), Some(0));
        // A waste of 7 after a card left it: 10, 13, ... never come back to 7.
        assert_eq!(least(7, 23, 3), None);
        // 23 cards: 0, 3, ..., 21, 23 (the last deal brings two), 0.
        assert_eq!(least(23, 23, 3), Some(0));
        assert_eq!(orbit(5, 12, 1).map(|o| o.len()), Some(13));
    }

    #[test]
    fn a_position_one_move_from_the_win_is_won_and_a_stuck_one_lost() {
        let rules = Rules {
            draw: 1,
            redeal: Redeal::Unlimited,
            worry_back: true,
        };
        // Every card home but the K♠, which lies alone in column 0.
        let t = Table::from_parts(
            std::array::from_fn(|c| {
                if c == 0 {
                    vec![3 * 13 + 12]
                } else {
                    Vec::new()
                }
            }),
            [0; 7],
            Vec::new(),
            0,
            [13, 13, 13, 12],
            1,
        )
        .unwrap();
        assert_eq!(
            check_from(t, &rules, 100),
            Finding::Won(vec![Move::ColumnToFoundation(0)])
        );
        // Drawing three, one pass, no worrying back: the J♠ Q♠ K♠ come up
        // as one group with the K♠ on top. The K♠ can go to a column, the
        // Q♠ then blocks the J♠: three positions (the K♠ moved between
        // empty columns is the same position), none won.
        let rules = Rules {
            draw: 3,
            redeal: Redeal::None,
            worry_back: false,
        };
        let t = Table::from_parts(
            Default::default(),
            [0; 7],
            vec![3 * 13 + 10, 3 * 13 + 11, 3 * 13 + 12],
            0,
            [13, 13, 13, 10],
            1,
        )
        .unwrap();
        assert_eq!(check_from(t, &rules, 100), Finding::Lost { positions: 3 });
    }
}
