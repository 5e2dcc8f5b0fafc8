//! MENACE (Michie 1961): one matchbox per template where X must choose a
//! move, beads for each distinct move (moves equivalent under the template's
//! own symmetries are one option, as in Michie's boxes). Initial beads 4, 3,
//! 2, 1 per option at X's moves 1, 3, 5, 7; after a game every bead drawn is
//! reinforced by +3 (win), +1 (draw) or −1 (loss). An empty box resigns.

use super::board::{Geometry, Position};
use super::solve::Solved;
use crate::rng::SplitMix64;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// Who plays O against MENACE in training.
pub enum Opponent {
    /// Plays O perfectly, choosing uniformly among its optimal moves.
    Perfect,
    /// Plays O uniformly at random.
    Random,
    /// Plays O perfectly, always the same line: the lowest-numbered
    /// optimal cell.
    PerfectFixed,
    /// Michie-like: O's first reply tries every empty cell in turn, game
    /// after game (sound replies and unsound ones), then plays perfectly,
    /// uniformly among optimal moves.
    TriesEachReply,
}

impl Opponent {
    /// Every opponent the milestones are measured against.
    pub const ALL: [Opponent; 4] = [
        Opponent::Perfect,
        Opponent::PerfectFixed,
        Opponent::Random,
        Opponent::TriesEachReply,
    ];

    /// The opponent in words.
    pub fn name(&self) -> &'static str {
        match self {
            Opponent::Perfect => "perfect",
            Opponent::Random => "random",
            Opponent::PerfectFixed => "perfect, one fixed line",
            Opponent::TriesEachReply => "tries each reply in turn",
        }
    }

    /// The opponent's key in the report (`menace.milestones`).
    pub fn id(&self) -> &'static str {
        match self {
            Opponent::Perfect => "perfect",
            Opponent::Random => "random",
            Opponent::PerfectFixed => "perfect_fixed",
            Opponent::TriesEachReply => "tries_each_reply",
        }
    }

    /// Keeps the runs of different opponents on different seeds.
    fn salt(&self) -> u64 {
        match self {
            Opponent::Perfect => 0,
            Opponent::Random => 1 << 32,
            Opponent::PerfectFixed => 2 << 32,
            Opponent::TriesEachReply => 3 << 32,
        }
    }
}

/// Outcome shares of one block of 10 games, averaged over runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Block {
    /// The block's first game (1-based).
    pub first_game: u64,
    /// Share of the block's games MENACE won.
    pub wins: f64,
    /// Share drawn.
    pub draws: f64,
    /// Share lost (resigning included).
    pub losses: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
/// A learning curve: outcome shares per block of 10 games, averaged over runs.
pub struct Curve {
    /// The opponent's name.
    pub opponent: String,
    /// Seeded runs averaged.
    pub runs: u64,
    /// Games per run.
    pub games: u64,
    /// Boxes opened, averaged over runs.
    pub boxes_used: f64,
    /// The blocks, in order.
    pub blocks: Vec<Block>,
}

/// Shares of won, drawn and lost games.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Outcomes {
    /// Share won.
    pub wins: f64,
    /// Share drawn.
    pub draws: f64,
    /// Share lost.
    pub losses: f64,
}

/// A learning curve as the machines table records it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CurveSummary {
    /// The opponent's name.
    pub opponent: String,
    /// Seeded runs averaged.
    pub runs: u64,
    /// Games per run.
    pub games_per_run: u64,
    /// Outcome shares of the first 10 games.
    pub first_10_games: Outcomes,
    /// Outcome shares of the last 10 games.
    pub last_10_games: Outcomes,
    /// Boxes opened, averaged over runs.
    pub mean_boxes_used: f64,
}

impl Curve {
    /// The curve as the machines table records it.
    pub fn summary(&self) -> CurveSummary {
        let first = &self.blocks[0];
        let last = self.blocks.last().expect("at least one block");
        let outcomes = |b: &Block| Outcomes {
            wins: b.wins,
            draws: b.draws,
            losses: b.losses,
        };
        CurveSummary {
            opponent: self.opponent.clone(),
            runs: self.runs,
            games_per_run: self.games,
            first_10_games: outcomes(first),
            last_10_games: outcomes(last),
            mean_boxes_used: self.boxes_used,
        }
    }
}

