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
//! `state`, and rule sets' text form in `rules`), the players (`greedy`), the solver (`solver`, with the
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
mod rules;
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
pub use rules::{parse_rules, rules_id, RulesError, RulesErrorKind};
pub use seeds::SeedStats;
pub use solver::{solve, solve_deal, solve_from, Layout, Outcome};
pub use state::{Move, Redeal, Rules, State};
pub use verdict::Verdict;

/// The greedy tables' version (see docs/klondike.md, "Solver versions").
const VERSION: u32 = 4;

/// The solver's version, in the solver and report jobs' parameters (so a
/// solver that decides differently at the same budget rebuilds them, and
/// leaves the greedy tables alone). Bump it whenever a verdict or the
/// budget's count could change; what each version changed is in
/// docs/klondike.md ("Solver versions").
pub const SOLVER_VERSION: u32 = 18;

/// The most deals a greedy table holds (six bytes each).
pub const MAX_GREEDY_DEALS: u64 = 100_000_000;

/// Players per deal in a greedy table.
pub const PLAYERS: usize = Player::ALL.len();

/// Klondike (the registry's `klondike`).
pub struct Klondike;

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
