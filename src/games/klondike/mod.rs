//! Klondike solitaire: the rules, reproducible deals, the classic greedy
//! player and its batch statistics, and a solver that decides whether a
//! deal could be won with every card visible.
//!
//! Jobs per rule set R: `klondike/greedy-R` (cards home per deal and greedy
//! variant, 52 = won), `klondike/solver-R` (verdict per deal, compared with
//! the greedy games of the same deals); `klondike/report` gathers them into
//! the win-rate table with intervals, paired variant comparisons, a CSV and
//! an SVG chart.
//!
//! The folder: `jobs` (parameters, plan, the greedy and solver tables),
//! `query` (query and play), `verify`, the rules (`cards`, `pile`,
//! `state`), the players (`greedy`), the solver (`solver`, with the
//! relaxed game's proofs of loss in `relaxed` and the verdicts and their
//! checks in `verdict`), the second opinion (`independent`),
//! `report`, `records`.

internal_mod!(cards);
internal_mod!(greedy);
internal_mod!(nopeek);
internal_mod!(nopeek_games);
mod parts;
internal_mod!(independent);
mod jobs;
internal_mod!(pile);
internal_mod!(query);
internal_mod!(records);
internal_mod!(relaxed);
internal_mod!(report);
internal_mod!(seeds);
internal_mod!(solver);
internal_mod!(state);
use crate::stats;
internal_mod!(verdict);
mod verify;

use super::error::GameError;
use super::game::{Game, PlayCommand, Plays, Queries};
use super::query::{Answer, QueryContext};
use anyhow::Result;
pub use cards::{shuffled, solvitaire_deck, DealId};
pub use greedy::Player;
pub use jobs::{greedy_outcomes, KlondikeParams};
pub use query::{KlondikePlay, KlondikeQuery};
pub use seeds::SeedStats;
pub use solver::{solve, solve_deal, solve_from, Layout, Outcome};
pub use state::{Move, Redeal, Rules, State};
pub use verdict::Verdict;

/// 3: the greedy table holds six players per deal (the seed's list and the
/// strong list joined the four classic variants). 4: eight, with Gruber's
/// `next_move()` as written in two readings of its deck.
const VERSION: u32 = 4;

/// The solver's version, in the solver and report jobs' parameters (so a
/// solver that decides differently at the same budget rebuilds them, and
/// leaves the greedy tables alone). 4: the relaxed-game proof of loss.
/// 5: two unsound cuts of the normal form removed (a king sent home from
/// an empty base, which these rules cannot worry back; a pending step
/// that must be used by the very next step, where a step can need two),
/// and talon cards sent home under draw one when no line needs the card
/// under them back. 6: a second preparing step only after a worry-back,
/// and only one that can start preparing the card the pair is for.
/// 7: a second round past 10^6 nodes, with three win-finding searches
/// (budgets up to 10^6 decide every deal as version 6 did). 8: the second
/// round resumes the first round's depth-first searches instead of
/// starting them afresh (the same verdicts up to 10^6). 9: other rule
/// sets read the verdicts of draw one with unlimited redeals when the
/// config builds it, instead of searching that relaxation themselves.
/// 10: the relaxed game reaches a talon card only when the talon can bring
/// it to the waste's top (drawing three, or with no redeal left).
/// 11: in the relaxed game a card whose twin (same rank and colour) covers
/// it leaves for a holder only once both holders have been tops, unless
/// the twin went home (`relaxed::TwinsAbove`). 12: at the deal, the
/// relaxed game also counts empty columns: each king placed in one holds
/// it until it goes home (`relaxed::may_win_counting_kings`).
/// 13: drawing three, a dominated waste card is no longer sent home
/// without branching (taking it out of the talon shifts every later group
/// of three; 42 draw-3 deals of 0-9,999 called lost were wins), and with
/// worrying back a king may come back from its foundation into an empty
/// column (Solvitaire's rule). 14: the quotient solver (`solver`):
/// classes of arrangements, the budget counts classes stored; winning
/// lines also replayed by the independent rules engine. 15: a base leaves
/// its column's floor only when no column is empty and a king could then
/// go into it (`solver`, rule 6): the same verdicts, 5% fewer classes;
/// drawing three, a scout pass under unproved cuts looks for a quick win
/// before the proved search (`solver`, "The scout pass"). 16: a card goes
/// home at once, and is never taken back, when it is safe (`solver`, the
/// safe-card lemma: the cards two ranks lower of the other colour and
/// three lower of its own home; was one rank later): the same verdicts,
/// a quarter fewer classes drawing one. 17: drawing one with unlimited
/// redeals, a talon card (not a king) is put down only for the step after
/// it, which must need it there (`solver`, rule 7): the same verdicts on
/// deals 0-1,999, a fifth of the classes drawing one. 18: the talon's
/// last card, when safe, goes home at once if the split is at the end,
/// and otherwise no card is reached by turning the waste over (`solver`,
/// rule 8): the same verdicts on deals 0-199 drawing three, 5% fewer
/// classes on the wins, 12% on the losses. Class keys are exact for any
/// position, not only those a deal leads to (`Position::key`).
pub const SOLVER_VERSION: u32 = 18;