pub(super) const BLOCK: u64 = 10;

struct Menace {
    /// Template key → (option cell in template orientation, beads).
    boxes: HashMap<u64, Vec<(usize, u32)>>,
    /// What an empty box does.
    empty_box: EmptyBox,
}

/// What MENACE does when the box it must draw from is empty. The text
/// gives no rule; read literally, it has no move and resigns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EmptyBox {
    /// No bead to draw: it resigns (the literal reading; our default).
    #[default]
    Resign,
    /// The box is refilled with its first beads and drawn from (what
    /// modern replicas do, and what an operator would do at the table).
    Refill,
}

impl EmptyBox {
    #[cfg(any(test, feature = "internals"))]
    /// Short id (`resign`, `refill`).
    pub fn id(self) -> &'static str {
        match self {
            EmptyBox::Resign => "resign",
            EmptyBox::Refill => "refill",
        }
    }
}

impl Menace {
    fn options(g: &Geometry, canon: Position) -> Vec<(usize, u32)> {
        let stabiliser: Vec<usize> = (0..g.syms.len())
            .filter(|&s| g.transform(s, canon.x) == canon.x && g.transform(s, canon.o) == canon.o)
            .collect();
        let beads = match canon.x.count_ones() {
            0 => 4,
            1 => 3,
            2 => 2,
            _ => 1,
        };
        let mut out = Vec::new();
        for cell in 0..g.cells() {
            if canon.occupied() >> cell & 1 == 1 {
                continue;
            }
            // The option is the smallest cell of its orbit.
            let smallest = stabiliser
                .iter()
                .map(|&s| g.transform(s, 1 << cell).trailing_zeros() as usize)
                .min()
                .unwrap_or(cell);
            if smallest == cell {
                out.push((cell, beads));
            }
        }
        out
    }

    /// Draws a move; None when the box is empty (MENACE resigns).
    fn choose(
        &mut self,
        g: &Geometry,
        p: Position,
        rng: &mut SplitMix64,
        used: &mut Vec<(u64, usize)>,
    ) -> Option<usize> {
        let (canon, sym) = g.canonical(p);
        let options = self
            .boxes
            .entry(canon.key())
            .or_insert_with(|| Self::options(g, canon));
        let mut total: u32 = options.iter().map(|o| o.1).sum();
        if total == 0 {
            if self.empty_box == EmptyBox::Resign {
                return None;
            }
            *options = Self::options(g, canon);
            total = options.iter().map(|o| o.1).sum();
        }
        let mut pick = rng.below(total as u64) as u32;
        let mut at = 0;
        for (i, o) in options.iter().enumerate() {
            if pick < o.1 {
                at = i;
                break;
            }
            pick -= o.1;
        }
        used.push((canon.key(), at));
        let cell = options[at].0;
        Some(g.untransform(sym, 1 << cell).trailing_zeros() as usize)
    }

    fn reinforce(&mut self, used: &[(u64, usize)], delta: i32) {
        for &(key, at) in used {
            if let Some(o) = self.boxes.get_mut(&key) {
                o[at].1 = (o[at].1 as i32 + delta).max(0) as u32;
            }
        }
    }
}

fn opponent_move(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    p: Position,
    who: Opponent,
    game: u64,
    rng: &mut SplitMix64,
) -> usize {
    let empty = g.full() & !p.occupied();
    let optimal = || {
        let (canon, sym) = g.canonical(p);
        g.untransform(sym, solved[&canon.key()].best)
    };
    let mask = match who {
        Opponent::Random => empty,
        Opponent::Perfect => optimal(),
        Opponent::PerfectFixed => {
            let m = optimal();
            return m.trailing_zeros() as usize;
        }
        Opponent::TriesEachReply if p.o.count_ones() == 0 => {
            let cells: Vec<usize> = (0..g.cells()).filter(|i| empty >> i & 1 == 1).collect();
            return cells[(game % cells.len() as u64) as usize];
        }
        Opponent::TriesEachReply => optimal(),
    };
    let cells: Vec<usize> = (0..g.cells()).filter(|i| mask >> i & 1 == 1).collect();
    cells[rng.below(cells.len() as u64) as usize]
}

