//! The games chapter's defensive machine ("The incomplete defence
//! algorithm", §1.3 of `../shared/seeds/000_e427a54682f92995.txt`). The
//! opponent always moves first; the machine plays O.
//!
//! What the text gives: the cells are numbered with the centre 9 (the
//! numbering figure is lost; the corners are 1, 3, 5 and 7, so the border
//! runs 1-8 around the board, and we take it clockwise from the top-left
//! corner). The machine replies 9 if it can, else a corner, choosing at
//! random among equally good plays. At its second move it adds the rows of
//! the opponent's two cells in a table (Fig. 1.7), ignores occupied cells
//! and plays the indicated cell: cells 5 and 6 give 7, "a forced reply".
//! After a centre opening the opponent's second cell indexes "table 2"
//! and the reply is taken directly; "the result is a simple blocking".
//! The loophole is the position (a)(iii), where the machine errs "on
//! average once in three times".
//!
//! What is reconstructed (Fig. 1.7 and table 2 are lost):
//! - `TABLE_1`, the smallest table consistent with the text. Every table
//!   whose entry depends only on how two border cells lie (adjacent, far,
//!   opposite; corner or edge), with entries 0..=3, was tried (65,536 of
//!   them, `tests::the_reconstruction_is_forced`): those that block every
//!   threat, never lose after opposite corners or an edge opening, and err
//!   in exactly one of three tied plays after a corner and the far edge
//!   all pick the same cells, so the choice of table changes nothing. The
//!   smallest has a corner's row give 1 to its adjacent edges, and an
//!   edge's row 2 to its adjacent corners and 1 to the opposite edge.
//!   (a)(iii) is then the corner and far edge (cells 1 and 4): the table
//!   ties 3, 5 and 8, and 8 loses.
//! - Table 2: block the line through the centre; when the opponent takes
//!   the corner opposite the machine's, either other corner (the only
//!   drawing replies, so no other table 2 blocks and never loses).
//! - Later moves: complete a line of its own if it can (as Michie's rule,
//!   which the text calls defensive in the same breath, does), else block
//!   (at random among several threats), else add the rows of all the
//!   opponent's border cells as at the second move.

use super::board::{Geometry, Position};
use crate::rng::SplitMix64;
use std::collections::HashMap;

/// The row-major cell (0-8) of the text's cell k at index k − 1: the
/// border clockwise from the top-left corner as 1-8, the centre 9.
pub const TEXT_CELL: [usize; 9] = [0, 1, 2, 5, 8, 7, 6, 3, 4];

/// The text's number (1-9) of a row-major cell.
pub fn text_number(cell: usize) -> usize {
    TEXT_CELL
        .iter()
        .position(|&c| c == cell)
        .expect("a cell of the 3x3 board")
        + 1
}

/// Fig. 1.7, reconstructed: the row of the opponent's border cell (text
/// 1-8), with an entry for each border cell (text 1-8).
pub const TABLE_1: [[u8; 8]; 8] = [
    [0, 1, 0, 0, 0, 0, 0, 1], // 1: corner, its edges 2 and 8
    [2, 0, 2, 0, 0, 1, 0, 0], // 2: edge, its corners 1 and 3, opposite edge 6
    [0, 1, 0, 1, 0, 0, 0, 0], // 3
    [0, 0, 2, 0, 2, 0, 0, 1], // 4
    [0, 0, 0, 1, 0, 1, 0, 0], // 5
    [0, 1, 0, 0, 2, 0, 2, 0], // 6
    [0, 0, 0, 0, 0, 1, 0, 1], // 7
    [2, 0, 0, 1, 0, 0, 2, 0], // 8
];

const CENTRE: usize = 4;
const CORNERS: u32 = 1 | 1 << 2 | 1 << 6 | 1 << 8;

fn cells(mask: u32) -> impl Iterator<Item = usize> {
    (0..9).filter(move |i| mask >> i & 1 == 1)
}

/// Cells completing a line of `marks` (two of three marked, third empty).
fn completions(g: &Geometry, marks: u32, empty: u32) -> u32 {
    g.lines
        .iter()
        .filter(|&&l| (l & marks).count_ones() == 2 && l & empty != 0)
        .fold(0, |m, &l| m | (l & empty))
}

