//! `nimrod query gops`: the value of any subgame and both players' optimal
//! mixed bids per upcard, re-solved from the stored values of the level below.

use super::exploit::{exploit, Exploit, FixedBidder, MAX_EXPLOIT_CARDS};
use super::level::Level;
use super::pattern::{Pattern, MAX_CARDS};
use super::win::{WinLevel, WinLookup};
use super::{level_id, win_level_id, Gops};
use crate::games::game::Game;
use crate::games::query::{open_table, Answer, QueryContext};
use crate::lp::{MatrixGame, Solution};
use crate::pipeline::job::table_path;
use crate::table::Table;
use anyhow::{bail, ensure, Result};
use serde::Serialize;

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        after_help = "Examples:\n  nimrod query gops --cards 5 --first-move\n  nimrod query gops --cards 9 --first-move --against match\n  nimrod query gops --cards 10 --mine 2,5,9 --theirs 1,7,8 --prizes 3,4,10\n  nimrod query gops --cards 8 --objective win --mine 2,3 --theirs 1,4 --prizes 1,2 --diff 3"
    )
)]
#[cfg_attr(
    feature = "cli",
    command(about = "GOPS: value and optimal mixed bids of a subgame")
)]
/// The arguments of `nimrod query gops` (a library caller fills it in).
#[derive(Clone, Debug, PartialEq)]
pub struct GopsQuery {
    /// N: both hands and the prize deck start as 1..N.
    #[cfg_attr(feature = "cli", arg(long))]
    pub cards: usize,
    /// Player one's first-move strategy: a table bid × upcard.
    #[cfg_attr(feature = "cli", arg(long))]
    pub first_move: bool,
    /// Player one's hand, e.g. 2,5,9.
    #[cfg_attr(feature = "cli", arg(long, value_delimiter = ','))]
    pub mine: Vec<u32>,
    /// Player two's hand.
    #[cfg_attr(feature = "cli", arg(long, value_delimiter = ','))]
    pub theirs: Vec<u32>,
    /// Prizes still in the deck (including the one about to be turned up).
    #[cfg_attr(feature = "cli", arg(long, value_delimiter = ','))]
    pub prizes: Vec<u32>,
    /// Only this upcard (default: every remaining prize).
    #[cfg_attr(feature = "cli", arg(long))]
    pub upcard: Option<u32>,
    /// score: maximise the expected score difference; win: maximise
    /// P(win) − P(loss) of the whole game.
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Objective::Score))]
    pub objective: Objective,
    /// Score difference so far, mine minus theirs (win objective only).
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value_t = 0, allow_negative_numbers = true)
    )]
    pub diff: i32,
    /// Player two is a fixed bidder instead: what the optimal strategy, the
    /// best reply and "one higher" earn against it (N at most 10; score
    /// objective).
    #[cfg_attr(feature = "cli", arg(long, value_enum))]
    pub against: Option<FixedBidder>,
}

