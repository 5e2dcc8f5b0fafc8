//! Klondike timings: greedy games per second (one thread) and solver time
//! per deal (median, 90th and 99th percentile, unknowns, decided share) for
//! draw 1 and draw 3 with unlimited redeals, and "not winnable" verdicts
//! re-proved by the independent loss checker.
//!
//! Usage:
//!   cargo bench --bench klondike [-- DEALS BUDGET]   greedy, then the solver (default 300 100000)
//!   cargo bench --bench klondike -- solver RULES FIRST LAST BUDGET [REPROVE] [THREADS]
//!       [--deals FILE] [--csv FILE] [--relaxed FILE]
//!       the solver alone on deals FIRST..LAST under RULES, every REPROVE-th
//!       loss re-proved by the independent checker (default 20), on THREADS worker threads (default 1);
//!       `--deals` takes the deal numbers from FILE instead (separated by
//!       spaces, commas or lines: the unknowns of an earlier run, say), and
//!       `--csv` writes one line per deal (deal, verdict, nodes, CPU
//!       seconds), so that runs over parts of a range can be merged;
//!       `--relaxed` takes such a file from a draw-1/unlimited run at the
//!       same budget and solves as the batch job does when it builds that
//!       rule set too (`solver::solve_knowing_relaxed`; a deal missing from
//!       the file is an error)
//!
//! The solver-only form is what the issue-18 figures come from. Each deal's
//! time is the CPU time of the thread that solved it (the POSIX per-thread
//! CPU clock; wall time where it cannot be read), so runs side by side, or
//! more threads than cores, do not inflate it.

use nimrod::games::klondike::greedy::{self, Player};
use nimrod::games::klondike::independent::loss_check::{check_deal, Finding};
use nimrod::games::klondike::parse_rules;
use nimrod::games::klondike::solver::{self, RelaxedVerdict, Verdict};
use nimrod::games::klondike::state::Rules;
use nimrod::games::klondike::stats::wilson;
use std::collections::HashMap;
use std::time::Instant;

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = raw.iter().position(|a| a == "solver") {
        let mut rest: Vec<String> = raw[at + 1..].to_vec();
        let mut flag = |name: &str| {
            let i = rest.iter().position(|a| a == name)?;
            let value = rest.get(i + 1).cloned();
            rest.drain(i..(i + 2).min(rest.len()));
            Some(value.unwrap_or_else(|| bad_input(format!("{name} needs a file name"))))
        };
        let (deal_file, csv, relaxed) = (flag("--deals"), flag("--csv"), flag("--relaxed"));
        let rules = parse_rules(rest.first().map_or("1/unlimited", |s| s.as_str()))
            .unwrap_or_else(|e| bad_input(format!("rules: {e:#}")));
        let num = |i: usize, default: u64| {
            rest.get(i).map_or(default, |s| {
                s.parse()
                    .unwrap_or_else(|_| bad_input(format!("{s:?} is not a whole number")))
            })
        };
        let (first, last, budget, every) = (num(1, 0), num(2, 1000), num(3, 1_000_000), num(4, 20));
        let threads = num(5, 1).max(1) as usize;
        let deals: Vec<u64> = match &deal_file {
            Some(path) => std::fs::read_to_string(path)
                .unwrap_or_else(|e| bad_input(format!("{path}: {e}")))
                .split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']')
                .filter(|w| !w.is_empty())
                .map(|w| {
                    w.parse().unwrap_or_else(|_| {
                        bad_input(format!("{path}: {w:?} is not a deal number"))
                    })
                })
                .collect(),
            None => (first..last).collect(),
        };
        let relaxed = relaxed.map(|path| read_verdicts(&path));
        let run = solver_run(
            &rules,
            &deals,
            budget,
            every.max(1),
            threads,
            relaxed.as_ref(),
        );
        if let Some(path) = csv {
            write_csv(&path, &run).unwrap_or_else(|e| bad_input(format!("{path}: {e}")));
        }
        return;
    }
    let args: Vec<u64> = raw.iter().filter_map(|a| a.parse().ok()).collect();
    let deals = args.first().copied().unwrap_or(300);
    let budget = args.get(1).copied().unwrap_or(100_000);
    for text in ["1/unlimited", "3/unlimited", "1/none", "3/3"] {
        let rules = parse_rules(text).expect("valid rules");
        for player in Player::ALL {
            let t = Instant::now();
            let games = 10_000u64;
            let (mut wins, mut longest) = (0, 0);
            for deal in 0..games {
                let game = greedy::play(deal, &rules, &player);
                wins += game.won as u64;
                longest = longest.max(game.moves.len());
            }
            let per_s = games as f64 / t.elapsed().as_secs_f64();
            println!(
                "{:<28} {:<34} {per_s:>9.0} games/s (1 thread), {wins} wins of {games}, longest game {longest} moves",
                rules.label(),
                player.label()
            );
        }
    }
    if deals > 0 {
        for text in ["1/unlimited", "3/unlimited"] {
            let rules = parse_rules(text).expect("valid rules");
            // The first 20 losses re-proved.
            solver_run(&rules, &(0..deals).collect::<Vec<_>>(), budget, 1, 1, None);
        }
    }
}

