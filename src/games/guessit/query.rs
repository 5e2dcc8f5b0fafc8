//! `nimrod query guessit`: the tables of a hand-size pair, or one position.

use super::jobs::{GuessItStats, TableParams};
use super::FIELDS;
use crate::games::query::{open_table, table_params, table_stats, Answer, QueryContext};
use crate::table::Table;
use anyhow::{bail, Result};
use serde::Serialize;

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        after_help = "Examples:\n  nimrod query guessit 5 5\n  nimrod query guessit --tables 6"
    )
)]
#[cfg_attr(
    feature = "cli",
    command(about = "Guess It: value and optimal bluffing/calling")
)]
/// The arguments of `nimrod query guessit`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GuessItQuery {
    /// Cards in the hand of the player to move.
    pub mine: Option<usize>,
    /// Cards in the opponent's hand.
    pub theirs: Option<usize>,
    /// Print the bluff and call tables up to this hand size.
    #[cfg_attr(feature = "cli", arg(long))]
    pub tables: Option<usize>,
    /// With --tables: a printed card to compare with, as a TSV of two
    /// square tables of percentages (bluff, then call; rows = opponent's
    /// cards, columns = your cards; '#' lines are comments).
    #[cfg_attr(feature = "cli", arg(long, value_name = "FILE", requires = "tables"))]
    pub compare: Option<std::path::PathBuf>,
}

/// The most bytes a card file may have (a card is a few hundred).
const MAX_CARD_BYTES: u64 = 1 << 16;

/// A printed card: its bluff and call tables, in percent.
fn read_card(path: &std::path::Path) -> Result<[Vec<Vec<f64>>; 2]> {
    use anyhow::Context;
    let len = std::fs::metadata(path)
        .with_context(|| format!("cannot read card {}", path.display()))?
        .len();
    crate::ensure_input!(
        len <= MAX_CARD_BYTES,
        "card {}: {len} bytes is more than a card ({MAX_CARD_BYTES})",
        path.display()
    );
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read card {}", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let row = line
            .split_whitespace()
            .map(|x| {
                x.parse::<f64>()
                    .ok()
                    .filter(|p| (0.0..=100.0).contains(p))
                    .with_context(|| {
                        format!(
                            "card {} line {}: \"{x}\" is not a percentage",
                            path.display(),
                            i + 1
                        )
                    })
            })
            .collect::<Result<Vec<f64>>>()?;
        rows.push((i + 1, row));
    }
    let size = rows.len() / 2;
    crate::ensure_input!(
        size >= 1 && rows.len() == 2 * size,
        "card {}: expected two square tables, found {} rows",
        path.display(),
        rows.len()
    );
    for (line, row) in &rows {
        crate::ensure_input!(
            row.len() == size,
            "card {} line {line}: {} numbers, expected {size}",
            path.display(),
            row.len()
        );
    }
    let mut it = rows.into_iter().map(|(_, r)| r);
    let bluff: Vec<Vec<f64>> = it.by_ref().take(size).collect();
    let call: Vec<Vec<f64>> = it.collect();
    Ok([bluff, call])
}

fn row(t: &Table, m: usize, n: usize) -> Result<[f64; FIELDS]> {
    let max = table_params::<TableParams>(t)?.max_hand;
    crate::ensure_input!(
        m <= max && n <= max,
        "hand sizes ({m}, {n}) are beyond the table (max_hand = {max}); raise [guessit] max_hand and rebuild"
    );
    let base = ((m * (max + 1) + n) * FIELDS) as u64;
    let v = t.read_range::<f64>(base, FIELDS as u64)?;
    Ok([v[0], v[1], v[2], v[3], v[4]])
}

/// The exact value as printed: whole when short; beyond 80 characters (from
/// about 12 cards a side the fractions run to thousands of digits) its digit
/// counts, the whole fraction being in `--json`.
fn shown_exact(exact: &str) -> String {
    if exact.len() <= 80 {
        return exact.to_string();
    }
    let (num, den) = exact.split_once('/').unwrap_or((exact, "1"));
    format!(
        "a fraction of {} / {} digits (whole in --json)",
        num.len(),
        den.len()
    )
}

