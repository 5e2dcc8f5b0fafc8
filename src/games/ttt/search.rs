//! m,n,k boards for the generic search (`crate::search`): exact values of
//! boards beyond the template table, and the line-scoring player
//! (y1 + 5·y2 + 25·y3) looking ahead any number of plies.

use super::board::{Geometry, Position as Board};
use super::solve::Solved;
use crate::search::{self, Ended, Engine, Options, Score};
use std::collections::HashMap;

/// A position being searched: both sides' marks and the moves played.
#[derive(Clone)]
pub struct Mnk<'g> {
    g: &'g Geometry,
    /// Lines through each cell.
    lines_of: Vec<Vec<u32>>,
    /// X's marks, O's marks.
    marks: [u32; 2],
    played: Vec<u8>,
    /// Weight of a line holding j of one side's marks and none of the
    /// other's: 5^(j-1) for 1 <= j < k (y1 + 5·y2 + 25·y3 on 3x3).
    weights: Vec<Score>,
    /// Search-only shortcuts that keep every value and distance exact:
    /// symmetric positions share a table key, and a move that wins at once
    /// or blocks the opponent's win at once is the only one generated.
    pub exact_shortcuts: bool,
    /// Also end the search with a proven draw where each side can block
    /// every line the other could still complete by a pairing strategy
    /// (see `pairing`).
    pub pairing_draws: bool,
}

impl<'g> Mnk<'g> {
    /// The search position of board `from` on geometry `g`.
    pub fn new(g: &'g Geometry, from: Board) -> Mnk<'g> {
        let lines_of = (0..g.cells())
            .map(|c| {
                g.lines
                    .iter()
                    .copied()
                    .filter(|l| l >> c & 1 == 1)
                    .collect()
            })
            .collect();
        let weights = (0..=g.k)
            .map(|j| {
                if j == 0 || j >= g.k {
                    0
                } else {
                    5i32.pow(j as u32 - 1)
                }
            })
            .collect();
        Mnk {
            g,
            lines_of,
            marks: [from.x, from.o],
            played: Vec::with_capacity(g.cells()),
            weights,
            exact_shortcuts: false,
            pairing_draws: false,
        }
    }

    /// Cells where the side to move completes a line now, and where the
    /// opponent would.
    fn wins_and_threats(&self) -> (u32, u32) {
        let me = self.mover();
        let (own, opp) = (self.marks[me], self.marks[1 - me]);
        let free = self.g.full() & !(own | opp);
        let need = self.g.k as u32 - 1;
        let (mut wins, mut threats) = (0, 0);
        for &l in &self.g.lines {
            let f = l & free;
            if f.count_ones() != 1 {
                continue;
            }
            if l & opp == 0 && (l & own).count_ones() == need {
                wins |= f;
            } else if l & own == 0 && (l & opp).count_ones() == need {
                threats |= f;
            }
        }
        (wins, threats)
    }

    /// True when neither side can complete any line with the moves it has
    /// left: every line holds an opponent mark or more empty cells than
    /// its owner will get to fill. The game is then a draw whatever is
    /// played, so ending it here keeps the value exact (a draw has no
    /// distance).
    fn no_line_can_be_completed(&self) -> bool {
        self.live_lines(0).next().is_none() && self.live_lines(1).next().is_none()
    }

    /// Empty cells, and how many of them each side still gets to fill.
    fn free_and_moves_left(&self) -> (u32, [u32; 2]) {
        let free = self.g.full() & !(self.marks[0] | self.marks[1]);
        let left = free.count_ones();
        let me = self.mover();
        let mut moves_left = [0; 2];
        moves_left[me] = left.div_ceil(2);
        moves_left[1 - me] = left / 2;
        (free, moves_left)
    }

    /// Lines `side` could still complete: none of the opponent's marks,
    /// and no more empty cells than `side` has moves left.
    fn live_lines(&self, side: usize) -> impl Iterator<Item = u32> + '_ {
        let (free, moves_left) = self.free_and_moves_left();
        let opp = self.marks[1 - side];
        self.g
            .lines
            .iter()
            .copied()
            .filter(move |&l| l & opp == 0 && (l & free).count_ones() <= moves_left[side])
    }

