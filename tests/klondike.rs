//! Klondike: the solver against a plain search without its pruning, the
//! greedy player against the solver, the report against a recount, and the
//! CLI (query, report, interactive play with the hint key).

mod common;
use common::*;
use nimrod::games::klondike::greedy::{self, Player};
use nimrod::games::klondike::parse_rules;
use nimrod::games::klondike::solver;
use nimrod::games::klondike::state::{Move, Rules, State};
use nimrod::games::klondike::verdict::{self, Verdict};

/// The solver's reference search over exact states (no dominance moves, no
/// column symmetry, no hashing) from the deal. Some(won) or None over budget.
fn plain(rules: &Rules, deal: u64, budget: usize) -> Option<bool> {
    verdict::exhaustive(State::deal(deal), rules, budget)
}

#[test]
fn solver_agrees_with_a_plain_search_where_both_decide() {
    agrees_with_plain_search("1/none", 40, 5, 1);
}

#[test]
fn with_unlimited_redeals_too() {
    // Where the talon-split keys and the two passes matter.
    agrees_with_plain_search("3/unlimited", 24, 5, 1);
}

#[test]
fn without_worrying_back() {
    // The restorable autoplay is off here; the relaxation (which allows
    // worrying back) still proves losses.
    agrees_with_plain_search("3/unlimited/noworry", 24, 5, 1);
}

#[test]
fn worrying_back_never_loses_a_deal_won_without_it() {
    let (with, without) = (
        parse_rules("1/unlimited").unwrap(),
        parse_rules("1/unlimited/noworry").unwrap(),
    );
    let mut compared = 0;
    for deal in 0..40 {
        let a = solver::solve_deal(deal, &with, 100_000).verdict;
        let b = solver::solve_deal(deal, &without, 100_000).verdict;
        if let Verdict::Won(line) = &b {
            assert!(
                a != Verdict::Lost,
                "deal {deal}: won without worrying back only"
            );
            assert!(
                !line
                    .iter()
                    .any(|m| matches!(m, Move::FoundationToColumn { .. })),
                "deal {deal}: a no-worrying-back line worries back"
            );
        }
        if a == Verdict::Lost {
            assert!(b == Verdict::Lost || b == Verdict::Unknown, "deal {deal}");
        }
        compared += (a != Verdict::Unknown && b != Verdict::Unknown) as u32;
    }
    assert!(compared >= 30, "only {compared} deals decided both ways");
}