/// One game, MENACE as X: +1 win, 0 draw, −1 loss (resigning is a loss).
fn play_one(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    m: &mut Menace,
    who: Opponent,
    game: u64,
    rng: &mut SplitMix64,
) -> i32 {
    let mut p = Position::default();
    let mut used = Vec::new();
    let result = loop {
        if g.has_line(p.x) {
            break 1;
        }
        if g.has_line(p.o) {
            break -1;
        }
        if p.occupied() == g.full() {
            break 0;
        }
        let cell = if p.x_to_move() {
            let empty = g.full() & !p.occupied();
            if empty.count_ones() == 1 {
                empty.trailing_zeros() as usize
            } else {
                match m.choose(g, p, rng, &mut used) {
                    Some(c) => c,
                    None => break -1,
                }
            }
        } else {
            opponent_move(g, solved, p, who, game, rng)
        };
        p = p.play(cell);
    };
    m.reinforce(&used, [-1, 1, 3][(result + 1) as usize]);
    result
}

/// Trains `runs` independent MENACEs (seed = run number) for `games` games
/// each and averages the outcome shares per block of 10 games.
pub fn learning_curve(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    who: Opponent,
    runs: u64,
    games: u64,
    progress: impl Fn(u64) + Sync,
) -> Curve {
    let blocks = games.div_ceil(BLOCK) as usize;
    let salt = who.salt();
    let per_run: Vec<(Vec<[u64; 3]>, usize)> = (0..runs)
        .into_par_iter()
        .map(|run| {
            let mut rng = SplitMix64::new(run | salt);
            let mut m = Menace {
                boxes: HashMap::new(),
                empty_box: EmptyBox::Resign,
            };
            let mut counts = vec![[0u64; 3]; blocks];
            for i in 0..games {
                let r = play_one(g, solved, &mut m, who, i, &mut rng);
                counts[(i / BLOCK) as usize][(1 - r) as usize] += 1;
            }
            progress(1);
            (counts, m.boxes.len())
        })
        .collect();
    let mut out = Curve {
        opponent: who.name().into(),
        runs,
        games,
        boxes_used: per_run.iter().map(|r| r.1 as f64).sum::<f64>() / runs as f64,
        blocks: Vec::new(),
    };
    for b in 0..blocks {
        let n: u64 = per_run.iter().map(|r| r.0[b].iter().sum::<u64>()).sum();
        let share = |k: usize| per_run.iter().map(|r| r.0[b][k]).sum::<u64>() as f64 / n as f64;
        out.blocks.push(Block {
            first_game: b as u64 * BLOCK + 1,
            wins: share(0),
            draws: share(1),
            losses: share(2),
        });
    }
    out
}

#[cfg(any(test, feature = "internals"))]
/// The game after which MENACE's opening box holds no bead, training
/// `games` games against `who` with `seed` (None if it never empties).
/// From then on it resigns every game at its first move.
pub fn opening_box_empties_after(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    who: Opponent,
    games: u64,
    seed: u64,
) -> Option<u64> {
    let mut rng = SplitMix64::new(seed);
    let mut machine = Menace {
        boxes: HashMap::new(),
        empty_box: EmptyBox::Resign,
    };
    let opening = Position::default().key();
    for game in 1..=games {
        play_one(g, solved, &mut machine, who, game - 1, &mut rng);
        if machine
            .boxes
            .get(&opening)
            .is_some_and(|o| o.iter().all(|b| b.1 == 0))
        {
            return Some(game);
        }
    }
    None
}

/// A MENACE (playing X) trained for some games, to play against.
pub struct TrainedMenace {
    machine: Menace,
    /// Games it was trained for, and how they ended: wins, draws, losses.
    pub record: [u64; 3],
}