    /// True when each side holds a pairing strategy against the other, so
    /// neither can win and the game is a draw.
    fn both_sides_paired_off(&self) -> bool {
        let (free, _) = self.free_and_moves_left();
        (0..2).all(|side| {
            let lines: Vec<u32> = self.live_lines(side).collect();
            super::pairing::pairing(&lines, free).is_some()
        })
    }

    /// The board as marks.
    pub fn board(&self) -> Board {
        Board {
            x: self.marks[0],
            o: self.marks[1],
        }
    }

    fn mover(&self) -> usize {
        usize::from(self.marks[0].count_ones() != self.marks[1].count_ones())
    }

    /// Y(side): Σ weights over lines free of the other side's marks.
    fn lines_score(&self, side: usize) -> Score {
        let (own, other) = (self.marks[side], self.marks[1 - side]);
        self.g
            .lines
            .iter()
            .filter(|&&l| l & other == 0)
            .map(|&l| self.weights[(l & own).count_ones() as usize])
            .sum()
    }
}

impl search::Position for Mnk<'_> {
    type Move = u8;

    fn moves(&self, out: &mut Vec<u8>) {
        let mut free = self.g.full() & !(self.marks[0] | self.marks[1]);
        if self.exact_shortcuts {
            // Winning now is the quickest win; failing to block loses two
            // plies later, which blocking never does sooner (and with two
            // threats every move loses then), so one move suffices.
            let (wins, threats) = self.wins_and_threats();
            if wins != 0 {
                free = wins & wins.wrapping_neg();
            } else if threats != 0 {
                free = threats & threats.wrapping_neg();
            }
        }
        out.extend((0..self.g.cells() as u8).filter(|&c| free >> c & 1 == 1));
    }
    fn make(&mut self, m: u8) {
        let side = self.mover();
        self.marks[side] |= 1 << m;
        self.played.push(m);
    }
    fn unmake(&mut self, m: u8) {
        self.played.pop();
        let side = 1 - self.mover();
        self.marks[side] &= !(1 << m);
    }
    fn key(&self) -> u64 {
        // Exact: both masks (at most 25 cells each); the side to move
        // follows from the counts. With the shortcuts, the smallest key of
        // the symmetric images (equal values).
        let b = self.board();
        if self.exact_shortcuts {
            self.g.canonical(b).0.key()
        } else {
            b.key()
        }
    }
    fn ended(&self) -> Option<Ended> {
        let own = self.marks[1 - self.mover()];
        let won = match self.played.last() {
            Some(&c) => self.lines_of[c as usize].iter().any(|&l| l & !own == 0),
            // A position handed in: any line of the side that moved last.
            None => self.g.has_line(own),
        };
        if won {
            Some(Ended::Lost)
        } else if self.marks[0] | self.marks[1] == self.g.full()
            || (self.exact_shortcuts && self.no_line_can_be_completed())
            || (self.pairing_draws && self.both_sides_paired_off())
        {
            Some(Ended::Drawn)
        } else {
            None
        }
    }
    fn evaluate(&self) -> Score {
        let me = self.mover();
        self.lines_score(me) - self.lines_score(1 - me)
    }
    fn order_hint(&self, m: u8) -> Score {
        // Lines the cell extends for the mover plus lines it blocks.
        let me = self.mover();
        let (own, opp) = (self.marks[me], self.marks[1 - me]);
        self.lines_of[m as usize]
            .iter()
            .map(|&l| {
                let mine = if l & opp == 0 {
                    self.weights
                        .get((l & own).count_ones() as usize + 1)
                        .copied()
                        .unwrap_or(0)
                } else {
                    0
                };
                let theirs = if l & own == 0 {
                    self.weights
                        .get((l & opp).count_ones() as usize + 1)
                        .copied()
                        .unwrap_or(0)
                } else {
                    0
                };
                mine + theirs
            })
            .sum()
    }
    fn move_slot(&self, m: u8) -> usize {
        m as usize
    }
    fn move_slots(&self) -> usize {
        self.g.cells()
    }
}

