//! The classic search experiments, measured (issue 17):
//! 1. node counts of minimax, alpha-beta, sorted alpha-beta and the engine's
//!    techniques on the same trees, beside Knuth and Moore's minimal tree;
//! 2. the y1 + 5·y2 + 25·y3 player looking ahead 1..9 plies, scored
//!    against the solved 3x3 table;
//! 3. exact values of m,n,k boards beyond the template table, with nodes
//!    and time.
//!
//! Usage: cargo bench --bench search [-- BOARD... (e.g. 4x5k4 5x5k4)] [--budget N] [--bits B] [--pairing-only] | -- --branching

use nimrod::games::ttt::board::{Geometry, Position as Board};
use nimrod::games::ttt::pairing::pairing;
use nimrod::games::ttt::search::{lookahead_move, scorecard, solve_exact, Mnk};
use nimrod::games::ttt::solve;
use nimrod::search::classic::{alpha_beta, minimal_leaves, minimax, Count};
use nimrod::search::{describe, Engine, Options};
use std::time::Instant;

/// The chess positions both chess tables use.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const WAC_001: &str = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let budget = flag("--budget").unwrap_or(2_000_000_000);
    let bits = flag("--bits").unwrap_or(22) as u32;
    if args.iter().any(|a| a == "--branching") {
        branching_factors();
        return;
    }
    let boards: Vec<&String> = args
        .iter()
        .filter(|a| a.contains('x') && a.contains('k'))
        .collect();
    if boards.is_empty() {
        node_counts();
        grundy_counts();
        chess_counts();
        branching_factors();
        lookahead();
    }
    let names: Vec<String> = if boards.is_empty() {
        vec!["4x4k4".into(), "4x5k4".into()]
    } else {
        boards.into_iter().cloned().collect()
    };
    let pairing_only = args.iter().any(|a| a == "--pairing-only");
    println!("\n## Exact values by search (PVS + TT 2^{bits} buckets + killers/history; budget {budget} nodes)");
    println!(
        "| board | pairing draws | value (first player) | nodes | leaves | TT cut-offs | time |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for name in names {
        let g = Geometry::parse_name(&name).expect("board like 4x5k4");
        for pairing in [false, true] {
            if pairing_only && !pairing {
                continue;
            }
            let t = Instant::now();
            let r = solve_exact(&g, Board::default(), bits, Some(budget), pairing);
            let value = if r.proven() || r.complete {
                describe(r.score)
            } else {
                format!("unknown within budget (depth {} done)", r.depth)
            };
            println!(
                "| {name} | {} | {value} | {} | {} | {} | {:.1} s |",
                if pairing { "yes" } else { "no" },
                r.stats.nodes,
                r.stats.leaves,
                r.stats.tt_cutoffs,
                t.elapsed().as_secs_f64()
            );
        }
        // The certificate when the empty board is itself a pairing draw.
        if let Some(pairs) = pairing(&g.lines, g.full()) {
            let cell = |c: u32| {
                format!(
                    "{}{}",
                    (b'a' + (c % g.cols as u32) as u8) as char,
                    1 + c / g.cols as u32
                )
            };
            let shown: Vec<String> = pairs
                .iter()
                .map(|&(a, b)| format!("{}-{}", cell(a), cell(b)))
                .collect();
            println!("\n{name}: every line holds its own pair of cells (either side answers a move on one cell with the other): {}", shown.join(" "));
        }
    }
}

fn node_counts() {
    println!("## Node counts on the same trees (nodes / leaves)");
    println!("| tree | minimax | alpha-beta | sorted alpha-beta | +TT | +ordering | PVS+TT+ordering | all (+aspiration) | minimal leaves b^⌈d/2⌉+b^⌊d/2⌋−1 |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (name, depth) in [("3x3k3", 9u32), ("4x4k4", 4), ("4x4k4", 5), ("4x4k4", 6)] {
        let g = Geometry::parse_name(name).unwrap();
        let mut p = Mnk::new(&g, Board::default());
        let run = |f: &mut dyn FnMut(&mut Mnk, &mut Count)| {
            let mut p = Mnk::new(&g, Board::default());
            let mut c = Count::default();
            f(&mut p, &mut c);
            format!("{} / {}", c.nodes, c.leaves)
        };
        let mm = if depth <= 9 && g.cells() <= 9 || depth <= 5 {
            run(&mut |p, c| {
                minimax(p, depth, c);
            })
        } else {
            "—".into()
        };
        let ab = run(&mut |p, c| {
            alpha_beta(p, depth, false, c);
        });
        let sorted = run(&mut |p, c| {
            alpha_beta(p, depth, true, c);
        });
        let mut engine = |o: Options| {
            let r = Engine::new(o).search(&mut p, depth);
            format!("{} / {}", r.stats.nodes, r.stats.leaves)
        };
        let tt = engine(Options {
            tt_bits: Some(18),
            ..Options::default()
        });
        let ord = engine(Options {
            ordering: true,
            ..Options::default()
        });
        let pvs = engine(Options {
            pvs: true,
            tt_bits: Some(18),
            ordering: true,
            ..Options::default()
        });
        let all = engine(Options::exact(18));
        let b = g.cells() as u64;
        println!(
            "| {name} depth {depth} | {mm} | {ab} | {sorted} | {tt} | {ord} | {pvs} | {all} | {} (b = {b}) |",
            minimal_leaves(b, depth)
        );
    }
}