impl TrainedMenace {
    /// A fresh MENACE trained by `games` games against `who` with `seed`,
    /// exactly as one run of `learning_curve` trains it.
    pub fn train(
        g: &Geometry,
        solved: &HashMap<u64, Solved>,
        who: Opponent,
        games: u64,
        seed: u64,
    ) -> TrainedMenace {
        let mut rng = SplitMix64::new(seed);
        let mut machine = Menace {
            boxes: HashMap::new(),
            empty_box: EmptyBox::Resign,
        };
        let mut record = [0u64; 3];
        for game in 0..games {
            record[(1 - play_one(g, solved, &mut machine, who, game, &mut rng)) as usize] += 1;
        }
        TrainedMenace { machine, record }
    }

    /// Its move as X (drawn from the box's beads, the last cell forced),
    /// or None when the box is empty and it resigns. Playing does not
    /// train it further.
    pub fn choose(&mut self, g: &Geometry, p: Position, rng: &mut SplitMix64) -> Option<usize> {
        let empty = g.full() & !p.occupied();
        if empty.count_ones() == 1 {
            return Some(empty.trailing_zeros() as usize);
        }
        self.machine.choose(g, p, rng, &mut Vec::new())
    }
}

/// What a MENACE's boxes allow at `p` (X to move): the cells it may draw
/// (beads left; an unopened box holds every option), None when the box
/// is empty (it resigns). The last empty cell is forced.
fn allowed(m: &Menace, g: &Geometry, p: Position) -> Option<u32> {
    let empty = g.full() & !p.occupied();
    if empty.count_ones() == 1 {
        return Some(empty);
    }
    let (canon, sym) = g.canonical(p);
    let fresh;
    let options = match m.boxes.get(&canon.key()) {
        Some(o) => o,
        None => {
            fresh = Menace::options(g, canon);
            &fresh
        }
    };
    let cells_of = |options: &[(usize, u32)]| {
        options
            .iter()
            .filter(|o| o.1 > 0)
            .fold(0u32, |acc, o| acc | g.untransform(sym, 1 << o.0))
    };
    let cells = match cells_of(options) {
        // An empty box that refills allows what a fresh one does.
        0 if m.empty_box == EmptyBox::Refill => cells_of(&Menace::options(g, canon)),
        cells => cells,
    };
    (cells != 0).then_some(cells)
}

/// Whether every line MENACE's beads allow keeps the game's value, from
/// the empty board, against an O that plays `o_moves` (the optimal moves
/// only, or every move): no empty box, and no drawn move that gives a
/// drawn position away or a won one up.
fn plays_soundly(m: &Menace, g: &Geometry, solved: &HashMap<u64, Solved>, o_any: bool) -> bool {
    fn value(g: &Geometry, solved: &HashMap<u64, Solved>, p: Position) -> i8 {
        // For the side to move; a finished game is lost by the side to move.
        if g.has_line(p.x) || g.has_line(p.o) {
            return -1;
        }
        if p.occupied() == g.full() {
            return 0;
        }
        solved[&g.canonical(p).0.key()].value
    }
    fn walk(
        m: &Menace,
        g: &Geometry,
        solved: &HashMap<u64, Solved>,
        o_any: bool,
        p: Position,
        seen: &mut std::collections::HashSet<u64>,
    ) -> bool {
        if g.has_line(p.x) || g.has_line(p.o) || p.occupied() == g.full() {
            return true;
        }
        if !seen.insert(g.canonical(p).0.key()) {
            return true;
        }
        let v = value(g, solved, p);
        if p.x_to_move() {
            let Some(cells) = allowed(m, g, p) else {
                return false;
            };
            (0..g.cells()).filter(|c| cells >> c & 1 == 1).all(|c| {
                let q = p.play(c);
                -value(g, solved, q) == v && walk(m, g, solved, o_any, q, seen)
            })
        } else {
            let moves = if o_any {
                g.full() & !p.occupied()
            } else {
                let (canon, sym) = g.canonical(p);
                g.untransform(sym, solved[&canon.key()].best)
            };
            (0..g.cells())
                .filter(|c| moves >> c & 1 == 1)
                .all(|c| walk(m, g, solved, o_any, p.play(c), seen))
        }
    }
    walk(
        m,
        g,
        solved,
        o_any,
        Position::default(),
        &mut Default::default(),
    )
}