/// The exact value of `from` by search to the end of the game, with every
/// technique that is sound for exact values (no null move); with
/// `pairing`, positions where both sides hold a pairing strategy are
/// proven draws without search.
pub fn solve_exact(
    g: &Geometry,
    from: Board,
    tt_bits: u32,
    node_budget: Option<u64>,
    pairing: bool,
) -> search::SearchResult<u8> {
    let mut p = Mnk::new(g, from);
    p.exact_shortcuts = true;
    p.pairing_draws = pairing;
    let mut opts = Options::exact(tt_bits);
    opts.quiescence = false;
    opts.node_budget = node_budget;
    // Shallow iterations only order moves here, and cost 5x the nodes on
    // 4x5k4 (87.8M against 16.0M).
    opts.no_deepening = true;
    let depth = (g.cells() - (from.x | from.o).count_ones() as usize) as u32;
    let mut r = Engine::new(opts).search(&mut p, depth);
    if r.best.is_none() && !g.has_line(from.x) && !g.has_line(from.o) {
        // The root itself was a proven draw with empty cells left (no line
        // can be completed, or both sides hold pairings). Every move keeps
        // it: the mover's pairing answers the opponent's moves from then
        // on, wherever the mover plays now.
        let mut moves = Vec::new();
        search::Position::moves(&p, &mut moves);
        r.best = moves.first().copied();
        r.pv = r.best.into_iter().collect();
    }
    r
}

/// The line-scoring player's move looking `depth` >= 1 plies ahead:
/// negamax over Y(mover) − Y(opponent), a finished game scored as won or
/// lost. Ties go to the lowest cell. (The one-ply machine in `machines.rs`
/// counts only its own lines, so it does not see a threat to block.)
pub fn lookahead_move(g: &Geometry, b: Board, depth: u32) -> u8 {
    let mut p = Mnk::new(g, b);
    let mut moves = Vec::new();
    search::Position::moves(&p, &mut moves);
    let mut best = (Score::MIN, moves[0]);
    for m in moves {
        search::Position::make(&mut p, m);
        let mut count = search::classic::Count::default();
        let s = -search::classic::alpha_beta(&mut p, depth - 1, false, &mut count);
        search::Position::unmake(&mut p, m);
        if s > best.0 {
            best = (s, m);
        }
    }
    best.1
}

/// How a player fares against the solved table, over every position it
/// can face when the opponent may play anything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Scorecard {
    /// Positions where the player was to move.
    pub decisions: u64,
    /// Of those, where its move lowered the game's value.
    pub value_losing: u64,
    /// Opponent lines (move sequences) that beat it.
    pub losses: u64,
    /// Opponent lines that end in a draw / in its win.
    pub draws: u64,
    /// Opponent lines that end in its win.
    pub wins: u64,
}

/// Plays `player` as X (`as_x`) or O against every opponent sequence.
pub fn scorecard(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    as_x: bool,
    player: &dyn Fn(Board) -> u8,
) -> Scorecard {
    let mut card = Scorecard::default();
    walk(g, solved, Board::default(), as_x, player, &mut card);
    card
}

fn value_of(g: &Geometry, solved: &HashMap<u64, Solved>, b: Board) -> i8 {
    solved[&g.canonical(b).0.key()].value
}

fn walk(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    b: Board,
    as_x: bool,
    player: &dyn Fn(Board) -> u8,
    card: &mut Scorecard,
) {
    let x_won = g.has_line(b.x);
    let o_won = g.has_line(b.o);
    if x_won || o_won || b.occupied() == g.full() {
        let player_won = (x_won && as_x) || (o_won && !as_x);
        let player_lost = (x_won && !as_x) || (o_won && as_x);
        if player_won {
            card.wins += 1;
        } else if player_lost {
            card.losses += 1;
        } else {
            card.draws += 1;
        }
        return;
    }
    if b.x_to_move() == as_x {
        card.decisions += 1;
        let m = player(b) as usize;
        let after = b.play(m);
        // Values are for the side to move: the move keeps the value when
        // the opponent's value after it is minus the value before.
        if -value_of(g, solved, after) < value_of(g, solved, b) {
            card.value_losing += 1;
        }
        walk(g, solved, after, as_x, player, card);
    } else {
        for c in 0..g.cells() {
            if b.occupied() >> c & 1 == 0 {
                walk(g, solved, b.play(c), as_x, player, card);
            }
        }
    }
}