/// Deals 0-299 under both draws: every "not winnable" verdict of the
/// solver goes to the independent loss checker (`klondike::independent`:
/// its own rules engine, an exhaustive search of exact positions, no
/// pruning it shares with the solver). A loss it wins fails the test with
/// the winning line; a loss too big for its budget is counted, not
/// decided.
#[test]
fn every_not_winnable_verdict_of_deals_0_to_299_goes_to_the_independent_checker() {
    use nimrod::games::klondike::independent::loss_check::{check_deal, Finding};
    let budget: u64 = std::env::var("NIMROD_LOSS_CHECK_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(400_000);
    for (text, floor) in [("1/unlimited", 1), ("3/unlimited", 1)] {
        let rules = parse_rules(text).unwrap();
        let (mut losses, mut reproved, mut unfinished) = (0, 0, Vec::new());
        let started = std::time::Instant::now();
        for deal in 0..300u64 {
            if solver::solve_deal(deal, &rules, 100_000).verdict != Verdict::Lost {
                continue;
            }
            losses += 1;
            match check_deal(deal, &rules, budget) {
                Finding::Lost { .. } => reproved += 1,
                Finding::Unfinished { .. } => unfinished.push(deal),
                Finding::Won(line) => {
                    panic!("{text} deal {deal}: the solver says not winnable, the independent checker wins it: {line:?}")
                }
            }
        }
        eprintln!(
            "{text}: {losses} losses, {reproved} re-proved by the independent checker, {} unfinished at {budget} positions {unfinished:?} ({:.1} s)",
            unfinished.len(),
            started.elapsed().as_secs_f64()
        );
        assert!(
            reproved >= floor,
            "{text}: only {reproved} losses re-proved"
        );
    }
}

#[test]
fn no_rule_set_wins_a_deal_its_relaxation_loses() {
    // Draw one with unlimited redeals and worrying back relaxes every rule
    // set: the batch job calls a deal lost under any rules when that rule
    // set's table says lost. So no deal may be won under stricter rules
    // and lost in the relaxation; and the sample must hold both kinds.
    let relaxed = parse_rules("1/unlimited").unwrap();
    let budget = 2_000_000;
    for (text, deals) in [
        ("3/unlimited", 0..200u64),
        ("1/none", 0..100),
        ("3/3/noworry", 0..100),
    ] {
        let rules = parse_rules(text).unwrap();
        let (mut lost_both, mut won_strict) = (0, 0);
        for deal in deals {
            let loose = solver::solve_deal(deal, &relaxed, budget).verdict;
            let strict = solver::solve_deal(deal, &rules, budget).verdict;
            if let Verdict::Won(line) = &strict {
                verdict::check_win(deal, &rules, line).unwrap();
                assert!(
                    matches!(loose, Verdict::Won(_)),
                    "{text} deal {deal}: won here, {} in the relaxation",
                    loose.label()
                );
                won_strict += 1;
            }
            if loose == Verdict::Lost {
                assert_eq!(strict, Verdict::Lost, "{text} deal {deal}");
                lost_both += 1;
            }
        }
        assert!(
            won_strict >= 20 && lost_both >= 5,
            "{text}: {won_strict} won here, {lost_both} lost in the relaxation"
        );
    }
}

fn agrees_with_plain_search(rules: &str, deals: u64, min_both: u32, min_lost: u32) {
    let rules = parse_rules(rules).unwrap();
    let (mut both, mut lost, mut won) = (0, 0, 0);
    for deal in 0..deals {
        let ours = solver::solve_deal(deal, &rules, 200_000).verdict;
        if ours == Verdict::Unknown {
            continue;
        }
        let Some(theirs) = plain(&rules, deal, 150_000) else {
            continue;
        };
        assert_eq!(matches!(ours, Verdict::Won(_)), theirs, "deal {deal}");
        both += 1;
        if theirs {
            won += 1
        } else {
            lost += 1
        }
    }
    eprintln!("{both} decided by both ({won} won, {lost} lost)");
    assert!(
        both >= min_both && lost >= min_lost,
        "{both} decided by both ({won} won, {lost} lost)"
    );
}

#[test]
fn the_greedy_player_never_wins_an_unwinnable_deal() {
    let rules = parse_rules("3/unlimited").unwrap();
    let mut greedy_wins = 0;
    for deal in 0..60 {
        let wins = Player::ALL
            .iter()
            .any(|p| greedy::play(deal, &rules, p).won);
        if wins {
            greedy_wins += 1;
            let v = solver::solve_deal(deal, &rules, 200_000).verdict;
            assert!(
                v != Verdict::Lost,
                "deal {deal}: greedy won, solver says not winnable"
            );
        }
    }
    assert!(greedy_wins >= 3);
}

#[test]
fn report_counts_match_a_recount_and_the_cli_answers() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("k.toml");
    std::fs::write(
        &cfg,
        "[klondike]\nrules = [\"1/unlimited\", \"3/3\"]\ngreedy_deals = 300\nsolver_deals = 30\nsolver_budget = 30000\n",
    )
    .unwrap();
    let data = dir.path().to_str().unwrap();
    ok(&["build", "--config", cfg.to_str().unwrap(), "--data", data]);
    let report: serde_json::Value = serde_json::from_str(&ok(&[
        "query", "klondike", "--report", "--data", data, "--json",
    ]))
    .unwrap();
    let rows = report["greedy"].as_array().unwrap();
    let n = Player::ALL.len();
    assert_eq!(rows.len(), 2 * n);
    for (i, text) in ["1/unlimited", "3/3"].iter().enumerate() {
        let rules = parse_rules(text).unwrap();
        for (v, player) in Player::ALL.iter().enumerate() {
            let wins = (0..300)
                .filter(|&d| greedy::play(d, &rules, player).won)
                .count();
            assert_eq!(rows[i * n + v]["wins"], wins as u64, "{text} player {v}");
            assert_eq!(rows[i * n + v]["variant"], player.label().as_str());
            let ci = &rows[i * n + v]["ci95"];
            let rate = wins as f64 / 300.0;
            assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
        }
    }
    let csv = std::fs::read_to_string(dir.path().join("klondike/report.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2 * n);
    // Rule sets hold a comma, so they are quoted (RFC 4180).
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("\"draw 1, unlimited redeals\","),
        "{csv}"
    );
    let svg = std::fs::read_to_string(dir.path().join("klondike/report.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("circle"));

    let out = ok(&["query", "klondike", "--deal", "42", "--data", data]);
    assert!(out.contains("deal 42 (draw 1, unlimited redeals)"), "{out}");
    assert!(
        out.contains("greedy player") && out.contains("solver"),
        "{out}"
    );
    let e = fails(&[
        "query", "klondike", "--deal", "1", "--draw", "2", "--data", data,
    ]);
    assert!(e.contains("draw must be 1 or 3"), "{e}");
    let e = fails(&[
        "query", "klondike", "--deal", "1", "--redeal", "0", "--data", data,
    ]);
    assert!(e.contains("redeal"), "{e}");
}

#[test]
fn play_offers_the_greedy_move_as_a_hint() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = nimrod()
        .args(["play", "klondike", "--deal", "42"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"h\ng\nx\nq\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // The greedy player's first move on deal 42 is 6d onto 7c.
    assert!(text.contains("hint: 6d column 4 -> column 1"), "{text}");
    assert!(
        text.contains("greedy plays: 6d column 4 -> column 1"),
        "{text}"
    );
    assert!(text.contains("not a move: \"x\""), "{text}");
}

/// One line of a recorded solver run (`benches/results/klondike/`).
struct Recorded {
    deal: u64,
    verdict: String,
    nodes: u64,
}

/// The lines of a recorded run; the file must be there (it is committed).
fn recorded(path: &str) -> Vec<Recorded> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .skip(1)
        .enumerate()
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split(',').collect();
            let at = || format!("{path}, line {}: {line:?}", i + 2);
            assert_eq!(fields.len(), 4, "{}", at());
            Recorded {
                deal: fields[0].parse().unwrap_or_else(|_| panic!("{}", at())),
                verdict: fields[1].to_string(),
                nodes: fields[2].parse().unwrap_or_else(|_| panic!("{}", at())),
            }
        })
        .collect()
}

fn verdict_name(v: &Verdict) -> &'static str {
    match v {
        Verdict::Won(_) => "won",
        Verdict::Lost => "lost",
        Verdict::Unknown => "unknown",
    }
}