/// The border cells of greatest summed table entry over the opponent's
/// border cells, among the empty ones.
fn table_1(opponent: u32, empty: u32) -> u32 {
    let mut best = (0u32, 0u32);
    for x in cells(empty).filter(|&c| c != CENTRE) {
        let col = text_number(x) - 1;
        let score: u32 = cells(opponent)
            .filter(|&c| c != CENTRE)
            .map(|c| u32::from(TABLE_1[text_number(c) - 1][col]))
            .sum();
        if score > best.0 || best.1 == 0 {
            best = (score, 1 << x);
        } else if score == best.0 {
            best.1 |= 1 << x;
        }
    }
    best.1
}

/// Table 2: the opponent opened in the centre and the machine took
/// `corner`; the reply to the opponent's second cell.
fn table_2(opponent: u32, corner: usize, empty: u32) -> u32 {
    let second = cells(opponent & !(1 << CENTRE))
        .next()
        .expect("the opponent's second cell");
    let opposite = 8 - second;
    if opposite == corner {
        // The opponent took the corner opposite the machine's.
        CORNERS & empty
    } else {
        1 << opposite
    }
}

/// The machine's equally good plays (row-major cell mask) with O to move
/// in `p`, a position of a game the opponent (X) opened.
pub fn choices(g: &Geometry, p: Position) -> u32 {
    debug_assert!(!p.x_to_move(), "the machine plays second");
    let empty = g.full() & !p.occupied();
    match p.o.count_ones() {
        0 if empty >> CENTRE & 1 == 1 => 1 << CENTRE,
        0 => CORNERS & empty,
        1 if p.x >> CENTRE & 1 == 1 => {
            table_2(p.x, cells(p.o).next().expect("one O"), empty)
        }
        1 => table_1(p.x, empty),
        _ => {
            let win = completions(g, p.o, empty);
            let block = completions(g, p.x, empty);
            if win != 0 {
                win
            } else if block != 0 {
                block
            } else {
                table_1(p.x, empty)
            }
        }
    }
}

/// One play, at random among `choices`.
pub fn choose(g: &Geometry, p: Position, rng: &mut SplitMix64) -> usize {
    let c: Vec<usize> = cells(choices(g, p)).collect();
    c[rng.below(c.len() as u64) as usize]
}

/// The opponents the machine is measured against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opponent {
    /// Perfect play: uniform among its optimal moves (the winning ones
    /// when it can win, else the drawing ones).
    Perfect,
    /// Knows the machine: each move maximises the chance the machine loses,
    /// then minimises its chance to win (uniform among the moves that do).
    Loophole,
    /// Uniform among the empty cells.
    Random,
}

/// A game's outcome for the machine, as probabilities.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Outcomes {
    /// The machine loses.
    pub loss: f64,
    /// A draw.
    pub draw: f64,
    /// The machine wins.
    pub win: f64,
}

impl Outcomes {
    fn add(&mut self, o: Outcomes, w: f64) {
        self.loss += w * o.loss;
        self.draw += w * o.draw;
        self.win += w * o.win;
    }
}

/// Exact outcome probabilities of games from `p` against `opponent`,
/// averaging over the machine's and the opponent's random choices.
/// `values` is the solved game (value for the side to move).
pub struct Exact<'a> {
    g: &'a Geometry,
    values: &'a dyn Fn(Position) -> i8,
    memo: HashMap<(u64, Opponent), Outcomes>,
}

impl<'a> Exact<'a> {
    /// A calculator over the solved game.
    pub fn new(g: &'a Geometry, values: &'a dyn Fn(Position) -> i8) -> Self {
        Exact {
            g,
            values,
            memo: HashMap::new(),
        }
    }

    /// The outcome probabilities from `p`.
    pub fn outcomes(&mut self, p: Position, opponent: Opponent) -> Outcomes {
        if let Some(&o) = self.memo.get(&(p.key(), opponent)) {
            return o;
        }
        let g = self.g;
        let empty = g.full() & !p.occupied();
        let o = if g.has_line(p.x) {
            Outcomes {
                loss: 1.0,
                ..Default::default()
            }
        } else if g.has_line(p.o) {
            Outcomes {
                win: 1.0,
                ..Default::default()
            }
        } else if empty == 0 {
            Outcomes {
                draw: 1.0,
                ..Default::default()
            }
        } else if p.x_to_move() {
            let keep = self.opponent_moves(p, opponent);
            let mut sum = Outcomes::default();
            for &c in &keep {
                let o = self.outcomes(p.play(c), opponent);
                sum.add(o, 1.0 / keep.len() as f64);
            }
            sum
        } else {
            let mine: Vec<usize> = cells(choices(g, p)).collect();
            let mut sum = Outcomes::default();
            for &c in &mine {
                let o = self.outcomes(p.play(c), opponent);
                sum.add(o, 1.0 / mine.len() as f64);
            }
            sum
        };
        self.memo.insert((p.key(), opponent), o);
        o
    }
}

