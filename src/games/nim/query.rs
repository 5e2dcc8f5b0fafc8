//! `nimrod query nim HEAPS…`: Bouton's rule (every winning move) and
//! Moore's Nim_k, by formula.

use super::{bouton, moore, MAX_HEAPS};
use crate::games::query::{Answer, QueryContext};
use anyhow::{ensure, Result};
use serde::Serialize;

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        after_help = "Examples:\n  nimrod query nim 1 3 5 7 11\n  nimrod query nim 1 3 5 7 11 --k 2\n  nimrod query nim 1 1 2 --misere"
    )
)]
/// The arguments of `nimrod query nim`.
#[cfg_attr(
    feature = "cli",
    command(about = "Bouton's Nim (normal, misère) and Moore's Nim_k: safe or not, winning moves")
)]
pub struct NimQuery {
    /// Heap sizes.
    #[cfg_attr(feature = "cli", arg(required = true))]
    pub heaps: Vec<u64>,
    /// Moore's Nim_k: a move takes from 1 to k heaps.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub k: usize,
    /// Misère play: whoever takes the last token loses.
    #[cfg_attr(feature = "cli", arg(long))]
    pub misere: bool,
}

fn list(h: &[u64]) -> String {
    h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

fn safety(safe: bool) -> &'static str {
    if safe {
        "safe (P): the player to move loses"
    } else {
        "unsafe (N): the player to move wins"
    }
}

/// One winning move of Bouton's Nim: heap (from 1) goes from `from` to `to`.
#[derive(Serialize)]
struct NimMove {
    heap: usize,
    from: u64,
    to: u64,
}

/// `nimrod query nim HEAPS` (k = 1, normal or misère).
#[derive(Serialize)]
struct BoutonAnswer {
    game: &'static str,
    heaps: Vec<u64>,
    k: usize,
    misere: bool,
    safe: bool,
    winning_moves: Vec<NimMove>,
}

/// "1st", "2nd", "3rd", "4th", "11th", "21st": heaps are numbered from 1
/// in the order given, so a heap's number is never read as its size.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl std::fmt::Display for BoutonAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let play = if self.misere { "misère" } else { "normal" };
        writeln!(f, "Nim {} ({play} play)", list(&self.heaps))?;
        writeln!(f, "  {}", safety(self.safe))?;
        for m in &self.winning_moves {
            writeln!(
                f,
                "  take {} from the {} heap ({} -> {})",
                m.from - m.to,
                ordinal(m.heap),
                m.from,
                m.to
            )?;
        }
        Ok(())
    }
}

/// `nimrod query nim HEAPS --k K` (Moore's Nim_k, k > 1).
#[derive(Serialize)]
struct MooreAnswer {
    game: &'static str,
    heaps: Vec<u64>,
    k: usize,
    misere: bool,
    safe: bool,
    /// The heaps after one winning move, if the position is unsafe
    /// (Moore's construction).
    winning_move: Option<Vec<u64>>,
    /// Every winning move (heaps after it), the first `MAX_LISTED`; None
    /// when there are too many heap subsets to examine.
    winning_moves: Option<Vec<Vec<u64>>>,
    /// How many winning moves there are in all (None: not counted).
    winning_move_count: Option<u64>,
}

/// Winning moves of Nim_k listed in the answer.
const MAX_LISTED: usize = 20;

/// "7 -> 6 on the 4th heap, 11 -> 6 on the 5th".
fn describe(before: &[u64], after: &[u64]) -> String {
    before
        .iter()
        .zip(after)
        .enumerate()
        .filter(|(_, (b, a))| b != a)
        .map(|(i, (b, a))| format!("{b} -> {a} on the {} heap", ordinal(i + 1)))
        .collect::<Vec<_>>()
        .join(", ")
}

impl std::fmt::Display for MooreAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let play = if self.misere { "misère" } else { "normal" };
        writeln!(
            f,
            "Moore's Nim_{} {} ({play} play)",
            self.k,
            list(&self.heaps)
        )?;
        writeln!(f, "  {}", safety(self.safe))?;
        match (&self.winning_moves, self.winning_move_count) {
            (Some(moves), Some(count)) if count > 0 => {
                writeln!(f, "  winning moves: {count}")?;
                for m in moves {
                    writeln!(f, "    {}", describe(&self.heaps, m))?;
                }
                if count > moves.len() as u64 {
                    writeln!(
                        f,
                        "    … {} more (--json lists the first {MAX_LISTED})",
                        count - moves.len() as u64
                    )?;
                }
            }
            (None, _) => {
                if let Some(new) = &self.winning_move {
                    writeln!(f, "  winning move: {}", describe(&self.heaps, new))?;
                    writeln!(f, "  (too many heap subsets to list every winning move)")?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The answer to `query nim`.
pub(super) fn answer(q: &NimQuery, _ctx: &QueryContext) -> Result<Answer> {
    ensure!(
        q.heaps.len() <= MAX_HEAPS,
        "query nim: at most {MAX_HEAPS} heaps"
    );
    ensure!(q.k >= 1, "query nim: --k must be at least 1");
    let heaps = q.heaps.clone();
    // Taking from k heaps or more, when there are fewer, is taking from
    // all of them: Moore's rule is the same for every k at least the
    // heap count, and k + 1 then cannot overflow.
    let k = q.k.min(heaps.len().max(1));
    if q.k == 1 {
        let safe = bouton::is_p(&heaps, q.misere);
        let winning_moves = bouton::winning_moves(&heaps, q.misere)
            .into_iter()
            .map(|(i, to)| NimMove {
                heap: i + 1,
                from: heaps[i],
                to,
            })
            .collect();
        Ok(Answer::of(&BoutonAnswer {
            game: "nim",
            heaps,
            k: 1,
            misere: q.misere,
            safe,
            winning_moves,
        }))
    } else {
        let safe = if q.misere {
            moore::is_p_misere(&heaps, k)
        } else {
            moore::is_p(&heaps, k)
        };
        let listed = moore::winning_moves(&heaps, k, q.misere, MAX_LISTED);
        // Moore's one-move construction is for normal play; in misère play
        // the first listed move stands in when listing was possible.
        let winning_move = if q.misere {
            listed.as_ref().and_then(|(l, _)| l.first().cloned())
        } else {
            moore::winning_move(&heaps, k)
        };
        Ok(Answer::of(&MooreAnswer {
            game: "nim",
            safe,
            winning_move,
            winning_move_count: listed
                .as_ref()
                .map(|(_, c)| u64::try_from(*c).unwrap_or(u64::MAX)),
            winning_moves: listed.map(|(l, _)| l),
            heaps,
            k: q.k,
            misere: q.misere,
        }))
    }
}
