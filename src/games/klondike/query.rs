//! `nimrod query klondike --deal N`: the deal, the greedy player's game and
//! the solver's verdict; `--report` prints the batch report. `nimrod play
//! klondike --deal N` plays a deal with the greedy player as the hint key.

use super::greedy::{self, Player};
use super::parse_rules;
use super::solver::{self, Verdict};
use super::state::{Move, Rules, State};
use crate::games::query::{from_matches, open_table, Answer, QueryContext};
use anyhow::{bail, ensure, Result};
use serde_json::json;
use std::fmt::Write;

#[derive(clap::Parser)]
#[command(
    after_help = "Examples:\n  nimrod query klondike --report\n  nimrod query klondike --deal 3\n  nimrod query klondike --deal 3 --draw 3 --redeal unlimited"
)]
#[command(about = "Klondike: a deal with the greedy player's game and the solver's verdict")]
pub struct KlondikeQuery {
    /// Deal number (see the shuffle in ARCHITECTURE.md / cards.rs).
    #[arg(long)]
    deal: Option<u64>,
    /// Cards dealt from the stock at a time: 1 or 3.
    #[arg(long, default_value_t = 1)]
    draw: u8,
    /// Stock passes: none, unlimited or a number.
    #[arg(long, default_value = "unlimited")]
    redeal: String,
    /// Forbid worrying back (a card coming back from its foundation).
    #[arg(long)]
    no_worry: bool,
    /// Greedy player 0..5: classic shortest/late, longest/late,
    /// shortest/early, longest/early; 4 the seed's list ported literally;
    /// 5 the strong priority list.
    #[arg(long, default_value_t = 0)]
    variant: usize,
    /// Solver nodes before answering unknown.
    #[arg(long, default_value_t = 2_000_000)]
    budget: u64,
    /// Print the batch report instead.
    #[arg(long)]
    report: bool,
}

fn rules_of(q: &KlondikeQuery) -> Result<(Rules, Player)> {
    let worry = if q.no_worry { "/noworry" } else { "" };
    let rules = parse_rules(&format!("{}/{}{worry}", q.draw, q.redeal))?;
    ensure!(
        q.variant < Player::ALL.len(),
        "--variant {} is out of range (0 ..= {})",
        q.variant,
        Player::ALL.len() - 1
    );
    Ok((rules, Player::ALL[q.variant]))
}

fn describe_line(deal: u64, rules: &Rules, moves: &[Move]) -> Vec<String> {
    let mut s = State::deal(deal);
    moves
        .iter()
        .map(|&m| {
            let d = s.describe(m);
            s.apply(m, rules);
            d
        })
        .collect()
}

pub fn answer(args: &clap::ArgMatches, ctx: &QueryContext) -> Result<Answer> {
    let q: KlondikeQuery = from_matches(args)?;
    if q.report {
        return report(ctx);
    }
    let Some(deal) = q.deal else {
        bail!("query klondike: give --deal N (or --report)");
    };
    let (rules, variant) = rules_of(&q)?;
    let start = State::deal(deal);
    let played = greedy::play(deal, &rules, &variant);
    let greedy_moves = describe_line(deal, &rules, &played.moves);
    let mut solved = solver::solve(deal, &rules, q.budget);
    if solved.verdict == Verdict::Unknown && played.won {
        // The search ran out, but the greedy game itself proves the deal.
        solved.verdict = Verdict::Won(played.moves.clone());
    }
    let line = match &solved.verdict {
        Verdict::Won(line) => describe_line(deal, &rules, line),
        _ => Vec::new(),
    };
    let mut text = String::new();
    let _ = writeln!(
        text,
        "deal {deal} ({}), face-down cards in parentheses:",
        rules.label()
    );
    text.push_str(&start.render(true));
    let _ = writeln!(
        text,
        "greedy player ({}): {} after {} moves, {} cards home",
        variant.label(),
        if played.won { "won" } else { "gave up" },
        played.moves.len(),
        played.home
    );
    for (i, m) in greedy_moves.iter().enumerate() {
        let _ = writeln!(text, "  {:>4}. {m}", i + 1);
    }
    let _ = writeln!(
        text,
        "solver (every card visible, budget {} nodes): {} after {} nodes",
        q.budget,
        solved.verdict.label(),
        solved.nodes
    );
    if !line.is_empty() {
        let _ = writeln!(text, "a winning line ({} moves):", line.len());
        for (i, m) in line.iter().enumerate() {
            let _ = writeln!(text, "  {:>4}. {m}", i + 1);
        }
    }
    Ok(Answer {
        text,
        json: json!({
            "deal": deal, "rules": rules.label(), "variant": variant.label(),
            "greedy": {"won": played.won, "home": played.home, "moves": greedy_moves},
            "solver": {"verdict": solved.verdict.label(), "nodes": solved.nodes, "line": line},
        }),
    })
}

