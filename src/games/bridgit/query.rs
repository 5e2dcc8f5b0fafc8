//! `nimrod query bridgit`: White's reply under a stored strategy, the game
//! so far replayed with win detection, and the pairing drawn as a board.

use super::board::{Board, Player};
use super::pairing::Pairing;
use super::strategy::{Position, Strategy};
use super::trees::TreeStrategy;
use super::{pairing_id, trees_id, MAX_SIZE};
use crate::games::query::{open_table, Answer, QueryContext};
use crate::table::Table;
use anyhow::{bail, ensure, Context, Result};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
/// Which of the two stored strategies answers.
pub enum Kind {
    /// Gross's kind: answer each Black site with its partner.
    Pairing,
    /// Lehman's: two edge-disjoint spanning trees.
    Trees,
    /// The games chapter's numbered machine: its remainder rule on a
    /// reconstructed numbering; no table needed.
    Text,
}

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        after_help = "Examples:\n  nimrod query bridgit --size 5 --table\n  nimrod query bridgit --size 5 --moves \"h1,1 h1,2\""
    )
)]
#[cfg_attr(
    feature = "cli",
    command(about = "Bridg-it: White's reply under a stored winning strategy")
)]
/// The arguments of `nimrod query bridgit` (a library caller fills it in).
#[derive(Clone, Debug, PartialEq)]
pub struct BridgitQuery {
    /// Board size n: the grid of the built table of that size (see the
    /// config's `[bridgit]` sizes).
    #[cfg_attr(feature = "cli", arg(long))]
    pub size: usize,
    /// Moves so far, White first, alternating: site numbers or labels such
    /// as h3,2 (separated by spaces).
    #[cfg_attr(feature = "cli", arg(long, default_value = ""))]
    pub moves: String,
    /// Which strategy answers: a stored one, or the games chapter's numbered machine (text, no table).
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value = "pairing"))]
    pub strategy: Kind,
    /// Draw the pairing on the board and list its pairs.
    #[cfg_attr(feature = "cli", arg(long, conflicts_with_all = ["moves", "strategy"]))]
    pub table: bool,
}

/// The command line's defaults, so that a library caller's
/// `BridgitQuery { .., ..Default::default() }` asks what the command would.
impl Default for BridgitQuery {
    fn default() -> Self {
        BridgitQuery {
            size: 0,
            moves: String::new(),
            strategy: Kind::Pairing,
            table: false,
        }
    }
}

pub fn load_pairing(t: &Table, b: &Board) -> Result<Pairing> {
    check_len(t, b)?;
    let mut opening = None;
    let mut partner = vec![None; b.sites()];
    for (i, slot) in partner.iter_mut().enumerate() {
        match t.get::<u16>(i as u64)? as usize {
            0 => opening = Some(i),
            x if x <= b.sites() => *slot = Some(x - 1),
            x => bail!("{}: site {} has partner {x}", t.path().display(), i + 1),
        }
    }
    let p = Pairing {
        opening: opening.context("no opening stored")?,
        partner,
    };
    ensure!(
        p.is_well_formed(b),
        "{}: the stored pairs are not a pairing of the sites",
        t.path().display()
    );
    Ok(p)
}

pub fn load_trees(t: &Table, b: &Board) -> Result<TreeStrategy> {
    check_len(t, b)?;
    let mut first = None;
    let mut tree = vec![None; b.sites()];
    for (i, slot) in tree.iter_mut().enumerate() {
        match t.get::<u8>(i as u64)? {
            2 => first = Some(i),
            x @ (0 | 1) => *slot = Some(x),
            x => bail!("{}: site {} has entry {x}", t.path().display(), i + 1),
        }
    }
    Ok(TreeStrategy {
        first: first.context("no opening stored")?,
        tree,
    })
}

fn check_len(t: &Table, b: &Board) -> Result<()> {
    ensure!(
        t.len() as usize == b.sites(),
        "{} has {} sites, expected {}",
        t.path().display(),
        t.len(),
        b.sites()
    );
    Ok(())
}

pub fn answer(q: &BridgitQuery, ctx: &QueryContext) -> Result<Answer> {
    crate::ensure_input!(
        (2..=MAX_SIZE).contains(&q.size),
        "query bridgit: --size {} is out of range (2..={MAX_SIZE})",
        q.size
    );
    let b = Board::new(q.size);
    match q.strategy {
        Kind::Pairing => {
            let p = load_pairing(&open_table(&ctx.data_dir, &pairing_id(q.size))?, &b)?;
            if q.table {
                Ok(draw(&b, &p))
            } else {
                replay(q, &b, &p, "pairing")
            }
        }
        Kind::Trees => {
            let s = load_trees(&open_table(&ctx.data_dir, &trees_id(q.size))?, &b)?;
            replay(q, &b, &s, "trees")
        }
        Kind::Text => replay(q, &b, &super::text::machine(&b), "text"),
    }
}

