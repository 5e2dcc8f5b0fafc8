//! A tactical test suite in EPD ("Win at Chess" and the like): the engine
//! searches each position within a node budget and a position counts as
//! solved when its move is one of the `bm` moves (and none of the `am`
//! moves). Reports the solved count per budget, with nodes per second.
//! Usage: cargo bench --bench tactics -- SUITE.epd [BUDGET...]
//! (no suite is shipped; default budgets 10^4, 10^5, 10^6 nodes).

use nimrod::games::chess::engine::ChessSearch;
use nimrod::games::chess::full::FullPosition;
use nimrod::games::chess::play::san;
use nimrod::search::{Engine, Options};
use std::time::Instant;

struct Case {
    id: String,
    game: FullPosition,
    best: Vec<String>,
    avoid: Vec<String>,
}

fn plain(s: &str) -> String {
    s.trim_end_matches(['+', '#', '!', '?']).replace('0', "O")
}

fn parse(line: &str) -> Option<Case> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 5 {
        return None;
    }
    let fen = format!(
        "{} {} {} {} 0 1",
        fields[0], fields[1], fields[2], fields[3]
    );
    let game = FullPosition::from_fen(&fen).ok()?;
    let ops = fields[4..].join(" ");
    let (mut best, mut avoid, mut id) = (Vec::new(), Vec::new(), String::new());
    for op in ops.split(';').map(str::trim) {
        if let Some(m) = op.strip_prefix("bm ") {
            best = m.split_whitespace().map(plain).collect();
        } else if let Some(m) = op.strip_prefix("am ") {
            avoid = m.split_whitespace().map(plain).collect();
        } else if let Some(i) = op.strip_prefix("id ") {
            id = i.trim_matches('"').to_string();
        }
    }
    (!best.is_empty() || !avoid.is_empty()).then_some(Case {
        id,
        game,
        best,
        avoid,
    })
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let Some(path) = args.first() else {
        eprintln!("SKIPPED: give an EPD suite (e.g. the 300 'Win at Chess' positions)");
        return;
    };
    let text = std::fs::read_to_string(path).expect("readable suite");
    let cases: Vec<Case> = text.lines().filter_map(parse).collect();
    let budgets: Vec<u64> = if args.len() > 1 {
        args[1..].iter().filter_map(|a| a.parse().ok()).collect()
    } else {
        vec![10_000, 100_000, 1_000_000]
    };
    println!("{path}: {} positions", cases.len());
    for budget in budgets {
        let (mut solved, mut nodes) = (0, 0u64);
        let mut missed = Vec::new();
        let t = Instant::now();
        for c in &cases {
            let mut p = ChessSearch::new(c.game, None, 0);
            let mut o = Options::all(20);
            o.node_budget = Some(budget);
            let r = Engine::new(o).search(&mut p, 64);
            nodes += r.stats.nodes;
            let Some(m) = r.best else { continue };
            let chosen = plain(&san(&c.game, &m));
            let ok = (c.best.is_empty() || c.best.contains(&chosen)) && !c.avoid.contains(&chosen);
            if ok {
                solved += 1;
            } else {
                missed.push(format!("{} {chosen}", c.id));
            }
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "budget {budget:>9} nodes: solved {solved} of {} ({:.0} nodes/s, {secs:.1} s)",
            cases.len(),
            nodes as f64 / secs
        );
        if missed.len() <= 40 {
            println!("  missed: {}", missed.join(", "));
        }
    }
}
