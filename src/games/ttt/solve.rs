//! Memoised minimax over canonical positions reachable in play, and the
//! counts that describe the game tree.

use super::board::{Geometry, Position};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Value for the side to move, distance to the end under best play (the
/// winner hurries, the loser delays), and every move that achieves both
/// (cell mask, in the orientation of the position it belongs to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// +1 the player to move wins, 0 draw, −1 loses.
    pub value: i8,
    /// Plies to the end under best play.
    pub distance: u8,
    /// The optimal moves as a cell mask.
    pub best: u32,
}

impl Solved {
    /// u32 table entry: bits 0-1 value + 1, bits 2-6 distance, bits 7-31
    /// the optimal-move mask (25 cells).
    pub fn encode(&self) -> u32 {
        (self.value + 1) as u32 | (self.distance as u32) << 2 | self.best << 7
    }
    /// The solution a table entry encodes (None for an impossible value field).
    pub fn decode(e: u32) -> Option<Solved> {
        let value = (e & 3) as i8 - 1;
        (value <= 1).then_some(Solved {
            value,
            distance: (e >> 2 & 31) as u8,
            best: e >> 7,
        })
    }
    /// Orders outcomes for the side to move: win > draw > loss; a quicker
    /// win and a slower loss are better.
    fn rank(value: i8, distance: u8) -> i32 {
        match value {
            1 => 1000 - distance as i32,
            -1 => -1000 + distance as i32,
            _ => 0,
        }
    }
}

/// Whether the game is over: a line, or a full board.
pub fn is_terminal(g: &Geometry, p: Position) -> bool {
    g.has_line(p.x) || g.has_line(p.o) || p.occupied() == g.full()
}

/// Every reachable canonical position with its solution.
pub fn solve(g: &Geometry) -> HashMap<u64, Solved> {
    let mut memo = HashMap::new();
    visit(g, Position::default(), &mut memo);
    memo
}

fn visit(g: &Geometry, p: Position, memo: &mut HashMap<u64, Solved>) -> Solved {
    let (p, _) = g.canonical(p);
    if let Some(&s) = memo.get(&p.key()) {
        return s;
    }
    let (_, opponent) = p.sides();
    let s = if g.has_line(opponent) {
        Solved {
            value: -1,
            distance: 0,
            best: 0,
        }
    } else if p.occupied() == g.full() {
        Solved {
            value: 0,
            distance: 0,
            best: 0,
        }
    } else {
        let mut best_rank = i32::MIN;
        let mut out = Solved {
            value: -1,
            distance: 0,
            best: 0,
        };
        let mut empty = g.full() & !p.occupied();
        while empty != 0 {
            let cell = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let c = visit(g, p.play(cell), memo);
            let (value, distance) = (-c.value, c.distance + 1);
            let r = Solved::rank(value, distance);
            if r > best_rank {
                best_rank = r;
                out = Solved {
                    value,
                    distance,
                    best: 1 << cell,
                };
            } else if r == best_rank {
                out.best |= 1 << cell;
            }
        }
        out
    };
    memo.insert(p.key(), s);
    s
}

/// Counts describing the game tree, each computed from the positions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeStats {
    /// The board's name (`3x3k3`).
    pub board: String,
    /// Positions reachable in play, the empty board included.
    pub positions: u64,
    /// The same up to the board's symmetries (table entries).
    pub templates: u64,
    /// Positions where the game is over.
    pub terminal_positions: u64,
    /// The same up to symmetry.
    pub terminal_templates: u64,
    /// Distinct move sequences from the empty board to the end of the game.
    pub games: u64,
    /// Games the first player wins.
    pub games_first_player_wins: u64,
    /// Games the second player wins.
    pub games_second_player_wins: u64,
    /// Games drawn.
    pub games_drawn: u64,
    /// Templates where the first player is to move with a choice (two or
    /// more empty cells): Michie's MENACE matchboxes on 3x3.
    pub first_player_choice_templates: u64,
    /// Empty board: value for the first player under best play.
    pub empty_board_value: i8,
    /// Empty board: plies to the end under best play.
    pub empty_board_distance: u8,
}

/// The tree counts of a solved board.
pub fn tree_stats(g: &Geometry, solved: &HashMap<u64, Solved>) -> TreeStats {
    let mut s = TreeStats {
        board: g.name(),
        templates: solved.len() as u64,
        ..Default::default()
    };
    for &key in solved.keys() {
        let p = Position::from_key(key);
        let orbit = orbit_size(g, p);
        s.positions += orbit;
        if is_terminal(g, p) {
            s.terminal_positions += orbit;
            s.terminal_templates += 1;
        } else if p.x_to_move() && (g.full() & !p.occupied()).count_ones() >= 2 {
            s.first_player_choice_templates += 1;
        }
    }
    let mut memo = HashMap::new();
    let [x, o, d] = count_games(g, Position::default(), &mut memo);
    s.games = x + o + d;
    s.games_first_player_wins = x;
    s.games_second_player_wins = o;
    s.games_drawn = d;
    let root = solved[&g.canonical(Position::default()).0.key()];
    s.empty_board_value = root.value;
    s.empty_board_distance = root.distance;
    s
}

/// Number of distinct positions a template stands for.
pub fn orbit_size(g: &Geometry, p: Position) -> u64 {
    let mut images: Vec<u64> = (0..g.syms.len())
        .map(|s| {
            Position {
                x: g.transform(s, p.x),
                o: g.transform(s, p.o),
            }
            .key()
        })
        .collect();
    images.sort_unstable();
    images.dedup();
    images.len() as u64
}

/// Complete games from `p` by outcome [first player wins, second wins, draw].
fn count_games(g: &Geometry, p: Position, memo: &mut HashMap<u64, [u64; 3]>) -> [u64; 3] {
    let (p, _) = g.canonical(p);
    if let Some(&c) = memo.get(&p.key()) {
        return c;
    }
    let c = if g.has_line(p.x) {
        [1, 0, 0]
    } else if g.has_line(p.o) {
        [0, 1, 0]
    } else if p.occupied() == g.full() {
        [0, 0, 1]
    } else {
        let mut total = [0u64; 3];
        let mut empty = g.full() & !p.occupied();
        while empty != 0 {
            let cell = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let sub = count_games(g, p.play(cell), memo);
            for (t, s) in total.iter_mut().zip(sub) {
                *t = t.saturating_add(s);
            }
        }
        total
    };
    memo.insert(p.key(), c);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_round_trips() {
        let s = Solved {
            value: -1,
            distance: 17,
            best: 0x1ff_ffff,
        };
        assert_eq!(Solved::decode(s.encode()), Some(s));
    }
}