/// CPU seconds used by the calling thread so far (the POSIX per-thread
/// CPU clock); None where it cannot be read.
#[cfg(unix)]
fn thread_cpu_seconds() -> Option<f64> {
    use nix::time::{clock_gettime, ClockId};
    let t = clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).ok()?;
    Some(t.tv_sec() as f64 + t.tv_nsec() as f64 * 1e-9)
}

#[cfg(not(unix))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// Solves each deal on `threads` worker threads, times it (CPU time of its
/// thread), replays every winning line in the rules engine, and re-proves
/// every `every`-th loss (at most 20 when `every` is 1) with the plain
/// search at ten times the budget (at most 10^7).
fn solver_run(
    rules: &Rules,
    deals: &[u64],
    budget: u64,
    every: u64,
    threads: usize,
    relaxed: Option<&HashMap<u64, RelaxedVerdict>>,
) -> Vec<(u64, RelaxedVerdict, u64, f64)> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let n = deals.len() as u64;
    let next = AtomicUsize::new(0);
    // (deal, verdict, nodes, CPU seconds) per deal, in deal order at the end.
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(&deal) = deals.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (cpu, wall) = (thread_cpu_seconds(), Instant::now());
                    let solved = match relaxed {
                        Some(known) => {
                            let Some(&verdict) = known.get(&deal) else {
                                bad_input(format!("deal {deal} is not in the --relaxed file"))
                            };
                            solver::solve_knowing_relaxed(deal, rules, budget, verdict)
                        }
                        None => solver::solve(deal, rules, budget),
                    };
                    let (verdict, nodes) = (solved.verdict, solved.nodes);
                    let seconds = match (cpu, thread_cpu_seconds()) {
                        (Some(a), Some(b)) => b - a,
                        _ => wall.elapsed().as_secs_f64(),
                    };
                    // As the batch job does: a win counts only if its line
                    // replays in the rules engine (not timed).
                    if let Verdict::Won(line) = &verdict {
                        if let Err(e) = solver::check_win(deal, rules, line) {
                            panic!("deal {deal}: the winning line does not replay: {e}");
                        }
                    }
                    results
                        .lock()
                        .unwrap()
                        .push((deal, verdict, nodes, seconds));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let mut times = Vec::new();
    let (mut won, mut lost, mut unknown_deals) = (0u64, 0u64, Vec::new());
    let mut lost_deals = Vec::new();
    let mut rows = Vec::new();
    for (deal, verdict, nodes, seconds) in results {
        times.push(seconds);
        rows.push((deal, RelaxedVerdict::from(&verdict), nodes, seconds));
        match verdict {
            Verdict::Won(_) => won += 1,
            Verdict::Lost => {
                lost += 1;
                lost_deals.push(deal);
            }
            Verdict::Unknown => unknown_deals.push(deal),
        }
    }
    let sample: Vec<u64> = if every == 1 {
        lost_deals.iter().copied().take(20).collect()
    } else {
        lost_deals.iter().copied().step_by(every as usize).collect()
    };
    // The independent loss checker (its own rules engine, an exhaustive
    // search of exact positions) on the sample, up to 2*10^6 positions a deal.
    let check_budget = 2_000_000;
    let (mut confirmed, mut too_big) = (0, 0);
    for &deal in &sample {
        match check_deal(deal, rules, check_budget) {
            Finding::Lost { .. } => confirmed += 1,
            Finding::Unfinished { .. } => too_big += 1,
            Finding::Won(line) => {
                panic!("deal {deal}: not winnable, yet the independent checker wins it: {line:?}")
            }
        }
    }
    times.sort_by(f64::total_cmp);
    let q = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    let unknown = unknown_deals.len() as u64;
    let decided = won + lost;
    let pct = |(lo, hi): (f64, f64)| format!("[{:.2}, {:.2}] %", 100.0 * lo, 100.0 * hi);
    println!(
        "{}: {n} deals, budget {budget} nodes: {won} winnable, {lost} not, {unknown} unknown",
        rules.label()
    );
    println!(
        "  decided {:.2} % {}; winnable of decided {:.3} % {}; if every unknown were won {:.3} %",
        100.0 * decided as f64 / n as f64,
        pct(wilson(decided, n)),
        100.0 * won as f64 / decided.max(1) as f64,
        pct(wilson(won, decided)),
        100.0 * (won + unknown) as f64 / n as f64
    );
    println!(
        "  CPU s per deal: median {:.5}, p90 {:.3}, p99 {:.3}, max {:.2}, total {:.0}",
        q(0.5),
        q(0.9),
        q(0.99),
        times[times.len() - 1],
        times.iter().sum::<f64>()
    );
    println!(
        "  independent loss checker ({} positions) on {} losses: {confirmed} re-proved, {too_big} unfinished, none won",
        check_budget,
        sample.len()
    );
    println!("  unknown deals: {unknown_deals:?}");
    rows
}