/// Whether the opening box holds beads for corner openings only.
fn corner_only(m: &Menace, g: &Geometry) -> bool {
    let corners = [0, g.cols - 1, g.cells() - g.cols, g.cells() - 1]
        .iter()
        .fold(0u32, |a, &c| a | 1 << c);
    allowed(m, g, Position::default()).is_some_and(|cells| cells & !corners == 0)
}

/// Michie's three milestones for one run: after how many games (the
/// text's "after the 17th game") each holds from then to the end of
/// training, None if it does not hold at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunMilestones {
    /// Only corner openings have beads.
    pub corner_only: Option<u64>,
    /// Every line against correct play is drawn (no move its beads allow
    /// loses the draw, no box on the way empty).
    pub draws_vs_perfect: Option<u64>,
    /// Every move its beads allow keeps the game's value against any O:
    /// it draws against correct play and wins whenever O errs.
    pub punishes_unsound: Option<u64>,
}

/// Trains one MENACE (seed `seed`) for `games` games against `who`,
/// checking the milestones after every game.
pub fn run_milestones(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    who: Opponent,
    games: u64,
    seed: u64,
    empty_box: EmptyBox,
) -> RunMilestones {
    let mut rng = SplitMix64::new(seed);
    let mut m = Menace {
        boxes: HashMap::new(),
        empty_box,
    };
    // The last count of games after which each did not hold.
    let mut last_false = [0u64; 3];
    let mut holds = [false; 3];
    for game in 1..=games {
        play_one(g, solved, &mut m, who, game - 1, &mut rng);
        holds = [
            corner_only(&m, g),
            plays_soundly(&m, g, solved, false),
            plays_soundly(&m, g, solved, true),
        ];
        for k in 0..3 {
            if !holds[k] {
                last_false[k] = game;
            }
        }
    }
    let at = |k: usize| holds[k].then_some(last_false[k]);
    RunMilestones {
        corner_only: at(0),
        draws_vs_perfect: at(1),
        punishes_unsound: at(2),
    }
}

/// One milestone over the runs: the median run's game count (runs that
/// never reach it count as later than any), the quartiles, and how many
/// runs reached it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MilestoneSpread {
    /// None when half the runs or more never reach it.
    pub median: Option<u64>,
    /// The run a quarter of the way up (None: never reached).
    pub lower_quartile: Option<u64>,
    /// The run three quarters of the way up.
    pub upper_quartile: Option<u64>,
    /// Runs that reach it.
    pub runs_reached: u64,
}

/// The milestones against one opponent, as the machines table records them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Milestones {
    /// The opponent's name.
    pub opponent: String,
    /// Seeded runs.
    pub runs: u64,
    /// Training games per run.
    pub games_per_run: u64,
    /// None when no run reaches it.
    pub corner_only_from_game: Option<MilestoneSpread>,
    /// Every line against correct play drawn (see `RunMilestones`).
    pub draws_vs_perfect_from_game: Option<MilestoneSpread>,
    /// Every move keeps the value against any O.
    pub punishes_unsound_from_game: Option<MilestoneSpread>,
}

/// The milestones over `runs` seeded runs (seeds as `learning_curve`'s).
pub fn milestones(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    who: Opponent,
    runs: u64,
    games: u64,
    empty_box: EmptyBox,
) -> Milestones {
    let per_run: Vec<RunMilestones> = (0..runs)
        .into_par_iter()
        .map(|run| run_milestones(g, solved, who, games, run | who.salt(), empty_box))
        .collect();
    let spread = |get: fn(&RunMilestones) -> Option<u64>| {
        let mut v: Vec<u64> = per_run.iter().map(|r| get(r).unwrap_or(u64::MAX)).collect();
        v.sort_unstable();
        let reached = v.iter().filter(|&&x| x != u64::MAX).count() as u64;
        let at = |q: f64| {
            let x = v[((v.len() as f64 - 1.0) * q).round() as usize];
            (x != u64::MAX).then_some(x)
        };
        (reached > 0).then(|| MilestoneSpread {
            median: at(0.5),
            lower_quartile: at(0.25),
            upper_quartile: at(0.75),
            runs_reached: reached,
        })
    };
    Milestones {
        opponent: who.name().into(),
        runs,
        games_per_run: games,
        corner_only_from_game: spread(|r| r.corner_only),
        draws_vs_perfect_from_game: spread(|r| r.draws_vs_perfect),
        punishes_unsound_from_game: spread(|r| r.punishes_unsound),
    }
}

