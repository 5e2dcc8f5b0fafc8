//! Game-tree search that knows no game: the rules come through `Position`.
//!
//! - `classic`: plain minimax and alpha-beta with nothing else, for the
//!   textbook node-count experiments;
//! - `engine`: negamax alpha-beta with principal-variation (null-window)
//!   search, iterative deepening, a fixed-size transposition table, killer
//!   and history move ordering, optional null-move pruning, aspiration
//!   windows and quiescence, under a node budget, with counters per
//!   technique. Deterministic: one thread, and the budget is in nodes.
//!
//! Scores are from the side to move's point of view. A won game scores
//! `WIN - plies` (a quicker win is better), so a score beyond `WIN_BOUND`
//! is a proven result with its distance, whatever the evaluation says.

oracle_mod!(classic);
internal_mod!(engine);
internal_mod!(tt);

pub use engine::{Engine, Options, SearchResult, Stats};

/// A score in centi-units of the game's evaluation, or a proven result.
pub type Score = i32;
/// The score of a win now; a win in p plies scores `WIN - p`.
pub const WIN: Score = 1_000_000;
/// Scores at or beyond this magnitude are proven wins or losses.
pub const WIN_BOUND: Score = WIN - 10_000;
/// Larger than any score.
pub const INFINITY: Score = WIN + 1;

/// How a finished game ended, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The side to move has lost (the opponent completed a line, mated…).
    Lost,
    /// Drawn (stalemate, a full board, a repetition…).
    Drawn,
}

/// A game position as search sees it. `make` and `unmake` change the
/// position in place (no allocation per node).
pub trait Position {
    /// A move; small and copied.
    type Move: Copy + Eq + std::fmt::Debug;
    /// Every legal move, appended to `out` (cleared by the caller).
    fn moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a move.
    fn make(&mut self, m: Self::Move);
    /// Takes back the move just played.
    fn unmake(&mut self, m: Self::Move);
    /// A key identifying the position and the side to move; equal keys
    /// must mean equal positions (transposition-table entries are trusted
    /// on a full-key match).
    fn key(&self) -> u64;
    /// Some result when the game is over.
    fn ended(&self) -> Option<Ended>;
    /// Static evaluation for the side to move, well inside ±WIN_BOUND.
    fn evaluate(&self) -> Score;
    /// A small index of a move (for history and killer tables), below
    /// `move_slots()`.
    fn move_slot(&self, m: Self::Move) -> usize;
    /// The bound of `move_slot`.
    fn move_slots(&self) -> usize;
    /// An exact score from outside the search (an endgame table), from the
    /// side to move's view, when the position is covered.
    fn probe(&self) -> Option<Score> {
        None
    }
    /// Whether passing is a sound pruning test here (false where zugzwang
    /// is common, e.g. pawn endings, or where the game has no pass).
    fn null_move_allowed(&self) -> bool {
        false
    }
    /// Passes (for null-move pruning).
    fn make_null(&mut self) {}
    /// Takes back the pass.
    fn unmake_null(&mut self) {}
    /// Moves searched beyond the horizon by quiescence (captures); none by
    /// default, so quiescence is the static evaluation.
    fn noisy_moves(&self, _out: &mut Vec<Self::Move>) {}
    /// A cheap guess of a move's worth for ordering (higher first), used
    /// after the table's move and the killers, before history.
    fn order_hint(&self, _m: Self::Move) -> Score {
        0
    }
}

/// Proven score of a finished game at `ply` plies from the root.
pub fn ended_score(e: Ended, ply: u32) -> Score {
    match e {
        Ended::Lost => -(WIN - ply as Score),
        Ended::Drawn => 0,
    }
}

/// `describe`, for a proven result whose distance is only an upper bound:
/// "1 ply", "5 plies".
pub fn plies(n: impl std::fmt::Display + PartialEq<i32>) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// "win, mate in at most 9 plies", "loss, mated in at most 8 plies".
pub fn describe_bound(score: Score) -> String {
    if score >= WIN_BOUND {
        format!("win, mate in at most {}", plies(WIN - score))
    } else if score <= -WIN_BOUND {
        format!("loss, mated in at most {}", plies(WIN + score))
    } else {
        describe(score)
    }
}

/// "win in 5 plies", "loss in 4 plies", "draw", or the evaluation.
pub fn describe(score: Score) -> String {
    if score >= WIN_BOUND {
        format!("win in {}", plies(WIN - score))
    } else if score <= -WIN_BOUND {
        format!("loss in {}", plies(WIN + score))
    } else if score == 0 {
        "0 (draw, or level)".into()
    } else {
        format!("{score:+}")
    }
}
