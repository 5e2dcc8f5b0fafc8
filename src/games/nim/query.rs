//! `nimrod query nim HEAPS…`: Bouton's rule (every winning move) and
//! Moore's Nim_k, by formula.

use super::{bouton, moore, MAX_HEAPS};
use crate::games::query::{Answer, QueryContext};
use anyhow::Result;
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
#[derive(Clone, Debug, PartialEq)]
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

/// The command line's defaults, so that a library caller's
/// `NimQuery { .., ..Default::default() }` asks what the command would.
impl Default for NimQuery {
    fn default() -> Self {
        NimQuery {
            heaps: vec![],
            k: 1,
            misere: false,
        }
    }
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

/// What one heap does in a winning move: heap (from 1) goes from `from` to `to`.
#[derive(Serialize)]
struct Take {
    heap: usize,
    from: u64,
    to: u64,
}

/// One winning move: the heaps after it, and what it takes from which.
#[derive(Serialize)]
struct NimMove {
    after: Vec<u64>,
    takes: Vec<Take>,
}

impl NimMove {
    fn new(before: &[u64], after: Vec<u64>) -> NimMove {
        let takes = before
            .iter()
            .zip(&after)
            .enumerate()
            .filter(|(_, (b, a))| b != a)
            .map(|(i, (&from, &to))| Take {
                heap: i + 1,
                from,
                to,
            })
            .collect();
        NimMove { after, takes }
    }
}

/// `nimrod query nim HEAPS [--k K]`: one JSON shape whatever k is (it
/// used to change with `--k`); the text keeps Bouton's wording for k = 1.
#[derive(Serialize)]
struct NimAnswer {
    game: &'static str,
    heaps: Vec<u64>,
    k: usize,
    misere: bool,
    safe: bool,
    /// The heaps after one winning move, if the position is unsafe (for
    /// Nim_k in normal play, Moore's construction).
    winning_move: Option<Vec<u64>>,
    /// Every winning move, the first `MAX_LISTED` for Nim_k; None when
    /// there are too many heap subsets to examine.
    winning_moves: Option<Vec<NimMove>>,
    /// How many winning moves there are in all (None: not counted).
    winning_move_count: Option<u64>,
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

/// Winning moves of Nim_k listed in the answer.
const MAX_LISTED: usize = 20;

/// "7 -> 6 on the 4th heap, 11 -> 6 on the 5th".
fn describe(m: &NimMove) -> String {
    m.takes
        .iter()
        .map(|t| format!("{} -> {} on the {} heap", t.from, t.to, ordinal(t.heap)))
        .collect::<Vec<_>>()
        .join(", ")
}

impl NimAnswer {
    fn fmt_bouton(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let play = if self.misere { "misère" } else { "normal" };
        writeln!(f, "Nim {} ({play} play)", list(&self.heaps))?;
        writeln!(f, "  {}", safety(self.safe))?;
        for m in self.winning_moves.iter().flatten() {
            for t in &m.takes {
                writeln!(
                    f,
                    "  take {} from the {} heap ({} -> {})",
                    t.from - t.to,
                    ordinal(t.heap),
                    t.from,
                    t.to
                )?;
            }
        }
        Ok(())
    }

    fn fmt_moore(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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
                    writeln!(f, "    {}", describe(m))?;
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
                    let m = NimMove::new(&self.heaps, new.clone());
                    writeln!(f, "  winning move: {}", describe(&m))?;
                    writeln!(f, "  (too many heap subsets to list every winning move)")?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

impl std::fmt::Display for NimAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.k == 1 {
            self.fmt_bouton(f)
        } else {
            self.fmt_moore(f)
        }
    }
}

/// The answer to `query nim`.
pub(super) fn answer(q: &NimQuery, _ctx: &QueryContext) -> Result<Answer> {
    crate::ensure_input!(
        q.heaps.len() <= MAX_HEAPS,
        "query nim: at most {MAX_HEAPS} heaps"
    );
    crate::ensure_input!(q.k >= 1, "query nim: --k must be at least 1");
    let heaps = q.heaps.clone();
    // Taking from k heaps or more, when there are fewer, is taking from
    // all of them: Moore's rule is the same for every k at least the
    // heap count, and k + 1 then cannot overflow.
    let k = q.k.min(heaps.len().max(1));
    if q.k == 1 {
        let safe = bouton::is_p(&heaps, q.misere);
        let winning_moves: Vec<NimMove> = bouton::winning_moves(&heaps, q.misere)
            .into_iter()
            .map(|(i, to)| {
                let mut after = heaps.clone();
                after[i] = to;
                NimMove::new(&heaps, after)
            })
            .collect();
        Ok(Answer::of(&NimAnswer {
            game: "nim",
            k: 1,
            misere: q.misere,
            safe,
            winning_move: winning_moves.first().map(|m| m.after.clone()),
            winning_move_count: Some(winning_moves.len() as u64),
            winning_moves: Some(winning_moves),
            heaps,
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
        Ok(Answer::of(&NimAnswer {
            game: "nim",
            safe,
            winning_move,
            winning_move_count: listed
                .as_ref()
                .map(|(_, c)| u64::try_from(*c).unwrap_or(u64::MAX)),
            winning_moves: listed.map(|(l, _)| {
                l.into_iter()
                    .map(|after| NimMove::new(&heaps, after))
                    .collect()
            }),
            heaps,
            k: q.k,
            misere: q.misere,
        }))
    }
}