#[cfg(any(test, feature = "internals"))]
/// Number of matchboxes MENACE has opened after `games` games, and the
/// options in its first box (for tests: at most the template count; three
/// openings, corner, edge and centre, on 3x3).
pub fn boxes_after(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    who: Opponent,
    seed: u64,
    games: u64,
) -> (usize, usize) {
    let mut rng = SplitMix64::new(seed);
    let mut m = Menace {
        boxes: HashMap::new(),
        empty_box: EmptyBox::Resign,
    };
    for game in 0..games {
        play_one(g, solved, &mut m, who, game, &mut rng);
    }
    let opening = Menace::options(g, Position::default()).len();
    (m.boxes.len(), opening)
}

#[cfg(test)]
mod opening_box {
    use super::*;

    /// Why MENACE loses 67% of its late games against the perfect player:
    /// an empty box resigns, and the opening box (4 beads on each of its 3
    /// distinct cells) empties after a dozen or more losses. A run whose
    /// opening box has emptied loses every later game; a run whose box has
    /// not, against the perfect player, draws (it can no longer lose a
    /// line it has been punished for). Against the random player the box
    /// never empties.
    #[test]
    fn an_emptied_opening_box_is_what_loses_the_late_games() {
        let g = Geometry::new(3, 3, 3).unwrap();
        let solved = super::super::solve::solve(&g);
        let games = 500;
        let (mut emptied_runs, mut kept_runs, mut kept_late_losses) = (0, 0, 0);
        for run in 0..60 {
            let emptied = opening_box_empties_after(&g, &solved, Opponent::Perfect, games, run);
            // The same run again, keeping its last ten results.
            let mut rng = SplitMix64::new(run);
            let mut m = Menace {
                boxes: HashMap::new(),
                empty_box: EmptyBox::Resign,
            };
            let results: Vec<i32> = (0..games)
                .map(|i| play_one(&g, &solved, &mut m, Opponent::Perfect, i, &mut rng))
                .collect();
            let last = &results[results.len() - 10..];
            match emptied {
                Some(at) => {
                    emptied_runs += 1;
                    assert!(at >= 12, "run {run}: 12 beads cannot go in fewer losses");
                    assert!(
                        results[at as usize..].iter().all(|&r| r == -1),
                        "run {run}: a game after the box emptied (game {at}) was not lost"
                    );
                }
                None => {
                    kept_runs += 1;
                    kept_late_losses += last.iter().filter(|&&r| r == -1).count();
                }
            }
        }
        assert!((20..=50).contains(&emptied_runs), "{emptied_runs} of 60");
        // The runs that kept their opening box lose almost nothing late.
        assert!(
            kept_late_losses * 20 <= kept_runs * 10,
            "{kept_late_losses} losses in {kept_runs} runs' last ten games"
        );
        for run in 0..60 {
            assert_eq!(
                opening_box_empties_after(&g, &solved, Opponent::Random, games, run),
                None,
                "run {run}"
            );
        }
    }
}

#[cfg(test)]
mod milestone_tests {
    use super::*;

    fn setup() -> (Geometry, HashMap<u64, Solved>) {
        let g = Geometry::new(3, 3, 3).unwrap();
        let solved = super::super::solve::solve(&g);
        (g, solved)
    }

