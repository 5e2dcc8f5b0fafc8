//! `nimrod query gops`: the value of any subgame and both players' optimal
//! mixed bids per upcard, re-solved from the stored values of the level below.

use super::exploit::{exploit, Exploit, FixedBidder, MAX_EXPLOIT_CARDS};
use super::level::Level;
use super::pattern::{Pattern, MAX_CARDS};
use super::probe::{
    find_tables, members, stored, stored_win, upcard_game, upcard_win_game, Objective,
};
use super::win::WinLevel;
use super::Gops;
use crate::games::game::Game;
use crate::games::query::{Answer, QueryContext};
use crate::lp::Solution;
use anyhow::{ensure, Result};
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