/// The command line's defaults, so that a library caller's
/// `GopsQuery { .., ..Default::default() }` asks what the command would.
impl Default for GopsQuery {
    fn default() -> Self {
        GopsQuery {
            cards: 0,
            first_move: false,
            mine: vec![],
            theirs: vec![],
            prizes: vec![],
            upcard: None,
            objective: Objective::Score,
            diff: 0,
            against: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
/// What a GOPS table optimises.
pub enum Objective {
    /// The expected score difference.
    Score,
    /// Winning the whole game: payoff +1, 0 or −1 on the sign of the final score difference.
    Win,
}

/// A set of cards 1..=cards as a bitmask (bit v−1), with a clear error for
/// duplicates and cards out of range.
fn card_set(what: &str, cards: &[u32], n: usize) -> Result<u32> {
    let mut mask = 0u32;
    for &c in cards {
        crate::ensure_input!(
            (1..=n as u32).contains(&c),
            "query gops: --{what} card {c} is outside 1..={n}"
        );
        crate::ensure_input!(
            mask >> (c - 1) & 1 == 0,
            "query gops: --{what} lists card {c} twice"
        );
        mask |= 1 << (c - 1);
    }
    Ok(mask)
}

/// Rounding noise below the printed precision shown as 0, not -0.0000.
fn shown(v: f64) -> f64 {
    if v.abs() < 1e-12 {
        0.0
    } else {
        v
    }
}

pub(super) fn members(mask: u32) -> Vec<u32> {
    (0..32)
        .filter(|b| mask >> b & 1 == 1)
        .map(|b| b + 1)
        .collect()
}

/// The tables that answer a game of `cards` cards at hand size k: those of
/// the smallest built N ≥ cards (every smaller game is a subgame).
pub(super) struct Tables {
    built_for: usize,
    level: Table,
    below: Option<Table>,
}

pub(super) fn find_tables(
    ctx: &QueryContext,
    objective: Objective,
    cards: usize,
    k: usize,
) -> Result<Tables> {
    let level_id = match objective {
        Objective::Score => level_id,
        Objective::Win => win_level_id,
    };
    for built_for in cards..=MAX_CARDS {
        let id = level_id(built_for, k);
        let raw = table_path(&ctx.data_dir, &id);
        let packed = crate::table::job::packed_path(&raw);
        if raw.exists() || packed.exists() {
            let level = open_table(&ctx.data_dir, &id)?;
            let below = if k > 1 {
                Some(open_table(&ctx.data_dir, &level_id(built_for, k - 1))?)
            } else {
                None
            };
            return Ok(Tables {
                built_for,
                level,
                below,
            });
        }
    }
    let key = match objective {
        Objective::Score => "cards",
        Objective::Win => "win_cards",
    };
    Err(crate::games::error::NoTableFor {
        message: format!(
            "no GOPS table covers N = {cards} with {k} cards per hand in {}",
            ctx.data_dir.display()
        ),
        ids: (cards..=MAX_CARDS).map(|n| level_id(n, k)).collect(),
        data_dir: ctx.data_dir.clone(),
        otherwise: format!(
            "no shipped config builds it: write a config FILE with [gops] {key} = {cards} (or more) and run: nimrod build --config FILE --only gops --data {}",
            ctx.data_dir.display()
        ),
    }
    .into())
}

fn stored(table: &Table, level: &Level, p: &Pattern, prizes: u32) -> Result<f64> {
    let Some((slot, negate)) = level.locate(p, prizes as u64) else {
        bail!("pattern {p} is not in {}", table.path().display());
    };
    let v = table.get::<f64>(slot)?;
    Ok(if negate { -v } else { v })
}

fn stored_win(
    table: Option<&Table>,
    level: &WinLevel,
    p: &Pattern,
    prizes: u32,
    d: i32,
) -> Result<f64> {
    match level.locate(p, prizes as u64, d) {
        None => bail!("pattern {p} is not in the win tables"),
        Some(WinLookup::Decided(v)) => Ok(v),
        Some(WinLookup::Stored { slot, negate }) => {
            let Some(t) = table else {
                bail!("no win table holds pattern {p}");
            };
            let v = t.get::<f64>(slot)?;
            Ok(if negate { -v } else { v })
        }
    }
}

/// The bid matrix of a state: entry (i, j) from the child position after
/// player one bids his i-th card and player two her j-th, and the sign of
/// the comparison.
fn bid_matrix(
    mine: u32,
    theirs: u32,
    mut entry: impl FnMut(&Pattern, i32) -> Result<f64>,
) -> Result<MatrixGame> {
    let (my, their) = (members(mine), members(theirs));
    let mut g = MatrixGame::new(my.len(), their.len());
    for (i, &v) in my.iter().enumerate() {
        for (j, &y) in their.iter().enumerate() {
            let child = Pattern::from_hands(mine & !(1 << (v - 1)), theirs & !(1 << (y - 1)));
            g.set(i, j, entry(&child, (v as i32 - y as i32).signum())?);
        }
    }
    Ok(g)
}

/// The win-objective matrix game after `upcard` is turned.
pub(super) fn upcard_win_game(
    t: &Tables,
    mine: u32,
    theirs: u32,
    prizes: u32,
    d: i32,
    upcard: u32,
) -> Result<MatrixGame> {
    let rest = prizes & !(1 << (upcard - 1));
    let below = WinLevel::new(t.built_for, mine.count_ones() as usize - 1);
    bid_matrix(mine, theirs, |child, sign| {
        stored_win(
            t.below.as_ref(),
            &below,
            child,
            rest,
            d + sign * upcard as i32,
        )
    })
}

/// The matrix game after `upcard` is turned, payoffs to player one.
pub(super) fn upcard_game(
    t: &Tables,
    mine: u32,
    theirs: u32,
    prizes: u32,
    upcard: u32,
) -> Result<MatrixGame> {
    let rest = prizes & !(1 << (upcard - 1));
    let below = Level::new(t.built_for, mine.count_ones() as usize - 1);
    bid_matrix(mine, theirs, |child, sign| {
        let after = match &t.below {
            None => 0.0,
            Some(table) => stored(table, &below, child, rest)?,
        };
        Ok(sign as f64 * upcard as f64 + after)
    })
}

/// A mixed strategy: each card with the probability of bidding it.
fn strategy(cards: &[u32], probs: &[f64]) -> Vec<Bid> {
    cards
        .iter()
        .zip(probs)
        .map(|(&card, &probability)| Bid { card, probability })
        .collect()
}

/// The cards played with a visible probability, `card: p` each.
fn strategy_text(bids: &[Bid]) -> String {
    let parts: Vec<String> = bids
        .iter()
        .filter(|b| b.probability > 5e-5)
        .map(|b| format!("{}: {:.4}", b.card, b.probability))
        .collect();
    parts.join("  ")
}

/// One card of a mixed strategy.
#[derive(Serialize)]
struct Bid {
    card: u32,
    probability: f64,
}

/// The subgame after one upcard, solved.
#[derive(Serialize)]
struct UpcardAnswer {
    upcard: u32,
    value: f64,
    player_one: Vec<Bid>,
    player_two: Vec<Bid>,
}

/// `nimrod query gops`.
#[derive(Serialize)]
struct GopsAnswer {
    game: &'static str,
    objective: &'static str,
    /// What `value` measures.
    meaning: String,
    diff: i32,
    cards: usize,
    tables_for: usize,
    first_move: bool,
    mine: Vec<u32>,
    theirs: Vec<u32>,
    prizes: Vec<u32>,
    value: f64,
    upcards: Vec<UpcardAnswer>,
}

impl std::fmt::Display for GopsAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.cards;
        if self.first_move {
            writeln!(
                f,
                "GOPS, N = {n}, first move, objective {} (tables for N = {}): value {:+.4}",
                self.objective,
                self.tables_for,
                shown(self.value)
            )?;
            writeln!(
                f,
                "probability that player one bids each card (rows) for each upcard (columns)"
            )?;
            write!(f, "bid\\up")?;
            for u in &self.upcards {
                write!(f, " {:>7}", u.upcard)?;
            }
            writeln!(f)?;
            for (i, bid) in self.mine.iter().enumerate() {
                write!(f, "{bid:>6}")?;
                for u in &self.upcards {
                    write!(f, " {:>7.4}", u.player_one[i].probability)?;
                }
                writeln!(f)?;
            }
            return Ok(());
        }
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
        writeln!(
            f,
            "GOPS, N = {n} (tables for N = {}), {} cards each",
            self.tables_for,
            self.mine.len()
        )?;
        writeln!(f, "  mine    {}", list(&self.mine))?;
        writeln!(f, "  theirs  {}", list(&self.theirs))?;
        writeln!(f, "  prizes  {}", list(&self.prizes))?;
        writeln!(f, "  value   {:+.6}  ({})", shown(self.value), self.meaning)?;
        for u in &self.upcards {
            writeln!(f, "upcard {}: value {:+.6}", u.upcard, shown(u.value))?;
            writeln!(f, "  player one bids  {}", strategy_text(&u.player_one))?;
            writeln!(f, "  player two bids  {}", strategy_text(&u.player_two))?;
        }
        Ok(())
    }
}

pub fn answer(q: &GopsQuery, ctx: &QueryContext) -> Result<Answer> {
    crate::ensure_input!(
        (1..=MAX_CARDS).contains(&q.cards),
        "query gops: --cards {} is out of range (1..={MAX_CARDS})",
        q.cards
    );
    let n = q.cards;
    let full = ((1u64 << n) - 1) as u32;
    let (mine, theirs, prizes) = if q.first_move {
        crate::ensure_input!(
            q.mine.is_empty() && q.theirs.is_empty() && q.prizes.is_empty(),
            "query gops: --first-move takes no --mine/--theirs/--prizes"
        );
        (full, full, full)
    } else {
        crate::ensure_input!(
            !q.mine.is_empty(),
            "query gops: give --first-move or --mine, --theirs and --prizes"
        );
        (
            card_set("mine", &q.mine, n)?,
            card_set("theirs", &q.theirs, n)?,
            card_set("prizes", &q.prizes, n)?,
        )
    };
    let k = mine.count_ones() as usize;
    crate::ensure_input!(
        theirs.count_ones() as usize == k && prizes.count_ones() as usize == k,
        "query gops: hands and prizes must have the same size (mine {k}, theirs {}, prizes {})",
        theirs.count_ones(),
        prizes.count_ones()
    );
    let upcards: Vec<u32> = match q.upcard {
        Some(u) => {
            crate::ensure_input!(
                (1..=n as u32).contains(&u) && prizes >> (u - 1) & 1 == 1,
                "query gops: --upcard {u} is not among the prizes"
            );
            vec![u]
        }
        None => members(prizes),
    };
    crate::ensure_input!(
        q.objective == Objective::Win || q.diff == 0,
        "query gops: --diff applies to --objective win only"
    );
    let most = (n * (n + 1) / 2) as i64;
    crate::ensure_input!(
        i64::from(q.diff).abs() <= most,
        "query gops: --diff {} is impossible: with {n} cards the score difference is between -{most} and {most}",
        q.diff
    );
    crate::ensure_input!(
        q.against.is_none()
            || (q.objective == Objective::Score && n <= MAX_EXPLOIT_CARDS && q.upcard.is_none()),
        "query gops: --against takes the score objective, no --upcard, and --cards at most {MAX_EXPLOIT_CARDS}"
    );
    let t = find_tables(ctx, q.objective, n, k)?;
    let pattern = Pattern::from_hands(mine, theirs);
    let value = match q.objective {
        Objective::Score => stored(&t.level, &Level::new(t.built_for, k), &pattern, prizes)?,
        Objective::Win => stored_win(
            Some(&t.level),
            &WinLevel::new(t.built_for, k),
            &pattern,
            prizes,
            q.diff,
        )?,
    };
    if let Some(against) = q.against {
        let e = exploit(ctx, n, (mine, theirs, prizes), value, against)?;
        return Ok(Answer::of(&ExploitAnswer {
            cards: n,
            exploit: e,
        }));
    }
    let (my, their) = (members(mine), members(theirs));
    let mut solved: Vec<(u32, Solution)> = Vec::new();
    for &u in &upcards {
        let game = match q.objective {
            Objective::Score => upcard_game(&t, mine, theirs, prizes, u)?,
            Objective::Win => upcard_win_game(&t, mine, theirs, prizes, q.diff, u)?,
        };
        solved.push((u, game.solve()));
    }
    let objective = match q.objective {
        Objective::Score => "score",
        Objective::Win => "win",
    };
    let meaning = match q.objective {
        Objective::Score => {
            "expected score difference, mine minus theirs, before the upcard".to_string()
        }
        Objective::Win => format!(
            "P(I win) - P(they win), score difference so far {:+}",
            q.diff
        ),
    };
    if q.upcard.is_none() {
        let mean = solved.iter().map(|(_, s)| s.value).sum::<f64>() / k as f64;
        ensure!(
            (mean - value).abs() < 1e-7 * (1.0 + value.abs()),
            "the stored value {value} disagrees with its re-solved upcard games ({mean}); run nimrod verify"
        );
    }
    Ok(Answer::of(&GopsAnswer {
        game: Gops.name(),
        objective,
        meaning,
        diff: q.diff,
        cards: n,
        tables_for: t.built_for,
        first_move: q.first_move,
        mine: my.clone(),
        theirs: their.clone(),
        prizes: members(prizes),
        value,
        upcards: solved
            .iter()
            .map(|(u, s)| UpcardAnswer {
                upcard: *u,
                value: s.value,
                player_one: strategy(&my, &s.row[..k]),
                player_two: strategy(&their, &s.col[..k]),
            })
            .collect(),
    }))
}

/// `query gops --against BIDDER`.
#[derive(Serialize)]
struct ExploitAnswer {
    cards: usize,
    #[serde(flatten)]
    exploit: Exploit,
}

impl std::fmt::Display for ExploitAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let e = &self.exploit;
        let name = match e.against {
            FixedBidder::Match => "bids the upcard's value",
            FixedBidder::Lowest => "always bids its lowest card",
            FixedBidder::Highest => "always bids its highest card",
        };
        writeln!(
            f,
            "GOPS, N = {}: player two {name}; expected score difference for player one (exact, over the prize order)",
            self.cards
        )?;
        writeln!(
            f,
            "  value of the game (both optimal)      {:+.4}",
            shown(e.value)
        )?;
        writeln!(
            f,
            "  the stored optimal strategy earns     {:+.4}",
            shown(e.optimal_earns)
        )?;
        writeln!(
            f,
            "  the best reply to this bidder earns   {:+.4}",
            shown(e.best_reply_earns)
        )?;
        writeln!(
            f,
            "  \"one higher\" earns                   {:+.4}",
            shown(e.one_higher_earns)
        )
    }
}