impl Exact<'_> {
    /// The moves `opponent` chooses among (uniformly) with X to move in
    /// `p`, a position that is not over.
    pub fn opponent_moves(&mut self, p: Position, opponent: Opponent) -> Vec<usize> {
        let moves: Vec<usize> = cells(self.g.full() & !p.occupied()).collect();
        match opponent {
            Opponent::Random => moves,
            Opponent::Perfect => {
                let value = |c: usize| -(self.values)(p.play(c));
                let best = moves.iter().map(|&c| value(c)).max();
                moves.into_iter().filter(|&c| Some(value(c)) == best).collect()
            }
            Opponent::Loophole => {
                // Most losses for the machine, then fewest wins.
                let after: Vec<(f64, f64)> = moves
                    .iter()
                    .map(|&c| {
                        let o = self.outcomes(p.play(c), opponent);
                        (o.loss, -o.win)
                    })
                    .collect();
                let most = after.iter().copied().fold((f64::MIN, f64::MIN), |a, b| {
                    if b.0 > a.0 + 1e-12 || (b.0 > a.0 - 1e-12 && b.1 > a.1) {
                        b
                    } else {
                        a
                    }
                });
                moves
                    .into_iter()
                    .zip(after)
                    .filter(|&(_, k)| k.0 >= most.0 - 1e-12 && k.1 >= most.1 - 1e-12)
                    .map(|(c, _)| c)
                    .collect()
            }
        }
    }
}

/// One game against `opponent` from the empty board: the machine's result
/// (−1 loss, 0 draw, 1 win).
pub fn play_game(exact: &mut Exact, opponent: Opponent, rng: &mut SplitMix64) -> i8 {
    let g = exact.g;
    let mut p = Position::default();
    loop {
        if g.has_line(p.x) {
            return -1;
        }
        if g.has_line(p.o) {
            return 1;
        }
        if p.occupied() == g.full() {
            return 0;
        }
        let cell = if p.x_to_move() {
            let keep = exact.opponent_moves(p, opponent);
            keep[rng.below(keep.len() as u64) as usize]
        } else {
            choose(g, p, rng)
        };
        p = p.play(cell);
    }
}

/// The solved 3x3 game: a position's value for the side to move.
pub fn solved_values(g: &Geometry) -> impl Fn(Position) -> i8 + '_ {
    let solved = super::solve::solve(g);
    move |p| solved[&g.canonical(p).0.key()].value
}

/// The most games `query ttt --defensive --trials` plays per opponent.
pub const MAX_TRIALS: u64 = 10_000_000;

/// What `nimrod query ttt --defensive` reports.
#[derive(Debug, serde::Serialize)]
pub struct DefensiveReport {
    /// The (a)(iii) position in the text's numbering, and the machine's
    /// equally good plays there.
    pub loophole_position: String,
    /// Its plays there (text numbers), and the one that loses.
    pub loophole_plays: Vec<usize>,
    /// The losing play among them.
    pub loophole_losing_plays: Vec<usize>,
    /// How often the machine played a losing move in the loophole position,
    /// over `trials` tries, with a 95% interval; the exact share beside it.
    pub loophole_error_rate: Rate,
    /// Per opponent: simulated games and the exact probabilities.
    pub opponents: Vec<OpponentReport>,
    /// Seed of the simulated games.
    pub seed: u64,
}

/// A measured rate with its Wilson 95% interval and the exact value.
#[derive(Debug, serde::Serialize)]
pub struct Rate {
    /// Events.
    pub count: u64,
    /// Trials.
    pub trials: u64,
    /// count / trials.
    pub rate: f64,
    /// Wilson score interval at 95%.
    pub interval_95: (f64, f64),
    /// The probability computed over every game.
    pub exact: f64,
}

impl Rate {
    fn new(count: u64, trials: u64, exact: f64) -> Rate {
        Rate {
            count,
            trials,
            rate: count as f64 / trials as f64,
            interval_95: crate::stats::wilson(count, trials),
            exact,
        }
    }
}

/// The machine's games against one opponent.
#[derive(Debug, serde::Serialize)]
pub struct OpponentReport {
    /// Who.
    pub opponent: Opponent,
    /// Games the machine lost.
    pub losses: Rate,
    /// Games drawn (simulated count; the exact share).
    pub draws: Rate,
    /// Games the machine won.
    pub wins: Rate,
}