pub(super) fn answer(q: &GuessItQuery, ctx: &QueryContext) -> Result<Answer> {
    crate::ensure_input!(
        q.tables != Some(0),
        "query guessit: --tables 0 asks for no table (1 ..= the table's max_hand)"
    );
    let t = open_table(&ctx.data_dir, "guessit/values")?;
    if let Some(size) = q.tables {
        // Checked before the header row is laid out for `size` columns.
        row(&t, size, size)?;
        // Rows = opponent's cards, columns = own cards. Bluffing is the
        // mover's (own cards = m); calling is the responder's, whose
        // opponent (the asker) moved.
        let mut bluff = Vec::new();
        let mut call = Vec::new();
        let mut marks = Vec::new();
        for opp in 1..=size {
            let (mut b_row, mut c_row, mut m_row) = (Vec::new(), Vec::new(), Vec::new());
            for own in 1..=size {
                let mover = row(&t, own, opp)?;
                b_row.push(mover[3]);
                c_row.push(row(&t, opp, own)?[4]);
                // A mover's cell where guessing at once is optimal too (the
                // value is exactly 1/(n+1)) is marked: the card shows the
                // ask/bluff mixture, which is equally good.
                let tie = (mover[0] - 1.0 / (opp as f64 + 1.0)).abs() < 1e-12;
                m_row.push(if mover[1] > 0.0 {
                    Mark::Guesses
                } else if tie {
                    Mark::Tie
                } else {
                    Mark::None
                });
            }
            bluff.push(b_row);
            call.push(c_row);
            marks.push(m_row);
        }
        if let Some(path) = &q.compare {
            let [card_bluff, card_call] = read_card(path)?;
            let n = card_bluff.len();
            crate::ensure_input!(
                n <= size,
                "card {} is {n} x {n}: give --tables {n} or more",
                path.display()
            );
            let diff = |ours: &[Vec<f64>], card: &[Vec<f64>]| -> Vec<Vec<f64>> {
                (0..n)
                    .map(|r| (0..n).map(|c| 100.0 * ours[r][c] - card[r][c]).collect())
                    .collect()
            };
            return Ok(Answer::of(&CardComparison {
                game: "guessit",
                card: path.display().to_string(),
                size: n,
                bluff_difference: diff(&bluff, &card_bluff),
                call_difference: diff(&call, &card_call),
                ours: [bluff, call],
                printed: [card_bluff, card_call],
            }));
        }
        return Ok(Answer::of(&TablesAnswer {
            game: "guessit",
            size,
            bluff,
            call,
            marks,
        }));
    }
    let (Some(m), Some(n)) = (q.mine, q.theirs) else {
        crate::bail_input!("query guessit: give two hand sizes (mine theirs) or --tables N");
    };
    let r = row(&t, m, n)?;
    let stats: GuessItStats = table_stats(&t)?;
    let Some(exact) = stats.exact.into_iter().find(|e| e.m == m && e.n == n) else {
        bail!(
            "{}: no exact value for ({m}, {n}) in its statistics; rebuild it",
            t.path().display()
        );
    };
    Ok(Answer::of(&PositionAnswer {
        game: "guessit",
        mine: m,
        theirs: n,
        value: r[0],
        value_exact: exact.value,
        guess: r[1],
        ask: r[2],
        bluff: r[3],
        call: r[4],
        bluff_exact: exact.bluff,
        call_exact: exact.call,
    }))
}

/// `nimrod query guessit --tables N --compare FILE`: our card against a
/// printed one, cell by cell, in percentage points.
#[derive(Serialize)]
struct CardComparison {
    game: &'static str,
    card: String,
    size: usize,
    /// Ours minus the printed card's, `[opp - 1][own - 1]`.
    bluff_difference: Vec<Vec<f64>>,
    call_difference: Vec<Vec<f64>>,
    #[serde(skip)]
    ours: [Vec<Vec<f64>>; 2],
    #[serde(skip)]
    printed: [Vec<Vec<f64>>; 2],
}

impl std::fmt::Display for CardComparison {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Guess It card: exact (printed) and the difference in points, {}",
            self.card
        )?;
        for (k, (title, diff)) in [
            (
                "bluff: % of turns you ask for a card in your own hand",
                &self.bluff_difference,
            ),
            (
                "call: % of answered \"no\" you name as the hidden card",
                &self.call_difference,
            ),
        ]
        .into_iter()
        .enumerate()
        {
            writeln!(
                f,
                "{title}\n  rows = opponent's cards, columns = your cards"
            )?;
            write!(f, "    ")?;
            for own in 1..=self.size {
                write!(f, "{own:>17}")?;
            }
            writeln!(f)?;
            for (r, row) in diff.iter().enumerate() {
                write!(f, "{:>4}", r + 1)?;
                for (c, d) in row.iter().enumerate() {
                    let cell = format!(
                        "{:.1} ({:.0}) {d:+.1}",
                        100.0 * self.ours[k][r][c],
                        self.printed[k][r][c]
                    );
                    write!(f, "{cell:>17}")?;
                }
                writeln!(f)?;
            }
            let worst = diff.iter().flatten().fold(0.0f64, |a, d| a.max(d.abs()));
            writeln!(f, "  largest difference {worst:.1} points\n")?;
        }
        Ok(())
    }
}

