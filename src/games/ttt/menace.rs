//! MENACE (Michie 1961): one matchbox per template where X must choose a
//! move, beads for each distinct move (moves equivalent under the template's
//! own symmetries are one option, as in Michie's boxes). Initial beads 4, 3,
//! 2, 1 per option at X's moves 1, 3, 5, 7; after a game every bead drawn is
//! reinforced by +3 (win), +1 (draw) or −1 (loss). An empty box resigns.

use super::board::{Geometry, Position};
use super::solve::Solved;
use crate::rng::SplitMix64;
use anyhow::Result;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Plays O perfectly, choosing uniformly among its optimal moves.
    Perfect,
    /// Plays O uniformly at random.
    Random,
}

impl Opponent {
    pub fn name(&self) -> &'static str {
        match self {
            Opponent::Perfect => "perfect",
            Opponent::Random => "random",
        }
    }
}

/// Outcome shares of one block of 10 games, averaged over runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Block {
    pub first_game: u64,
    pub wins: f64,
    pub draws: f64,
    pub losses: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Curve {
    pub opponent: String,
    pub runs: u64,
    pub games: u64,
    pub boxes_used: f64,
    pub blocks: Vec<Block>,
}

/// Shares of won, drawn and lost games.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Outcomes {
    pub wins: f64,
    pub draws: f64,
    pub losses: f64,
}

/// A learning curve as the machines table records it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CurveSummary {
    pub opponent: String,
    pub runs: u64,
    pub games_per_run: u64,
    pub first_10_games: Outcomes,
    pub last_10_games: Outcomes,
    pub mean_boxes_used: f64,
}

impl Curve {
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

const BLOCK: u64 = 10;

struct Menace {
    /// Template key → (option cell in template orientation, beads).
    boxes: HashMap<u64, Vec<(usize, u32)>>,
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
        let total: u32 = options.iter().map(|o| o.1).sum();
        if total == 0 {
            return None;
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
    rng: &mut SplitMix64,
) -> usize {
    let mask = match who {
        Opponent::Random => g.full() & !p.occupied(),
        Opponent::Perfect => {
            let (canon, sym) = g.canonical(p);
            g.untransform(sym, solved[&canon.key()].best)
        }
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
            opponent_move(g, solved, p, who, rng)
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
    let salt = match who {
        Opponent::Perfect => 0,
        Opponent::Random => 1 << 32,
    };
    let per_run: Vec<(Vec<[u64; 3]>, usize)> = (0..runs)
        .into_par_iter()
        .map(|run| {
            let mut rng = SplitMix64::new(run | salt);
            let mut m = Menace {
                boxes: HashMap::new(),
            };
            let mut counts = vec![[0u64; 3]; blocks];
            for i in 0..games {
                let r = play_one(g, solved, &mut m, who, &mut rng);
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
    };
    let opening = Position::default().key();
    for game in 1..=games {
        play_one(g, solved, &mut machine, who, &mut rng);
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
        };
        let mut record = [0u64; 3];
        for _ in 0..games {
            record[(1 - play_one(g, solved, &mut machine, who, &mut rng)) as usize] += 1;
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

pub fn curves_csv(curves: &[Curve]) -> String {
    let mut s = String::from("opponent,first_game,wins,draws,losses\n");
    for c in curves {
        for b in &c.blocks {
            s.push_str(&format!(
                "{},{},{:.6},{:.6},{:.6}\n",
                c.opponent, b.first_game, b.wins, b.draws, b.losses
            ));
        }
    }
    s
}

/// The learning curves as an SVG line chart (share per block of 10 games).
pub fn curves_svg(curves: &[Curve]) -> Result<String> {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let games = curves.iter().map(|c| c.games).max().unwrap_or(10);
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "MENACE (X) learning curves, share per block of 10 games",
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0u64..games, 0f64..1f64)?;
        chart
            .configure_mesh()
            .x_desc("games played")
            .y_desc("share of games")
            .draw()?;
        let series: [(&str, usize, RGBColor); 4] = [
            ("perfect", 1, BLUE),
            ("perfect", 2, RED),
            ("random", 0, GREEN),
            ("random", 1, MAGENTA),
        ];
        for (opp, outcome, color) in series {
            let Some(c) = curves.iter().find(|c| c.opponent == opp) else {
                continue;
            };
            let label = format!("vs {opp}: {}", ["wins", "draws", "losses"][outcome]);
            chart
                .draw_series(LineSeries::new(
                    c.blocks.iter().map(|b| {
                        (
                            b.first_game + BLOCK / 2,
                            [b.wins, b.draws, b.losses][outcome],
                        )
                    }),
                    color,
                ))?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color));
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

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
    };
    for _ in 0..games {
        play_one(g, solved, &mut m, who, &mut rng);
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
            };
            let results: Vec<i32> = (0..games)
                .map(|_| play_one(&g, &solved, &mut m, Opponent::Perfect, &mut rng))
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