#[test]
fn the_recorded_full_runs_are_what_the_solver_answers() {
    // The committed per-deal records of the 10,000-deal runs of solver
    // version 13 (the search before the quotient solver). A sample is
    // solved again by the quotient solver at the records' budget (in its
    // own unit, classes): a decided verdict must stay decided the same
    // way. Every win in the sample replays.
    const BUDGET: u64 = 1_000_000;
    let dir = "benches/results/klondike";
    // The solver version that made the records (in their names): the
    // search before the quotient solver, so this also checks the two
    // solvers never disagree on a deal both decided.
    const RECORDED: u32 = 13;
    let d1 = recorded(&format!("{dir}/v{RECORDED}-d1-unlimited-1e6.csv"));
    let d3 = recorded(&format!("{dir}/v{RECORDED}-d3-unlimited-1e6.csv"));
    for (name, run) in [("draw 1", &d1), ("draw 3", &d3)] {
        let deals: Vec<u64> = run.iter().map(|r| r.deal).collect();
        assert_eq!(
            deals,
            (0..10_000).collect::<Vec<u64>>(),
            "{name}: deals 0-9,999 in order"
        );
        for r in run.iter() {
            assert!(
                ["won", "lost", "unknown"].contains(&r.verdict.as_str()),
                "{name} deal {}",
                r.deal
            );
            assert_eq!(
                r.verdict == "unknown",
                r.nodes > BUDGET,
                "{name} deal {}: {} nodes",
                r.deal,
                r.nodes
            );
        }
    }
    let relaxed = |deal: u64| match d1[deal as usize].verdict.as_str() {
        "won" => verdict::RelaxedVerdict::Won,
        "lost" => verdict::RelaxedVerdict::Lost,
        _ => verdict::RelaxedVerdict::Unknown,
    };
    for (text, run) in [("1/unlimited", &d1), ("3/unlimited", &d3)] {
        let rules = parse_rules(text).unwrap();
        // A dozen cheap deals of each verdict, spread over the range, and
        // the first unknown (a full budget's search).
        let mut sample: Vec<&Recorded> = Vec::new();
        for verdict in ["won", "lost"] {
            let cheap: Vec<&Recorded> = run
                .iter()
                .filter(|r| r.verdict == verdict && r.nodes <= 50_000)
                .collect();
            sample.extend(cheap.iter().step_by((cheap.len() / 12).max(1)).take(12));
        }
        sample.extend(run.iter().filter(|r| r.verdict == "unknown").take(1));
        assert!(
            sample.len() >= 20,
            "{text}: a sample of only {}",
            sample.len()
        );
        for r in sample {
            // As the batch job: lost in the relaxation is lost.
            let solved =
                if text != "1/unlimited" && relaxed(r.deal) == verdict::RelaxedVerdict::Lost {
                    Verdict::Lost
                } else {
                    solver::solve_deal(r.deal, &rules, BUDGET).verdict
                };
            let now = verdict_name(&solved);
            assert!(
                r.verdict == "unknown" || now == r.verdict,
                "{text} deal {}: recorded {}, now {now}",
                r.deal,
                r.verdict
            );
            if let Verdict::Won(line) = &solved {
                verdict::check_win(r.deal, &rules, line).unwrap();
            }
        }
    }
}

