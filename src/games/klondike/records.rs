//! What each Klondike table records in its statistics, typed: the jobs
//! write these structs and the report and queries read them back with
//! serde, so a table whose statistics are missing a field or hold the wrong
//! type is an error naming the table, never a silent 0 %.

use crate::table::Table;
use anyhow::Result;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// One greedy player's result over a table's deals.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerResult {
    /// The player's label (kept as "variant" for the stored key).
    pub variant: String,
    /// Deals won.
    pub wins: u64,
    /// Deals played.
    pub deals: u64,
    /// Wins over deals.
    pub win_rate: f64,
    /// 95% Wilson interval of the win rate.
    pub ci95: (f64, f64),
}

/// Statistics of `klondike/greedy-R`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GreedyStats {
    /// The rule set in words.
    pub rules: String,
    /// Player labels in table order (entry = deal × players + player).
    pub players: Vec<String>,
    /// Each player's result, in table order.
    pub variants: Vec<PlayerResult>,
    /// Moves of the longest game any player played.
    pub longest_game: usize,
}

/// Search nodes of the decided deals.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeQuantiles {
    /// Median.
    pub median: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Largest.
    pub max: u64,
}

impl NodeQuantiles {
    /// The quantiles of `nodes` (sorted here; nearest rank), zeros when
    /// there are none.
    pub fn of(mut nodes: Vec<u64>) -> NodeQuantiles {
        nodes.sort_unstable();
        let at = |q: f64| {
            nodes
                .get(((nodes.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0)
        };
        NodeQuantiles {
            median: at(0.5),
            p90: at(0.9),
            p99: at(0.99),
            max: nodes.last().copied().unwrap_or(0),
        }
    }
}

/// How one greedy player did on the deals the solver calls winnable.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GreedyOnWinnable {
    /// The player's label.
    pub variant: String,
    /// Winnable deals the player won.
    pub greedy_wins: u64,
    /// Winnable deals the player lost.
    pub winnable_but_lost: u64,
}

/// Statistics of `klondike/solver-R`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverStats {
    /// The rule set in words.
    pub rules: String,
    /// Deals decided or tried.
    pub deals: u64,
    /// Budget per deal (classes stored, from solver version 14).
    pub budget: u64,
    /// Deals winnable (by a greedy game or the search).
    pub winnable: u64,
    /// Deals proved not winnable.
    pub not_winnable: u64,
    /// Deals over the budget.
    pub unknown: u64,
    /// Deals the search ran on (no greedy player won them).
    pub searched: u64,
    /// Winnable deals the search won.
    pub winnable_by_search: u64,
    /// Winnable deals some greedy player won.
    pub winnable_by_greedy_game: u64,
    /// Winnable share of the decided deals.
    pub winnable_share_of_decided: f64,
    /// 95% Wilson interval of that share.
    pub ci95_of_decided: (f64, f64),
    /// Winnable share if every unknown is lost, and if every one is won.
    pub bounds_if_unknowns_all_lost_or_won: (f64, f64),
    /// Decided share of the deals.
    pub decided_share: f64,
    /// 95% interval of the winnable share if every unknown is lost.
    pub ci95_winnable_if_unknowns_lost: (f64, f64),
    /// The same if every unknown is won.
    pub ci95_winnable_if_unknowns_won: (f64, f64),
    /// Search size (classes, from version 14) of the decided deals the search ran on.
    pub nodes_decided: NodeQuantiles,
    /// Each greedy player on the winnable deals.
    pub greedy: Vec<GreedyOnWinnable>,
}

/// A paired comparison with the first player on the same deals.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VsFirst {
    /// Win rate minus the first player's.
    pub diff: f64,
    /// 95% interval of the difference (paired).
    pub ci95: (f64, f64),
    /// McNemar's exact p-value.
    pub mcnemar_p: f64,
}

/// One row of the report: a player under one rule set.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportRow {
    /// The rule set in words.
    pub rules: String,
    /// The player's label.
    pub variant: String,
    /// Deals played.
    pub deals: u64,
    /// Deals won.
    pub wins: u64,
    /// Wins over deals.
    pub win_rate: f64,
    /// 95% Wilson interval.
    pub ci95: (f64, f64),
    /// Against the first player on the same deals (None for the first).
    pub vs_first: Option<VsFirst>,
    /// Gruber's player as written, against our earlier reading of it (the
    /// seed list) on the same deals; None for the other players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_earlier_reading: Option<VsFirst>,
}

/// The solver's statistics of one rule set, as the report carries them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportSolver {
    /// The rule set in words.
    pub rules: String,
    /// Its solver table's statistics.
    pub solver: SolverStats,
}

/// Statistics of `klondike/report`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportStats {
    /// A row per rule set and player.
    pub greedy: Vec<ReportRow>,
    /// The solver's statistics per rule set.
    pub solver: Vec<ReportSolver>,
    /// The no-peek player per rule set and sample count (none when the
    /// config plays no no-peek games).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nopeek: Vec<NoPeekRow>,
}

/// One no-peek row of the report: the player at one sample count under one
/// rule set.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoPeekRow {
    /// The rule set in words.
    pub rules: String,
    /// "no-peek search, S samples".
    pub player: String,
    /// Samples a decision.
    pub samples: u32,
    /// Deals played.
    pub deals: u64,
    /// Deals won.
    pub wins: u64,
    /// Wins over deals.
    pub win_rate: f64,
    /// 95% Wilson interval.
    pub ci95: (f64, f64),
    /// Against the strong priority list on the same deals.
    pub vs_strong: VsFirst,
    /// Deals among the played ones the solver decided winnable.
    pub winnable: u64,
    /// Of those, the deals the player won.
    pub winnable_won: u64,
    /// Deals the solver's table covers among the played ones.
    pub solver_deals: u64,
    /// Moves a game.
    pub mean_moves: f64,
    /// Decisions a game.
    pub mean_decisions: f64,
    /// Sample solves a game.
    pub mean_solves: f64,
}

/// The statistics of `table` as `T`, or an error naming the table.
pub fn read<T: DeserializeOwned>(table: &Table) -> Result<T> {
    crate::games::query::table_stats(table)
}

/// `value` as the JSON a table stores.
pub fn to_json<T: Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).expect("plain structs serialise")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::writer::write_ranked;
    use crate::table::TableMeta;

    #[test]
    fn statistics_that_do_not_fit_are_an_error_naming_the_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("solver.nmt");
        // A field of the wrong type, as a damaged or foreign table would hold.
        let stats = serde_json::json!({"rules": "draw 1", "deals": "many"});
        let meta = TableMeta::new(
            "klondike",
            "solver-d1",
            serde_json::json!({}),
            "deal",
            "u8",
            stats,
        );
        write_ranked(&path, &[0u8; 4], &meta, 1).unwrap();
        let table = Table::open(&path).unwrap();
        let e = format!("{:#}", read::<SolverStats>(&table).unwrap_err());
        assert!(e.contains("solver.nmt") && e.contains("rebuild"), "{e}");
        assert!(e.contains("deals") || e.contains("invalid type"), "{e}");
    }
}