fn report(ctx: &QueryContext) -> Result<Answer> {
    let t = open_table(&ctx.data_dir, "klondike/report")?;
    let s = &t.meta().stats;
    let mut text = String::from("greedy players, win rate with 95% interval (Wilson); difference against the first player on the same deals (McNemar p)\n");
    for r in s["greedy"].as_array().into_iter().flatten() {
        let ci = &r["ci95"];
        let _ = write!(
            text,
            "  {:<28} {:<28} {:>7}/{:<7} {:>6.2}%  [{:.2}%, {:.2}%]",
            r["rules"].as_str().unwrap_or(""),
            r["variant"].as_str().unwrap_or(""),
            r["wins"],
            r["deals"],
            100.0 * r["win_rate"].as_f64().unwrap_or(0.0),
            100.0 * ci[0].as_f64().unwrap_or(0.0),
            100.0 * ci[1].as_f64().unwrap_or(0.0)
        );
        if let Some(v) = r["vs_first"].as_object() {
            let p = v["mcnemar_p"].as_f64().unwrap_or(1.0);
            let _ = write!(
                text,
                "  diff {:+.2}% [{:+.2}%, {:+.2}%] {}",
                100.0 * v["diff"].as_f64().unwrap_or(0.0),
                100.0 * v["ci95"][0].as_f64().unwrap_or(0.0),
                100.0 * v["ci95"][1].as_f64().unwrap_or(0.0),
                if p < 0.001 {
                    "p<0.001".to_string()
                } else {
                    format!("p={p:.3}")
                }
            );
        }
        text.push('\n');
    }
    text.push_str("solver (every card visible)\n");
    for r in s["solver"].as_array().into_iter().flatten() {
        let v = &r["solver"];
        let pct = |x: &serde_json::Value| 100.0 * x.as_f64().unwrap_or(0.0);
        let _ = writeln!(
            text,
            "  {:<28} {} winnable ({} by a greedy game, {} by search), {} not, {} unknown of {} ({:.2}% decided)",
            r["rules"].as_str().unwrap_or(""),
            v["winnable"], v["winnable_by_greedy_game"], v["winnable_by_search"], v["not_winnable"], v["unknown"], v["deals"],
            pct(&v["decided_share"]),
        );
        // The unknowns could go either way, so the honest rate is a range:
        // every unknown lost at one end, every unknown won at the other.
        let _ = writeln!(
            text,
            "      winnable: {:.2}% [{:.2}%, {:.2}%] if every unknown is lost, {:.2}% [{:.2}%, {:.2}%] if every unknown is won; {:.2}% of decided [{:.2}%, {:.2}%]; search nodes median {} p90 {} p99 {}",
            pct(&v["bounds_if_unknowns_all_lost_or_won"][0]),
            pct(&v["ci95_winnable_if_unknowns_lost"][0]),
            pct(&v["ci95_winnable_if_unknowns_lost"][1]),
            pct(&v["bounds_if_unknowns_all_lost_or_won"][1]),
            pct(&v["ci95_winnable_if_unknowns_won"][0]),
            pct(&v["ci95_winnable_if_unknowns_won"][1]),
            pct(&v["winnable_share_of_decided"]),
            pct(&v["ci95_of_decided"][0]),
            pct(&v["ci95_of_decided"][1]),
            v["nodes_decided"]["median"], v["nodes_decided"]["p90"], v["nodes_decided"]["p99"],
        );
        for g in v["greedy"].as_array().into_iter().flatten() {
            let _ = writeln!(
                text,
                "      greedy {:<28} won {:>5}, lost {:>5} winnable deals",
                g["variant"].as_str().unwrap_or(""),
                g["greedy_wins"],
                g["winnable_but_lost"]
            );
        }
    }
    Ok(Answer {
        text,
        json: s.clone(),
    })
}

/// Interactive play: numbers pick a listed move, `h` shows the greedy
/// player's hint, `g` plays it, `q` quits.
pub fn play(
    args: &clap::ArgMatches,
    input: &mut dyn std::io::BufRead,
    output: &mut dyn std::io::Write,
) -> Result<()> {
    let q: KlondikeQuery = from_matches(args)?;
    let Some(deal) = q.deal else {
        bail!("play klondike: give --deal N");
    };
    let (rules, variant) = rules_of(&q)?;
    let mut s = State::deal(deal);
    let mut moves = Vec::new();
    loop {
        writeln!(output, "{}", s.render(false))?;
        if s.is_won() {
            writeln!(output, "won!")?;
            return Ok(());
        }
        s.legal_moves(&rules, &mut moves);
        if moves.is_empty() {
            writeln!(output, "no moves left: {} cards home", s.home())?;
            return Ok(());
        }
        for (i, &m) in moves.iter().enumerate() {
            writeln!(output, "  {}) {}", i + 1, s.describe(m))?;
        }
        write!(output, "move number, h(int), g(reedy move), q(uit)> ")?;
        output.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let hint = variant.next_move(&s, &rules, false);
        match line.trim() {
            "q" => return Ok(()),
            "h" => match hint {
                Some(m) => writeln!(output, "hint: {}", s.describe(m))?,
                None => writeln!(output, "hint: the greedy player would give up here")?,
            },
            "g" => match hint {
                Some(m) => {
                    writeln!(output, "greedy plays: {}", s.describe(m))?;
                    s.apply(m, &rules);
                }
                None => writeln!(output, "the greedy player would give up here")?,
            },
            other => match other.parse::<usize>() {
                Ok(n) if (1..=moves.len()).contains(&n) => s.apply(moves[n - 1], &rules),
                _ => writeln!(output, "not a move: \"{other}\"")?,
            },
        }
    }
}