/// Replays the game so far against the strategy and gives White's reply.
fn replay(q: &BridgitQuery, b: &Board, s: &impl Strategy, kind: &str) -> Result<Answer> {
    let moves: Vec<usize> = q
        .moves
        .split_whitespace()
        .map(|m| {
            b.parse_site(m).with_context(|| {
                format!(
                    "query bridgit: no site {m:?} on a size-{} board (1..={} or h/v labels)",
                    q.size,
                    b.sites()
                )
            })
        })
        .collect::<Result<_>>()?;
    let opening = s.opening();
    let mut p = Position::start(b, s);
    if !moves.is_empty() && moves[0] != opening {
        crate::bail_input!(
            "query bridgit: the {kind} strategy opens with {}, not {}",
            b.labels[opening],
            b.labels[moves[0]]
        );
    }
    let mut reply = None;
    let after_opening: Vec<usize> = moves.iter().skip(1).copied().collect();
    for (k, pair) in after_opening.chunks(2).enumerate() {
        let black = pair[0];
        crate::ensure_input!(
            p.winner(b).is_none(),
            "query bridgit: the game was already over before move {}",
            2 * k + 2
        );
        crate::ensure_input!(
            p.is_free(black),
            "query bridgit: site {} is already taken (move {})",
            b.labels[black],
            2 * k + 2
        );
        let r = p.black_moves(b, s, black);
        if let Some(&white) = pair.get(1) {
            crate::ensure_input!(
                Some(white) == r,
                "query bridgit: White's move {} is {}, but the strategy answered {}",
                2 * k + 3,
                b.labels[white],
                r.map(|x| b.labels[x].as_str()).unwrap_or("nothing")
            );
        } else {
            reply = r;
        }
    }
    Ok(Answer::of(&ReplyAnswer {
        game: "bridgit",
        size: q.size,
        strategy: kind.to_string(),
        reply: reply.map(|r| b.labels[r].clone()),
        opening: b.labels[opening].clone(),
        winner: p.winner(b).map(|w| match w {
            Player::White => "white",
            Player::Black => "black",
        }),
        opening_site: opening + 1,
        reply_site: reply.map(|r| r + 1),
        announce_opening: moves.is_empty(),
    }))
}

/// `nimrod query bridgit --size N [--moves …]`: White's reply.
#[derive(Serialize)]
struct ReplyAnswer {
    game: &'static str,
    size: usize,
    strategy: String,
    /// White's reply to the last Black move (none before Black moves, or
    /// once the game is over).
    reply: Option<String>,
    opening: String,
    winner: Option<&'static str>,
    #[serde(skip)]
    opening_site: usize,
    #[serde(skip)]
    reply_site: Option<usize>,
    #[serde(skip)]
    announce_opening: bool,
}

impl std::fmt::Display for ReplyAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.announce_opening {
            writeln!(
                f,
                "White opens with {} (site {})",
                self.opening, self.opening_site
            )?;
        }
        if let (Some(r), Some(site)) = (&self.reply, self.reply_site) {
            writeln!(f, "White replies {r} (site {site})")?;
        }
        writeln!(
            f,
            "{}",
            match self.winner {
                Some("white") => "White has connected: White wins",
                Some(_) => "Black has connected: Black wins",
                None => "no winner yet",
            }
        )
    }
}

/// The board with White's dots (o), the opening (= or ‖), free sites (·)
/// and at each inner Black dot a stroke joining the two sites it pairs.
fn draw(b: &Board, p: &Pairing) -> Answer {
    let n = b.n;
    let mut grid = super::board::dot_grid(n);
    for s in 0..b.sites() {
        let (x, y) = b.coords[s];
        grid[y][x] = if s == p.opening {
            if x % 2 == 1 {
                '='
            } else {
                '‖'
            }
        } else {
            '·'
        };
    }
    let mut pairs = Vec::new();
    for (s, t) in p.pairs() {
        let ((sx, sy), (tx, ty)) = (b.coords[s], b.coords[t]);
        let dot = b
            .shared_black_dot(s, t)
            .expect("a loaded pairing is well formed");
        let (dx, dy) = b.black_dot_coords(dot);
        let dir = |x: usize, y: usize| match (x.cmp(&dx), y.cmp(&dy)) {
            (_, std::cmp::Ordering::Less) => 'U',
            (_, std::cmp::Ordering::Greater) => 'D',
            (std::cmp::Ordering::Less, _) => 'L',
            _ => 'R',
        };
        let mut d = [dir(sx, sy), dir(tx, ty)];
        d.sort_unstable();
        grid[dy][dx] = match d {
            ['D', 'U'] => '│',
            ['L', 'R'] => '─',
            ['D', 'R'] => '┌',
            ['D', 'L'] => '┐',
            ['R', 'U'] => '└',
            _ => '┘',
        };
        pairs.push([b.labels[s].clone(), b.labels[t].clone()]);
    }
    Answer::of(&PairingAnswer {
        game: "bridgit",
        size: n,
        opening: b.labels[p.opening].clone(),
        pairs,
        grid: grid
            .iter()
            .map(|row| {
                let line: String = row.iter().flat_map(|&c| [c, ' ']).collect();
                line.trim_end().to_string()
            })
            .collect(),
    })
}

/// `nimrod query bridgit --size N --table`: the stored pairing drawn.
#[derive(Serialize)]
struct PairingAnswer {
    game: &'static str,
    size: usize,
    opening: String,
    /// Each pair of sites: when Black takes one, White takes the other.
    pairs: Vec<[String; 2]>,
    /// The drawing, one string per row.
    #[serde(skip)]
    grid: Vec<String>,
}

impl std::fmt::Display for PairingAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.size;
        write!(
            f,
            "Bridg-it n = {n}: White (o) joins left to right, Black (•) top to bottom.\n\
         White opens with {} (=); then each stroke at a Black dot joins two sites\n\
         (·) that form a pair: when Black takes one, White takes the other.\n\n",
            self.opening
        )?;
        for line in &self.grid {
            writeln!(f, "{line}")?;
        }
        write!(f, "\npairs:")?;
        for (k, [s, t]) in self.pairs.iter().enumerate() {
            if k % 6 == 0 {
                write!(f, "\n ")?;
            }
            write!(f, " {s}-{t}")?;
        }
        writeln!(f)
    }
}