    #[test]
    fn the_checks_say_yes_to_a_perfect_machine_and_no_to_a_fresh_one() {
        let (g, solved) = setup();
        let fresh = Menace {
            boxes: HashMap::new(),
            empty_box: EmptyBox::Resign,
        };
        assert!(!corner_only(&fresh, &g));
        assert!(!plays_soundly(&fresh, &g, &solved, false));
        assert!(!plays_soundly(&fresh, &g, &solved, true));
        // Every box holding beads on optimal moves only (and a corner
        // opening): both soundness checks hold.
        let mut perfect = Menace {
            boxes: HashMap::new(),
            empty_box: EmptyBox::Resign,
        };
        for (&key, s) in &solved {
            let p = Position::from_key(key);
            if !p.x_to_move() {
                continue;
            }
            let canon = g.canonical(p).0;
            let opts: Vec<(usize, u32)> = Menace::options(&g, canon)
                .into_iter()
                .map(|(cell, _)| (cell, (s.best >> cell & 1) * 5))
                .collect();
            perfect.boxes.insert(canon.key(), opts);
        }
        let opening = perfect.boxes.get_mut(&Position::default().key()).unwrap();
        for o in opening.iter_mut() {
            o.1 = if o.0 == 0 { 5 } else { 0 };
        }
        assert!(corner_only(&perfect, &g));
        assert!(plays_soundly(&perfect, &g, &solved, false));
        assert!(plays_soundly(&perfect, &g, &solved, true));
        // Beads on every reply where X (corner opening) can win after O's
        // unsound edge reply: the check against any O fails, the one
        // against correct play (which never plays that reply) holds.
        let p = Position::default().play(0).play(1);
        let key = g.canonical(p).0.key();
        assert_eq!(solved[&key].value, 1);
        assert!(solved[&key].best.count_ones() < 7);
        let bad = Menace::options(&g, Position::from_key(key))
            .into_iter()
            .map(|(c, _)| (c, 1))
            .collect();
        perfect.boxes.insert(key, bad);
        assert!(!plays_soundly(&perfect, &g, &solved, true));
        assert!(plays_soundly(&perfect, &g, &solved, false));
    }

    /// An emptied box resigns under the literal rule; refilled, it draws
    /// from its first beads again, and the soundness check sees the fresh
    /// box's options, not a resignation.
    #[test]
    fn an_empty_box_resigns_or_is_refilled() {
        let g = Geometry::new(3, 3, 3).unwrap();
        let solved = super::super::solve::solve(&g);
        let start = Position::default();
        for (empty_box, resigns) in [(EmptyBox::Resign, true), (EmptyBox::Refill, false)] {
            let mut m = Menace {
                boxes: HashMap::new(),
                empty_box,
            };
            let (canon, _) = g.canonical(start);
            let mut emptied = Menace::options(&g, canon);
            assert_eq!(emptied.len(), 3, "corner, edge and centre");
            for o in emptied.iter_mut() {
                o.1 = 0;
            }
            m.boxes.insert(canon.key(), emptied);
            let mut rng = SplitMix64::new(1);
            let mut used = Vec::new();
            let drawn = m.choose(&g, start, &mut rng, &mut used);
            assert_eq!(drawn.is_none(), resigns, "{empty_box:?}");
            let allowed_cells = allowed(&m, &g, start);
            assert_eq!(allowed_cells.is_none(), resigns, "{empty_box:?}");
            if !resigns {
                // Refilled with 4 beads an option, and the draw recorded.
                assert!(m.boxes[&canon.key()].iter().all(|o| o.1 == 4));
                assert_eq!(used.len(), 1);
                assert_eq!(allowed_cells.unwrap().count_ones(), 3, "one cell per option");
                assert!(!plays_soundly(&m, &g, &solved, false), "a fresh box allows losing lines");
            }
        }
    }

    #[test]
    fn milestones_are_ordered_and_reached_by_some_runs() {
        let (g, solved) = setup();
        for who in Opponent::ALL {
            for seed in 0..6 {
                let r = run_milestones(&g, &solved, who, 300, seed | who.salt(), EmptyBox::Resign);
                if let Some(p) = r.punishes_unsound {
                    let d = r
                        .draws_vs_perfect
                        .expect("sound against any O is sound against correct play");
                    assert!(d <= p, "{who:?} seed {seed}: {r:?}");
                }
            }
        }
        let m = milestones(&g, &solved, Opponent::Perfect, 20, 300, EmptyBox::Resign);
        eprintln!("{m:?}");
        assert!(m.corner_only_from_game.is_some() || m.draws_vs_perfect_from_game.is_some());
    }
}