fn lookahead() {
    let g = Geometry::parse_name("3x3k3").unwrap();
    let solved = solve::solve(&g);
    println!("\n## The line-scoring player y1 + 5·y2 + 25·y3 against the solved 3x3 table");
    println!("Every opponent sequence is played out; a value-losing move turns a win into a draw or loss, or a draw into a loss.");
    println!("| player | as X: decisions / value-losing / games lost of | as O: decisions / value-losing / games lost of |");
    println!("| --- | --- | --- |");
    let literal = |b: Board| nimrod::games::ttt::machines::line_scoring(&g, b) as u8;
    let row = |name: String, f: &dyn Fn(Board) -> u8| {
        let x = scorecard(&g, &solved, true, f);
        let o = scorecard(&g, &solved, false, f);
        println!(
            "| {name} | {} / {} / {} of {} | {} / {} / {} of {} |",
            x.decisions,
            x.value_losing,
            x.losses,
            x.losses + x.draws + x.wins,
            o.decisions,
            o.value_losing,
            o.losses,
            o.losses + o.draws + o.wins
        );
    };
    row("one ply, own lines only (the machine)".into(), &literal);
    for d in 1..=9 {
        row(format!("lookahead {d} (Y(me) − Y(them))"), &|b| {
            lookahead_move(&g, b, d)
        });
    }
}

fn grundy_counts() {
    use nimrod::games::grundy::search::Heaps;
    println!("\n## Grundy's game, one heap, searched to the end (nodes; one full-depth search, no deepening)");
    println!("| heap | outcome | minimax | alpha-beta | +TT | +ordering | PVS+TT+ordering |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for n in [10u32, 14, 18, 22, 26] {
        let fresh = || Heaps::new(&[n]).unwrap();
        let mm = if n <= 18 {
            let mut c = Count::default();
            minimax(&mut fresh(), n, &mut c);
            c.nodes.to_string()
        } else {
            "—".into()
        };
        let ab = if n <= 22 {
            let mut c = Count::default();
            alpha_beta(&mut fresh(), n, false, &mut c);
            c.nodes.to_string()
        } else {
            "—".into()
        };
        let run = |o: Options| Engine::new(o).search(&mut fresh(), n);
        let tt = run(Options {
            tt_bits: Some(20),
            no_deepening: true,
            ..Options::default()
        });
        let ord = run(Options {
            ordering: true,
            no_deepening: true,
            ..Options::default()
        });
        let pvs = run(Options {
            pvs: true,
            tt_bits: Some(20),
            ordering: true,
            no_deepening: true,
            ..Options::default()
        });
        println!(
            "| {n} | {} | {mm} | {ab} | {} | {} | {} |",
            describe(pvs.score),
            tt.stats.nodes,
            ord.stats.nodes,
            pvs.stats.nodes
        );
    }
}

fn chess_counts() {
    use nimrod::games::chess::engine::ChessSearch;
    use nimrod::games::chess::full::FullPosition;
    println!("\n## Chess, fixed depth (nodes; quiescence off except in the last column)");
    println!("| position | depth | alpha-beta | +ordering (killers, history, MVV-LVA hint) | +TT (with deepening) | PVS+TT+ordering | +aspiration +null move | +quiescence (all) |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (name, fen, depth) in [
        ("start", FullPosition::START, 5u32),
        ("Kiwipete", KIWIPETE, 4),
        ("WAC.001", WAC_001, 5),
    ] {
        let g = FullPosition::from_fen(fen).unwrap();
        let run = |o: Options| {
            let mut p = ChessSearch::new(g, None, 0);
            Engine::new(o).search(&mut p, depth).stats.nodes
        };
        let ab = run(Options::default());
        let ord = run(Options {
            ordering: true,
            no_deepening: true,
            ..Options::default()
        });
        let tt = run(Options {
            tt_bits: Some(20),
            ..Options::default()
        });
        let pvs = run(Options {
            pvs: true,
            tt_bits: Some(20),
            ordering: true,
            ..Options::default()
        });
        let mut more = Options::all(20);
        more.quiescence = false;
        let more = run(more);
        let all = run(Options::all(20));
        println!("| {name} | {depth} | {ab} | {ord} | {tt} | {pvs} | {more} | {all} |");
    }
}

/// Effective branching factor of the full engine: nodes of iterative
/// deepening to depth d over nodes to depth d − 1 (Options::all, one
/// thread), and the node rate of the deepest search.
fn branching_factors() {
    use nimrod::games::chess::engine::ChessSearch;
    use nimrod::games::chess::full::FullPosition;
    println!("\n## Chess, effective branching factor (every technique, quiescence on)");
    println!("| position | nodes to depth 1..=D | ratios d/(d-1) | nodes/s at D |");
    println!("| --- | --- | --- | --- |");
    for (name, fen, deepest) in [
        ("start", FullPosition::START, 8u32),
        ("Kiwipete", KIWIPETE, 6),
        ("WAC.001", WAC_001, 7),
        (
            "middlegame (CPW perft 6)",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            6,
        ),
    ] {
        let g = FullPosition::from_fen(fen).unwrap();
        let mut counts = Vec::new();
        let mut rate = 0.0;
        for depth in 1..=deepest {
            let mut p = ChessSearch::new(g, None, 0);
            let t = Instant::now();
            let r = Engine::new(Options::all(20)).search(&mut p, depth);
            rate = r.stats.nodes as f64 / t.elapsed().as_secs_f64();
            counts.push(r.stats.nodes);
        }
        let ratios: Vec<String> = counts
            .windows(2)
            .map(|w| format!("{:.1}", w[1] as f64 / w[0] as f64))
            .collect();
        let shown: Vec<String> = counts.iter().map(u64::to_string).collect();
        println!(
            "| {name} | {} | {} | {:.0} |",
            shown.join(" "),
            ratios.join(" "),
            rate
        );
    }
}