/// The most deals a greedy table holds (six bytes each).
pub const MAX_GREEDY_DEALS: u64 = 100_000_000;

/// Players per deal in a greedy table.
pub const PLAYERS: usize = Player::ALL.len();

/// Klondike (the registry's `klondike`).
pub struct Klondike;

/// Parses a rule set such as `3/unlimited`, `1/none` or `3/2/noworry`.
pub fn parse_rules(s: &str) -> Result<Rules, RulesError> {
    let err = |kind| RulesError {
        rules: s.to_string(),
        kind,
    };
    let mut parts = s.split('/');
    let (Some(d), Some(r)) = (parts.next(), parts.next()) else {
        return Err(err(RulesErrorKind::Form));
    };
    let worry_back = match parts.next() {
        None => true,
        Some("noworry") => false,
        Some(other) => return Err(err(RulesErrorKind::Third(other.to_string()))),
    };
    if parts.next().is_some() {
        return Err(err(RulesErrorKind::Form));
    }
    let draw: u8 = match d {
        "1" => 1,
        "3" => 3,
        _ => return Err(err(RulesErrorKind::Draw)),
    };
    let redeal = match r {
        "none" => Redeal::None,
        "unlimited" => Redeal::Unlimited,
        n => match n.parse::<u32>() {
            Ok(p) if p >= 1 => Redeal::Passes(p),
            _ => return Err(err(RulesErrorKind::Redeal)),
        },
    };
    Ok(Rules {
        draw,
        redeal,
        worry_back,
    })
}

/// A rule set that does not parse, with what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rule set \"{rules}\": {kind}")]
pub struct RulesError {
    /// The rule set as given.
    pub rules: String,
    /// What is wrong with it.
    pub kind: RulesErrorKind,
}

/// What is wrong with a rule set (see [`RulesError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesErrorKind {
    #[error("expected DRAW/REDEAL[/noworry], like 3/unlimited")]
    /// Not DRAW/REDEAL[/noworry].
    Form,
    #[error("the third part may only be noworry (no worrying back), not \"{0}\"")]
    /// A third part other than noworry.
    Third(String),
    #[error("draw must be 1 or 3")]
    /// A draw other than 1 or 3.
    Draw,
    #[error("redeal must be none, unlimited or a number of passes >= 1")]
    /// A redeal other than none, unlimited or a count ≥ 1.
    Redeal,
}

/// "d3-unlimited", "d1-none", "d3-passes3", "d3-unlimited-noworry".
pub fn rules_id(r: &Rules) -> String {
    let redeal = match r.redeal {
        Redeal::None => "none".to_string(),
        Redeal::Unlimited => "unlimited".to_string(),
        Redeal::Passes(n) => format!("passes{n}"),
    };
    let worry = if r.worry_back { "" } else { "-noworry" };
    format!("d{}-{redeal}{worry}", r.draw)
}

impl Game for Klondike {
    fn name(&self) -> &'static str {
        "klondike"
    }

    fn planner(&self) -> Option<&dyn crate::pipeline::Planner> {
        Some(self)
    }

    fn summary(&self) -> &'static str {
        "Klondike solitaire: the greedy player's win rates and which deals were winnable"
    }

    fn verify(&self, table: &crate::table::Table) -> Result<(), GameError> {
        verify::verify(table).map_err(GameError::from)
    }
}

impl Queries for Klondike {
    type Query = query::KlondikeQuery;

    fn query(&self, q: &query::KlondikeQuery, ctx: &QueryContext) -> Result<Answer, GameError> {
        query::answer(q, ctx).map_err(GameError::from)
    }

    fn player(&self) -> Option<&dyn PlayCommand> {
        Some(self)
    }
}

impl Plays for Klondike {
    type Play = query::KlondikePlay;

    fn play(
        &self,
        p: &query::KlondikePlay,
        ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<(), GameError> {
        let _ = ctx;
        query::play(p, input, output).map_err(GameError::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_sets_parse_and_name_themselves() {
        let r = parse_rules("3/unlimited/noworry").unwrap();
        assert_eq!(
            (r.draw, r.redeal, r.worry_back),
            (3, Redeal::Unlimited, false)
        );
        assert_eq!(rules_id(&r), "d3-unlimited-noworry");
        assert!(r.label().ends_with("no worrying back"));
        let r = parse_rules("1/2").unwrap();
        assert_eq!((r.redeal, r.worry_back), (Redeal::Passes(2), true));
        assert_eq!(rules_id(&r), "d1-passes2");
        for (bad, says) in [
            ("3/unlimited/worry", "may only be noworry"),
            ("3/unlimited/noworry/x", "expected DRAW/REDEAL"),
            ("3", "expected DRAW/REDEAL"),
            ("2/none", "draw must be 1 or 3"),
            ("1/0", "redeal must be"),
        ] {
            let e = parse_rules(bad).unwrap_err().to_string();
            assert!(e.contains(says) && e.contains(bad), "{bad}: {e}");
        }
    }
}
