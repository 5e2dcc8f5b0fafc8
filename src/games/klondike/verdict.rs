//! What a solve of a Klondike deal says, and the checks every verdict
//! passes: a win is a line the rules engine replays to the end
//! (`check_win`); `exhaustive` is the plain reference search for tests.

use super::state::{Move, Redeal, Rules, State};

/// The verdict on a deal with every card visible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Winnable; the moves of one winning game.
    Won(Vec<Move>),
    /// Every line searched and none wins.
    Lost,
    /// The budget ran out first.
    Unknown,
}

/// Verdict byte of a solver table: proved not winnable.
pub const LOST: u8 = 0;
/// Verdict byte: winnable (a greedy game or a line replayed by both rules
/// engines).
pub const WON: u8 = 1;
/// Verdict byte: undecided within the budget.
pub const UNKNOWN: u8 = 2;

impl Verdict {
    /// The verdict's byte in a solver table.
    pub fn code(&self) -> u8 {
        match self {
            Verdict::Won(_) => WON,
            Verdict::Lost => LOST,
            Verdict::Unknown => UNKNOWN,
        }
    }

    /// The verdict in words, as reports print it.
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Won(_) => "winnable",
            Verdict::Lost => "not winnable",
            Verdict::Unknown => "unknown (over budget)",
        }
    }
}

/// What the table of the relaxed rule set (draw one, unlimited redeals,
/// worrying back: `RELAXED`) says of a deal. Every other rule set's games
/// are games there too, so "lost" there is lost under any rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelaxedVerdict {
    /// Winnable there.
    Won,
    /// Lost there, so lost under every rule set.
    Lost,
    /// Over the budget there.
    Unknown,
}

impl RelaxedVerdict {
    /// The verdict a solver table's byte stands for (None: no verdict byte).
    pub fn from_code(code: u8) -> Option<RelaxedVerdict> {
        match code {
            WON => Some(RelaxedVerdict::Won),
            LOST => Some(RelaxedVerdict::Lost),
            UNKNOWN => Some(RelaxedVerdict::Unknown),
            _ => None,
        }
    }
}

impl From<&Verdict> for RelaxedVerdict {
    /// A solve of the relaxed rule set, as its table records it.
    fn from(v: &Verdict) -> RelaxedVerdict {
        match v {
            Verdict::Won(_) => RelaxedVerdict::Won,
            Verdict::Lost => RelaxedVerdict::Lost,
            Verdict::Unknown => RelaxedVerdict::Unknown,
        }
    }
}

/// The certificate of a "winnable" verdict: `line` replayed from the deal
/// by the rules engine, every move legal where it is played, ends with
/// every card home. The batch job checks it before it stores the verdict.
pub fn check_win(deal: u64, rules: &Rules, line: &[Move]) -> Result<(), WinCheckError> {
    let s = State::replay(deal, rules, line).map_err(WinCheckError::Illegal)?;
    if s.is_won() {
        Ok(())
    } else {
        Err(WinCheckError::NotWon {
            deal,
            home: s.home(),
        })
    }
}

/// Why a winning line is not a certificate (see [`check_win`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WinCheckError {
    /// A move of the line is not legal where it is played.
    #[error("{0} in the winning line")]
    Illegal(super::state::ReplayError),
    /// The line is legal but does not end with every card home.
    #[error("deal {deal}: the winning line ends with {home} cards home")]
    NotWon {
        /// The deal.
        deal: u64,
        /// Cards home at the end of the line.
        home: u32,
    },
}

/// The rules every other rule set relaxes to: draw one, unlimited
/// redeals, worrying back (every other rule set's games are games here).
pub const RELAXED: Rules = Rules {
    draw: 1,
    redeal: Redeal::Unlimited,
    worry_back: true,
};

#[cfg(any(test, feature = "internals"))]
/// The reference for every cut above: a depth-first search over exact
/// positions (the pass count dropped when passes are unlimited), every
/// legal move, nothing pruned or merged. Some(won), or None past `budget`
/// positions. For tests on positions small enough to search this way.
pub fn exhaustive(root: State, rules: &Rules, budget: usize) -> Option<bool> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![root];
    let mut moves = Vec::new();
    while let Some(mut s) = stack.pop() {
        if s.is_won() {
            return Some(true);
        }
        if rules.redeal == Redeal::Unlimited {
            s.passes = 1;
        }
        if !seen.insert(s) {
            continue;
        }
        if seen.len() > budget {
            return None;
        }
        s.legal_moves(rules, &mut moves);
        // Pushed in reverse, so the moves are tried in the order listed
        // (foundation moves first, worrying back last): the same positions
        // in the end, but a win is met before the budget.
        for &m in moves.iter().rev() {
            let mut c = s;
            c.apply(m, rules);
            stack.push(c);
        }
    }
    Some(false)
}
