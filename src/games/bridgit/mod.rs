//! Gale's Bridg-it: White's (first player's) winning strategies for boards
//! of any size, each proved. Two tables per size:
//! - `bridgit/nNN`: the response table of a pairing strategy (Gross's kind,
//!   `pairing`), proved by the structural check for every size and by a
//!   search over every choice Black can make for small boards;
//! - `bridgit/trees-nNN`: Lehman's general strategy from two edge-disjoint
//!   spanning trees (`trees`), proved by the spanning check for every size
//!   and by a search over every Black reply sequence for small boards.
//!
//! Both are also played against seeded random Black players.
//!
//! The folder: `jobs` (parameters, plan, building and proving both
//! tables), `query`, `play` (`nimrod play bridgit`), `board`, `pairing`, `trees`, `strategy` (the `Strategy`
//! trait), `proof` (the searches over Black's choices), `text` (the games
//! chapter's numbered machine and its remainder rule).

internal_mod!(board);
mod jobs;
internal_mod!(pairing);
mod play;
internal_mod!(proof);
internal_mod!(strategy);
mod query;
internal_mod!(text);
internal_mod!(trees);

use super::error::GameError;
use super::game::{Game, PlayCommand, Plays, Queries};
use super::query::{Answer, QueryContext};
use crate::table::Table;
use anyhow::{ensure, Result};
use board::Board;
use jobs::SizeTable;
pub use jobs::{pairing_id, trees_id, BridgitParams};
pub use play::BridgitPlay;
pub use query::{BridgitQuery, Kind as StrategyKind};

const SOLVER_VERSION: u32 = 2;
/// The search over pair choices doubles per pair: n = 6 has 30 pairs.
const MAX_PAIR_SEARCH: usize = 6;
const MAX_SIZE: usize = 30;
const PAIRING_TABLE: &str = "pairing strategy";

/// Gale's Bridg-it (the registry's `bridgit`).
pub struct Bridgit;

impl Game for Bridgit {
    fn name(&self) -> &'static str {
        "bridgit"
    }

    fn planner(&self) -> Option<&dyn crate::pipeline::Planner> {
        Some(self)
    }

    fn summary(&self) -> &'static str {
        "Gale's Bridg-it: the first player's winning strategies for any board size, proved"
    }

    /// Re-proves the stored strategy: the pairing's structural check, or
    /// the two trees' spanning check.
    fn verify(&self, table: &Table) -> Result<(), GameError> {
        let check = || -> Result<()> {
            let meta = table.meta();
            let n = super::query::table_params::<SizeTable>(table)?.n;
            ensure!(
                (2..=MAX_SIZE).contains(&n),
                "{}: bridgit size n = {n} is out of range (2 ..= {MAX_SIZE})",
                table.path().display()
            );
            let b = Board::new(n);
            if meta.table == PAIRING_TABLE {
                let p = query::load_pairing(table, &b)?;
                ensure!(
                    p.structural_check(&b).blocked,
                    "bridgit n = {n}: Black crosses through the stored pairing"
                );
            } else {
                let s = query::load_trees(table, &b)?;
                ensure!(
                    s.check(&b),
                    "bridgit n = {n}: the stored trees are not two spanning trees"
                );
            }
            Ok(())
        };
        check().map_err(GameError::from)
    }
}

impl Queries for Bridgit {
    type Query = query::BridgitQuery;

    fn query(&self, q: &query::BridgitQuery, ctx: &QueryContext) -> Result<Answer, GameError> {
        query::answer(q, ctx).map_err(GameError::from)
    }

    fn player(&self) -> Option<&dyn PlayCommand> {
        Some(self)
    }
}

impl Plays for Bridgit {
    type Play = BridgitPlay;

    fn play(
        &self,
        p: &BridgitPlay,
        _ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<(), GameError> {
        play::play(p, input, output).map_err(GameError::from)
    }
}

#[cfg(test)]
mod tests {
    use super::board::Board;
    use super::pairing::Pairing;
    use super::proof::random_games;
    use super::trees::TreeStrategy;

    #[test]
    fn both_strategies_win_random_games_on_many_sizes() {
        for n in 2..=9 {
            let b = Board::new(n);
            let s = TreeStrategy::find(&b).expect("a split exists");
            assert!(s.check(&b), "n = {n}");
            assert_eq!(random_games(&b, &s, 200, n as u64), 200, "n = {n}");
            let p = Pairing::staircase(&b);
            assert_eq!(random_games(&b, &p, 200, n as u64), 200, "n = {n}");
        }
    }
}