/// lonelybot's verdict per Solvitaire seed, from the side-by-side run on
/// record (`benches/klondike_reference.sh`: an independent solver, its own
/// dealing code, run on the same seeds).
fn reference_verdicts(draw: u8) -> std::collections::HashMap<u64, String> {
    let path = format!(
        "{}/benches/results/klondike/reference-2026-11-26-d{draw}-solvitaire-0-200.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (deal, theirs) = (col("deal"), col("lonelybot_verdict"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[deal].parse().unwrap(), f[theirs].to_string())
        })
        .collect()
}

/// `solvitaire_seeds` in the config: a verdict table per rule set over a
/// range of Solvitaire's seeds, the same bytes built whole or in three
/// parts; every verdict decided is lonelybot's on the same seed, and the
/// statistics count the table's bytes.
#[test]
fn solvitaire_seed_tables_agree_with_the_reference_solver_and_split_into_parts() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("seeds.toml");
    std::fs::write(
        &cfg,
        "[klondike]\nrules = [\"1/unlimited\", \"3/unlimited\"]\ngreedy_deals = 4\nsolver_deals = 4\nsolver_budget = 2000000\nsolvitaire_seeds = [1, 41]\n",
    )
    .unwrap();
    let (whole, parts) = (tmp.path().join("whole"), tmp.path().join("parts"));
    for draw in [1u8, 3] {
        let id = format!("klondike/solvitaire-d{draw}-unlimited");
        build_json(&cfg, &whole, &["--only", &id]);
        for i in 1..=3 {
            build_json(&cfg, &parts, &["--only", &id, "--shard", &format!("{i}/3")]);
        }
        build_json(&cfg, &parts, &["--only", &id]);
        let file = format!("{id}.nmt");
        let (a, b) = (
            std::fs::read(whole.join(&file)).unwrap(),
            std::fs::read(parts.join(&file)).unwrap(),
        );
        assert!(a == b, "{id}: whole and three parts differ");
        let table = nimrod::table::Table::open(&whole.join(&file)).unwrap();
        let codes = table.read_range::<u8>(0, 40).unwrap();
        let reference = reference_verdicts(draw);
        let mut agree = 0;
        for (i, &code) in codes.iter().enumerate() {
            let seed = 1 + i as u64;
            let ours = match code {
                0 => "lost",
                1 => "won",
                _ => continue,
            };
            assert_eq!(ours, reference[&seed], "solvitaire:{seed}, draw {draw}");
            agree += 1;
        }
        assert!(agree >= 36, "draw {draw}: only {agree} of 40 seeds decided");
        let stats = &table.meta().stats;
        let count = |c: u8| codes.iter().filter(|&&x| x == c).count() as u64;
        assert_eq!(stats["winnable"], count(1), "{stats}");
        assert_eq!(stats["not_winnable"], count(0), "{stats}");
        assert_eq!(stats["unknown"], count(2), "{stats}");
        assert!(stats["solvitaire_published_percent"].is_array(), "{stats}");
    }
    let bad = tmp.path().join("bad.toml");
    for (range, expect) in [
        ("[5, 5]", "out of range"),
        ("[1]", "give [FIRST, LAST]"),
        ("[0, 2000001]", "at most 1000000 seeds"),
    ] {
        std::fs::write(
            &bad,
            format!("[klondike]\nrules = [\"1/unlimited\"]\ngreedy_deals = 4\nsolver_deals = 4\nsolver_budget = 100\nsolvitaire_seeds = {range}\n"),
        )
        .unwrap();
        let err = fails(&["plan", "--config", bad.to_str().unwrap()]);
        assert!(
            err.contains("solvitaire_seeds") && err.contains(expect),
            "{range}: {err}"
        );
    }
}

