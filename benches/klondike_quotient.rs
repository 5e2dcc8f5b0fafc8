//! The quotient solver (`klondike::solver`) over a range of deals: per
//! deal the verdict, classes stored and CPU seconds, then the totals
//! (won / lost / unknown, mean, median, 99th percentile and largest CPU
//! per deal, the process's peak memory), every winning line replayed in
//! the independent rules engine and every `REPROVE`-th loss re-proved by
//! the independent exhaustive search.
//!
//! Usage:
//!   cargo bench --bench klondike_quotient -- RULES FIRST LAST BUDGET
//!       [--numbering ours|solvitaire] [--csv FILE] [--reprove EVERY] [--layouts]
//!
//! `--layouts` prints each deal's cards instead of solving (one line a
//! deal: the columns bottom first, then the talon in dealing order, card
//! numbers suit·13 + rank − 1), for feeding the same deals to another
//! solver (`benches/klondike_reference.sh`).
//!
//! RULES as in the config ("1/unlimited", "3/unlimited", "1/none", ...);
//! deals FIRST..LAST (LAST excluded) in our numbering or Solvitaire's
//! seeds; BUDGET classes per deal before "unknown". One thread: each
//! deal's time is the CPU time of that thread.

use nimrod::games::klondike::cards::{shuffled, solvitaire_deck, MAX_SOLVITAIRE_SEED};
use nimrod::games::klondike::independent::loss_check::{check_from, Finding};
use nimrod::games::klondike::independent::rules::Table;
use nimrod::games::klondike::parse_rules;
use nimrod::games::klondike::solver::{solve, Layout};
use nimrod::games::klondike::verdict::Verdict;
use std::io::Write;

/// Positions the independent search may store for a re-proof (its keys
/// are the whole position, about 100 bytes: 3·10^6 is some 400 MB).
const REPROVE_BUDGET: u64 = 3_000_000;

fn bad_input(msg: String) -> ! {
    eprintln!("klondike_quotient: {msg}");
    std::process::exit(2)
}

#[cfg(unix)]
fn thread_cpu_seconds() -> f64 {
    use nix::time::{clock_gettime, ClockId};
    let t = clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).expect("thread CPU clock");
    t.tv_sec() as f64 + t.tv_nsec() as f64 * 1e-9
}

#[cfg(not(unix))]
fn thread_cpu_seconds() -> f64 {
    0.0
}

fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn main() {
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let layouts = match args.iter().position(|a| a == "--layouts") {
        Some(i) => {
            args.remove(i);
            true
        }
        None => false,
    };
    let mut flag = |name: &str| {
        let i = args.iter().position(|a| a == name)?;
        let value = args
            .get(i + 1)
            .cloned()
            .unwrap_or_else(|| bad_input(format!("{name} needs a value")));
        args.drain(i..i + 2);
        Some(value)
    };
    let numbering = flag("--numbering").unwrap_or_else(|| "ours".into());
    let csv = flag("--csv");
    let reprove: u64 = flag("--reprove").map_or(0, |v| {
        v.parse()
            .unwrap_or_else(|_| bad_input(format!("--reprove {v}: not a whole number")))
    });
    let rules = parse_rules(args.first().map_or("1/unlimited", |s| s.as_str()))
        .unwrap_or_else(|e| bad_input(format!("{e}")));
    let num = |i: usize, default: u64| {
        args.get(i).map_or(default, |s| {
            s.parse()
                .unwrap_or_else(|_| bad_input(format!("{s:?} is not a whole number")))
        })
    };
    let (first, last, budget) = (num(1, 0), num(2, 200), num(3, 100_000_000));
    if first >= last || budget == 0 || budget > 2_000_000_000 {
        bad_input(format!(
            "need FIRST < LAST and 1 <= BUDGET <= 2e9 (got {first} {last} {budget})"
        ));
    }
    let solvitaire = match numbering.as_str() {
        "ours" => false,
        "solvitaire" => {
            if last - 1 > MAX_SOLVITAIRE_SEED as u64 {
                bad_input(format!("Solvitaire seeds end at {MAX_SOLVITAIRE_SEED}"));
            }
            true
        }
        other => bad_input(format!("--numbering {other}: ours or solvitaire")),
    };
    let mut out = csv.map(|path| {
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(&path).unwrap_or_else(|e| bad_input(format!("{path}: {e}"))),
        );
        writeln!(f, "deal,verdict,classes,cpu_s").unwrap();
        f
    });
    let (mut won, mut lost, mut unknown, mut reproved, mut unproved) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut times = Vec::new();
    for deal in first..last {
        let deck = if solvitaire {
            solvitaire_deck(deal as u32)
        } else {
            shuffled(deal)
        };
        let layout = Layout::from_deck(&deck);
        if layouts {
            let cols: Vec<String> = layout
                .columns
                .iter()
                .map(|c| {
                    c.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            let talon: Vec<String> = layout.talon.iter().map(|x| x.to_string()).collect();
            println!("{deal}: {} | {}", cols.join(" / "), talon.join(" "));
            continue;
        }
        let t0 = thread_cpu_seconds();
        let outcome = solve(&layout, &rules, budget);
        let dt = thread_cpu_seconds() - t0;
        times.push(dt);
        let label = match &outcome.verdict {
            Verdict::Won(line) => {
                if let Err(e) = Table::from_deck(&deck).replay_win(line, &rules) {
                    panic!("deal {deal}: {}", e.0);
                }
                won += 1;
                "won"
            }
            Verdict::Lost => {
                lost += 1;
                if reprove > 0 && lost % reprove == 0 {
                    match check_from(Table::from_deck(&deck), &rules, REPROVE_BUDGET) {
                        Finding::Lost { .. } => reproved += 1,
                        Finding::Won(_) => {
                            panic!("deal {deal}: lost here, won by the independent search")
                        }
                        Finding::Unfinished { .. } => unproved += 1,
                    }
                }
                "lost"
            }
            Verdict::Unknown => {
                unknown += 1;
                "unknown"
            }
        };
        if let Some(f) = out.as_mut() {
            writeln!(f, "{deal},{label},{},{dt:.6}", outcome.classes).unwrap();
        }
    }
    if layouts {
        return;
    }
    let n = times.len();
    let total: f64 = times.iter().sum();
    times.sort_by(|a, b| a.total_cmp(b));
    let pct = |p: f64| times[((n as f64 - 1.0) * p).round() as usize];
    println!(
        "{} deals {first}..{last} ({numbering}), {}: {won} won, {lost} lost, {unknown} unknown (budget {budget}); \
         CPU total {total:.2} s, mean {:.4} s, median {:.4} s, p99 {:.3} s, max {:.3} s; peak RSS {:.0} MiB; losses re-proved by the independent search: {reproved} (and {unproved} past its {REPROVE_BUDGET} positions)",
        n,
        rules.label(),
        total / n as f64,
        pct(0.5),
        pct(0.99),
        times[n - 1],
        peak_rss_mib().unwrap_or(f64::NAN),
    );
}