/// Plays `trials` games against each opponent and computes the exact
/// probabilities beside them.
pub fn report(trials: u64, seed: u64) -> anyhow::Result<DefensiveReport> {
    anyhow::ensure!(
        (1..=MAX_TRIALS).contains(&trials),
        "--trials {trials} is out of range (1 ..= {MAX_TRIALS})"
    );
    let g = Geometry::new(3, 3, 3)?;
    let values = solved_values(&g);
    let mut exact = Exact::new(&g, &values);
    let text = |mask: u32| -> Vec<usize> {
        let mut v: Vec<usize> = cells(mask).map(text_number).collect();
        v.sort_unstable();
        v
    };
    let loophole = Position {
        x: 1 << TEXT_CELL[0] | 1 << TEXT_CELL[3],
        o: 1 << TEXT_CELL[8],
    };
    let plays = choices(&g, loophole);
    let losing: u32 = cells(plays)
        .filter(|&c| values(loophole.play(c)) == 1)
        .fold(0, |m, c| m | 1 << c);
    let mut rng = SplitMix64::new(seed);
    let errors = (0..trials)
        .filter(|_| losing >> choose(&g, loophole, &mut rng) & 1 == 1)
        .count() as u64;
    let share = f64::from(losing.count_ones()) / f64::from(plays.count_ones());
    let mut opponents = Vec::new();
    for (k, opponent) in [Opponent::Perfect, Opponent::Loophole, Opponent::Random]
        .into_iter()
        .enumerate()
    {
        let mut rng = SplitMix64::new(seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut tally = [0u64; 3];
        for _ in 0..trials {
            tally[(play_game(&mut exact, opponent, &mut rng) + 1) as usize] += 1;
        }
        let p = exact.outcomes(Position::default(), opponent);
        opponents.push(OpponentReport {
            opponent,
            losses: Rate::new(tally[0], trials, p.loss),
            draws: Rate::new(tally[1], trials, p.draw),
            wins: Rate::new(tally[2], trials, p.win),
        });
    }
    Ok(DefensiveReport {
        loophole_position: "opponent 1 and 4 (a corner and the far edge), machine 9".into(),
        loophole_plays: text(plays),
        loophole_losing_plays: text(losing),
        loophole_error_rate: Rate::new(errors, trials, share),
        opponents,
        seed,
    })
}

impl std::fmt::Display for DefensiveReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |r: &Rate| {
            format!(
                "{:.2}% [{:.2}, {:.2}] (exact {:.4}%)",
                100.0 * r.rate,
                100.0 * r.interval_95.0,
                100.0 * r.interval_95.1,
                100.0 * r.exact
            )
        };
        writeln!(
            f,
            "the defensive machine (text numbering: border 1-8 clockwise from the top-left corner, centre 9)"
        )?;
        let e = &self.loophole_error_rate;
        writeln!(
            f,
            "loophole (a)(iii), {}: equal plays {:?}, losing {:?}; a losing play in {} of {} tries: {}",
            self.loophole_position,
            self.loophole_plays,
            self.loophole_losing_plays,
            e.count,
            e.trials,
            pct(e)
        )?;
        for o in &self.opponents {
            let name = match o.opponent {
                Opponent::Perfect => "perfect opponent (uniform among optimal moves)",
                Opponent::Loophole => "opponent who knows the machine (maximises its losses)",
                Opponent::Random => "random opponent",
            };
            writeln!(
                f,
                "{name}: {} games, machine lost {}, drew {}, won {}",
                o.losses.trials,
                pct(&o.losses),
                pct(&o.draws),
                pct(&o.wins)
            )?;
        }
        write!(f, "seed {}", self.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &[usize]) -> u32 {
        text.iter().fold(0, |m, &k| m | 1 << TEXT_CELL[k - 1])
    }

    fn position(opponent: &[usize], machine: &[usize]) -> Position {
        Position {
            x: at(opponent),
            o: at(machine),
        }
    }

    #[test]
    fn the_text_s_example_and_its_first_replies() {
        let g = Geometry::new(3, 3, 3).unwrap();
        // "if he has cells 5 and 6 ... the indicated play is in cell 7".
        assert_eq!(choices(&g, position(&[5, 6], &[9])), at(&[7]));
        // The machine replies 9 if possible, else a corner.
        assert_eq!(choices(&g, position(&[2], &[])), at(&[9]));
        assert_eq!(choices(&g, position(&[9], &[])), at(&[1, 3, 5, 7]));
        // (a)(iii): a corner and the far edge, three equal plays.
        assert_eq!(choices(&g, position(&[1, 4], &[9])), at(&[3, 5, 8]));
        // Table 2: block through the centre, or another corner.
        assert_eq!(choices(&g, position(&[9, 2], &[1])), at(&[6]));
        assert_eq!(choices(&g, position(&[9, 5], &[1])), at(&[3, 7]));
    }

    /// Every relation-only table with entries 0..=3 that meets the text
    /// picks the same cells as `TABLE_1` in every second-move position.
    #[test]
    fn the_reconstruction_is_forced() {
        let g = Geometry::new(3, 3, 3).unwrap();
        let value = solved_values(&g);
        // How border cell x lies from border cell c: 0-3 for a corner c
        // (adjacent edge, adjacent corner, far edge, opposite corner),
        // 4-7 for an edge c (adjacent corner, adjacent edge, far corner,
        // opposite edge).
        let relation = |c: usize, x: usize| {
            let d = (x + 8 - c) % 8;
            let d = d.min(8 - d);
            (d - 1) + if c.is_multiple_of(2) { 0 } else { 4 }
        };
        let pairs: Vec<(usize, usize)> = (0..8)
            .flat_map(|a| (a + 1..8).map(move |b| (a, b)))
            .collect();
        let pick = |w: &[u8; 8], a: usize, b: usize| -> u32 {
            let mut best = (0u32, 0u32);
            for x in (0..8).filter(|&x| x != a && x != b) {
                let s = u32::from(w[relation(a, x)]) + u32::from(w[relation(b, x)]);
                if s > best.0 || best.1 == 0 {
                    best = (s, 1 << x);
                } else if s == best.0 {
                    best.1 |= 1 << x;
                }
            }
            best.1
        };
        let loses = |a: usize, b: usize, x: usize| {
            let p = position(&[a + 1, b + 1], &[9]).play(TEXT_CELL[x]);
            value(p) == 1
        };
        let mut agreeing = 0;
        for code in 0u32..1 << 16 {
            let w: [u8; 8] = std::array::from_fn(|i| (code >> (2 * i) & 3) as u8);
            let mut meets = true;
            for &(a, b) in &pairs {
                let chosen = pick(&w, a, b);
                let lost = (0..8).filter(|&x| chosen >> x & 1 == 1 && loses(a, b, x)).count();
                let n = chosen.count_ones() as usize;
                let corner_far_edge = a.is_multiple_of(2) && relation(a, b) == 2
                    || b.is_multiple_of(2) && relation(b, a) == 2;
                meets &= if corner_far_edge {
                    n == 3 && lost == 1
                } else {
                    lost == 0
                };
            }
            if meets {
                agreeing += 1;
                for &(a, b) in &pairs {
                    let mine = table_1(at(&[a + 1, b + 1]), g.full() & !at(&[a + 1, b + 1, 9]));
                    let theirs = (0..8)
                        .filter(|&x| pick(&w, a, b) >> x & 1 == 1)
                        .fold(0, |m, x| m | 1 << TEXT_CELL[x]);
                    assert_eq!(mine, theirs, "table {w:?} at cells {} and {}", a + 1, b + 1);
                }
            }
        }
        assert!(agreeing > 1, "{agreeing} tables meet the text");
    }

    #[test]
    fn the_loophole_costs_a_third_and_perfect_play_never_wins() {
        let g = Geometry::new(3, 3, 3).unwrap();
        let value = solved_values(&g);
        let mut exact = Exact::new(&g, &value);
        let loophole = exact.outcomes(position(&[1, 4], &[9]), Opponent::Perfect);
        assert!((loophole.loss - 1.0 / 3.0).abs() < 1e-12, "{loophole:?}");
        // Opposite corners and the edge openings are safe.
        for (x, o) in [(&[1, 5][..], &[9][..]), (&[2, 4], &[9]), (&[2, 6], &[9])] {
            let out = exact.outcomes(position(x, o), Opponent::Perfect);
            assert_eq!(out.loss, 0.0, "{x:?}");
        }
        let best = exact.outcomes(Position::default(), Opponent::Loophole);
        assert!(best.loss >= 1.0 / 3.0 - 1e-12, "{best:?}");
        let mut rng = SplitMix64::new(1);
        let mut lost = 0;
        for _ in 0..3000 {
            lost += (play_game(&mut exact, Opponent::Loophole, &mut rng) == -1) as u32;
        }
        let rate = f64::from(lost) / 3000.0;
        assert!((rate - best.loss).abs() < 0.04, "{rate} vs {}", best.loss);
    }
}