/// The no-peek jobs: the same bytes built whole on one thread or in three
/// parts on two; the report's rows are a recount of the tables, paired
/// with the strong list's games on the same deals; every win replays under
/// the independent rules engine; bad keys are refused by name.
#[test]
fn nopeek_games_are_the_same_bytes_whole_or_in_parts_and_the_report_recounts_them() {
    use nimrod::games::klondike::independent::rules::Table as Independent;
    use nimrod::games::klondike::nopeek::{play_game, NoPeek};
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("nopeek.toml");
    std::fs::write(
        &cfg,
        "[klondike]\nrules = [\"3/unlimited\"]\ngreedy_deals = 9\nsolver_deals = 9\nsolver_budget = 2000000\nnopeek_deals = 9\nnopeek_samples = [1, 6]\n",
    )
    .unwrap();
    let (whole, parts) = (tmp.path().join("whole"), tmp.path().join("parts"));
    build_json(&cfg, &whole, &["--threads", "1"]);
    let id = "klondike/nopeek-d3-unlimited-s6";
    for i in 1..=3 {
        build_json(
            &cfg,
            &parts,
            &["--only", id, "--shard", &format!("{i}/3"), "--threads", "2"],
        );
    }
    build_json(&cfg, &parts, &["--only", id]);
    let file = format!("{id}.nmt");
    let a = std::fs::read(whole.join(&file)).unwrap();
    assert!(
        a == std::fs::read(parts.join(&file)).unwrap(),
        "{id}: one thread whole and three parts on two threads differ"
    );

    let rules = parse_rules("3/unlimited").unwrap();
    let data = whole.to_str().unwrap();
    let report: serde_json::Value = serde_json::from_str(&ok(&[
        "query", "klondike", "--report", "--data", data, "--json",
    ]))
    .unwrap();
    let rows = report["nopeek"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{report}");
    for (row, samples) in rows.iter().zip([1u32, 6]) {
        assert_eq!(row["player"], format!("no-peek search, {samples} samples"));
        let player = NoPeek::with_samples(samples);
        let (mut wins, mut only_nopeek, mut only_strong) = (0, 0, 0);
        for deal in 0..9 {
            let game = play_game(State::deal(deal), &rules, &player, 1951);
            let won = game.home == 52;
            if won {
                wins += 1;
                Independent::deal(deal)
                    .replay_win(&game.line, &rules)
                    .unwrap_or_else(|e| panic!("deal {deal}: {}", e.0));
            }
            let strong = greedy::play(deal, &rules, &Player::Strong).won;
            only_nopeek += (won && !strong) as i64;
            only_strong += (strong && !won) as i64;
        }
        assert_eq!(row["wins"], wins, "{row}");
        let diff = row["vs_strong"]["diff"].as_f64().unwrap();
        assert!(
            (diff - (only_nopeek - only_strong) as f64 / 9.0).abs() < 1e-12,
            "{row}"
        );
        assert!(row["winnable_won"].as_u64() <= row["winnable"].as_u64());
        assert_eq!(row["solver_deals"], 9);
    }
    let text = ok(&["query", "klondike", "--report", "--data", data]);
    assert!(text.contains("no-peek search, 6 samples"), "{text}");
    let csv = std::fs::read_to_string(whole.join("klondike/nopeek.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(
        csv.lines()
            .nth(2)
            .unwrap()
            .starts_with("\"draw 3, unlimited redeals\",\"no-peek search, 6 samples\",6,9,"),
        "{csv}"
    );
    let svg = std::fs::read_to_string(whole.join("klondike/nopeek.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("circle"));

    let bad = tmp.path().join("bad.toml");
    for (keys, expect) in [
        ("nopeek_deals = 9\nnopeek_samples = [0]", "nopeek_samples"),
        ("nopeek_deals = 9\nnopeek_samples = 5000", "nopeek_samples"),
        ("nopeek_deals = 9\nnopeek_samples = [4, 4]", "twice"),
        ("nopeek_deals = 9\nnopeek_samples = []", "empty list"),
        ("nopeek_deals = 9\nnopeek_samples = \"x\"", "nopeek_samples"),
        ("nopeek_deals = 10", "nopeek_deals"),
        ("nopeek_deals = 9\nnopeek_budget = 0", "nopeek_budget"),
    ] {
        std::fs::write(
            &bad,
            format!("[klondike]\nrules = [\"1/unlimited\"]\ngreedy_deals = 9\nsolver_deals = 4\nsolver_budget = 100\n{keys}\n"),
        )
        .unwrap();
        let err = fails(&["plan", "--config", bad.to_str().unwrap()]);
        assert!(err.contains(expect), "{keys}: {err}");
    }
}

/// `play klondike --variant nopeek`: the hint is the no-peek player's move
/// (the first of its plan from what the table shows), and `g` plays it.
#[test]
fn play_offers_the_nopeek_move_as_a_hint() {
    use nimrod::games::klondike::nopeek::{decide, NoPeek, Table};
    use std::io::Write;
    use std::process::Stdio;
    let rules = parse_rules("3/unlimited").unwrap();
    let start = State::deal(42);
    let expected = decide(
        &Table::new(start, &rules).view(),
        &rules,
        &NoPeek::with_samples(8),
        1951,
    )
    .first_move()
    .expect("a move on deal 42");
    let mut child = nimrod()
        .args([
            "play",
            "klondike",
            "--deal",
            "42",
            "--draw",
            "3",
            "--variant",
            "nopeek",
            "--samples",
            "8",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"h\ng\nq\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let said = start.describe(expected);
    assert!(text.contains(&format!("hint: {said}")), "{said}\n{text}");
    assert!(text.contains(&format!("no-peek plays: {said}")), "{text}");
    let e = fails(&[
        "play",
        "klondike",
        "--deal",
        "1",
        "--variant",
        "nopeek",
        "--samples",
        "0",
    ]);
    assert!(e.contains("--samples 0 is out of range"), "{e}");
}
