//! `nimrod query grundy N --lecture`: the lecture's table of heaps 1..N,
//! recomputed from the tables: the outcome for the player to move in
//! normal and misère play, a winning split for each, the heaps won in both
//! (the lecture's "?" heaps), and the lecture's two slips re-derived by
//! search (`MisereSolver`, the solver that also builds the misère table, so
//! not a second opinion on it) and the values.

use super::misere::{self, MisereSolver};
use crate::games::query::{open_table, Answer, QueryContext};
use anyhow::{ensure, Result};
use serde::Serialize;

/// The largest heap the lecture's table is recomputed to.
pub const MAX_LECTURE_HEAP: u64 = 100;

/// What the lecture printed where it slipped (as the text has it).
const LECTURE_SAYS_MISERE_20_LOST: u64 = 20;
const LECTURE_BEST_MOVE_13: (u64, u64, u64) = (13, 11, 2);

#[derive(Serialize)]
struct Row {
    heap: u64,
    /// "W": the player to move wins; "L": loses.
    normal: &'static str,
    normal_split: Option<[u64; 2]>,
    misere: &'static str,
    misere_split: Option<[u64; 2]>,
    /// Won by the player to move in both games: the lecture's "?".
    both: bool,
}

#[derive(Serialize)]
struct Slip {
    heap: u64,
    lecture: String,
    truth: String,
}

#[derive(Serialize)]
struct LectureAnswer {
    game: &'static str,
    heaps: u64,
    rows: Vec<Row>,
    slips: Vec<Slip>,
}

fn wl(win: bool) -> &'static str {
    if win {
        "W"
    } else {
        "L"
    }
}

impl std::fmt::Display for LectureAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Grundy's game, heaps 1-{}: the lecture's table (W/L for the player to move)",
            self.heaps
        )?;
        writeln!(f, "  heap  normal  move      misère  move")?;
        let split = |s: &Option<[u64; 2]>| match s {
            Some([a, b]) => format!("{b}+{a}"),
            None => "-".to_string(),
        };
        for r in &self.rows {
            let line = format!(
                "  {:>4}  {:<6}  {:<8}  {:<6}  {:<8}{}",
                r.heap,
                r.normal,
                split(&r.normal_split),
                r.misere,
                split(&r.misere_split),
                if r.both { "  ?" } else { "" }
            );
            writeln!(f, "{}", line.trim_end())?;
        }
        writeln!(
            f,
            "  ? won in both normal and misère play (a player who cannot move loses in\n    normal play and wins in misère play)"
        )?;
        for s in &self.slips {
            writeln!(
                f,
                "  slip at heap {}: the lecture {}; {}",
                s.heap, s.lecture, s.truth
            )?;
        }
        Ok(())
    }
}

pub(super) fn answer(last: u64, ctx: &QueryContext) -> Result<Answer> {
    ensure!(
        (1..=MAX_LECTURE_HEAP).contains(&last),
        "query grundy --lecture: heaps 1 to {MAX_LECTURE_HEAP} (given {last})"
    );
    let values = open_table(&ctx.data_dir, "grundy/values")?;
    let misere_table = open_table(&ctx.data_dir, "grundy/misere")?;
    ensure!(
        last < values.len() && last < misere_table.len(),
        "query grundy --lecture {last}: the tables hold heaps to {} (values) and {} (misère); raise the bounds and rebuild",
        values.len() - 1,
        misere_table.len() - 1
    );
    let g = super::coding::GrundyValues::new(&values)?.read(0, last + 1)?;
    let mut rows = Vec::new();
    for heap in 1..=last {
        let normal_win = g[heap as usize] != 0;
        let normal_split = (1..heap.div_ceil(2))
            .find(|&a| g[a as usize] == g[(heap - a) as usize])
            .map(|a| [a, heap - a]);
        let (misere_win, split) = misere::decode(misere_table.get::<u32>(heap)?);
        rows.push(Row {
            heap,
            normal: wl(normal_win),
            normal_split,
            misere: wl(misere_win),
            misere_split: split.map(|a| [a, heap - a]),
            both: normal_win && misere_win,
        });
    }
    // The slips, checked by search rather than read from the tables.
    let mut solver = MisereSolver::new();
    let mut slips = Vec::new();
    let heap = LECTURE_SAYS_MISERE_20_LOST;
    if heap <= last {
        let (win, split) = solver.single_heap(heap as u8);
        slips.push(Slip {
            heap,
            lecture: "gives misère 20 as L".into(),
            truth: match (win, split) {
                (true, Some(a)) => format!(
                    "it is W: 20 -> {} + {a} leaves a misère loss",
                    heap - a as u64
                ),
                (true, None) => "it is W (no move)".into(),
                (false, _) => "it is L indeed".into(),
            },
        });
    }
    let (heap, a, b) = LECTURE_BEST_MOVE_13;
    if heap <= last {
        // After 13 -> 11 + 2, the opponent moves in {11, 2}: the 2 cannot
        // be split, so it is the heap of 11 alone.
        let opponent_wins_normal = g[a as usize] != g[b as usize];
        let opponent_wins_misere = solver.wins(&[a as u8]);
        slips.push(Slip {
            heap,
            lecture: format!("gives the best move {a},{b}"),
            truth: match (opponent_wins_normal, opponent_wins_misere) {
                (true, true) => {
                    format!("{heap} -> {a} + {b} leaves the opponent a win in both games")
                }
                (true, false) => format!("{heap} -> {a} + {b} wins in misère play only"),
                (false, true) => format!("{heap} -> {a} + {b} wins in normal play only"),
                (false, false) => format!("{heap} -> {a} + {b} wins in both games"),
            },
        });
    }
    Ok(Answer::of(&LectureAnswer {
        game: "grundy",
        heaps: last,
        rows,
        slips,
    }))
}