/// How a bluff-table cell is marked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    None,
    /// Guessing at once is optimal as well (same value).
    Tie,
    /// The optimal strategy also guesses.
    Guesses,
}

/// `nimrod query guessit --tables N`: bluff and call percentages.
#[derive(Serialize)]
struct TablesAnswer {
    game: &'static str,
    size: usize,
    /// `bluff[opp - 1][own - 1]`: the mover's probability of asking for a
    /// card in its own hand.
    bluff: Vec<Vec<f64>>,
    /// `call[opp - 1][own - 1]`: the probability of naming an answered "no"
    /// as the hidden card, for the responder holding `own` cards.
    call: Vec<Vec<f64>>,
    #[serde(skip)]
    marks: Vec<Vec<Mark>>,
}

impl std::fmt::Display for TablesAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let size = self.size;
        for (title, cells, marked) in [
            (
                "bluff: % of turns you ask for a card in your own hand",
                &self.bluff,
                true,
            ),
            (
                "call: % of answered \"no\" you name as the hidden card",
                &self.call,
                false,
            ),
        ] {
            writeln!(
                f,
                "{title}\n  rows = opponent's cards, columns = your cards"
            )?;
            write!(f, "      ")?;
            for own in 1..=size {
                write!(f, "{own:>6} ")?;
            }
            writeln!(f)?;
            for (r, row) in cells.iter().enumerate() {
                write!(f, "{:>6}", r + 1)?;
                for (c, p) in row.iter().enumerate() {
                    let mark = match (marked, self.marks[r][c]) {
                        (true, Mark::Guesses) => "g",
                        (true, Mark::Tie) => "*",
                        _ => " ",
                    };
                    write!(f, "{:>6.1}{mark}", 100.0 * p)?;
                }
                writeln!(f)?;
            }
            if marked {
                let any = |m: Mark| self.marks.iter().flatten().any(|&x| x == m);
                writeln!(
                    f,
                    "  ask honestly the rest of the time{}{}",
                    if any(Mark::Tie) {
                        "\n  * guessing at once is optimal as well here (same value); the card shows\n    the ask/bluff mixture, which stays optimal when followed as printed"
                    } else {
                        ""
                    },
                    if any(Mark::Guesses) {
                        "\n  g the optimal strategy also guesses: see nimrod query guessit M N"
                    } else {
                        ""
                    }
                )?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// `nimrod query guessit MINE THEIRS`: the mover's optimal mixture.
#[derive(Serialize)]
struct PositionAnswer {
    game: &'static str,
    mine: usize,
    theirs: usize,
    /// The mover's probability of winning, and as an exact fraction.
    value: f64,
    value_exact: String,
    /// The mover's probabilities of guessing, asking honestly, bluffing.
    guess: f64,
    ask: f64,
    bluff: f64,
    /// The opponent's probability of calling an answered "no" genuine.
    call: f64,
    bluff_exact: String,
    call_exact: String,
}

impl std::fmt::Display for PositionAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Guess It, you to move with {} cards against {}",
            self.mine, self.theirs
        )?;
        writeln!(
            f,
            "  P(you win)      {:.6} = {}",
            self.value,
            shown_exact(&self.value_exact)
        )?;
        writeln!(f, "  guess           {:.4}", self.guess)?;
        writeln!(f, "  honest ask      {:.4}", self.ask)?;
        writeln!(f, "  bluff           {:.4}", self.bluff)?;
        writeln!(
            f,
            "  opponent calls an answered \"no\" genuine with probability {:.4}",
            self.call
        )
    }
}

#[cfg(test)]
mod tests {
    use super::shown_exact;

    #[test]
    fn long_fractions_are_shown_by_their_digit_counts() {
        assert_eq!(shown_exact("3/7"), "3/7");
        let long = format!("{}/{}", "1".repeat(90), "2".repeat(91));
        assert_eq!(
            shown_exact(&long),
            "a fraction of 90 / 91 digits (whole in --json)"
        );
    }
}