/// Bad arguments or input files: a message naming the problem and exit
/// status 2, not a panic.
fn bad_input(message: String) -> ! {
    eprintln!("klondike bench: {message}");
    std::process::exit(2)
}

/// A verdict's name in a `--csv` file.
const CSV_VERDICTS: [(&str, RelaxedVerdict); 3] = [
    ("won", RelaxedVerdict::Won),
    ("lost", RelaxedVerdict::Lost),
    ("unknown", RelaxedVerdict::Unknown),
];

/// The verdicts of a `--csv` file, by deal.
fn read_verdicts(path: &str) -> HashMap<u64, RelaxedVerdict> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| bad_input(format!("{path}: {e}")));
    text.lines()
        .skip(1)
        .enumerate()
        .map(|(i, line)| {
            let mut fields = line.split(',');
            let (Some(deal), Some(verdict)) = (fields.next(), fields.next()) else {
                bad_input(format!("{path}, line {}: expected deal,verdict,...", i + 2))
            };
            let deal = deal.parse().unwrap_or_else(|_| {
                bad_input(format!("{path}, line {}: {deal:?} is not a deal", i + 2))
            });
            let Some(&(_, verdict)) = CSV_VERDICTS.iter().find(|(name, _)| *name == verdict) else {
                bad_input(format!("{path}, line {}: verdict {verdict:?}", i + 2))
            };
            (deal, verdict)
        })
        .collect()
}

/// One line per deal, written to a temporary file and renamed into place.
fn write_csv(path: &str, rows: &[(u64, RelaxedVerdict, u64, f64)]) -> std::io::Result<()> {
    use std::fmt::Write;
    let mut text = String::from("deal,verdict,nodes,cpu_seconds\n");
    for (deal, verdict, nodes, seconds) in rows {
        let (verdict, _) = CSV_VERDICTS
            .iter()
            .find(|(_, v)| v == verdict)
            .expect("every verdict is named");
        writeln!(text, "{deal},{verdict},{nodes},{seconds:.6}").expect("a String takes any text");
    }
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
