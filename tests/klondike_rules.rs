//! Winning lines checked by the second rules engine
//! (`klondike::independent::rules`), written apart from `state.rs`: its own
//! layout, its own deal from the shuffled deck, and the rules as a player
//! would state them. A solver win that this engine rejects is a rules bug
//! in `state.rs` that the solver's own replay could not see.

use nimrod::games::klondike::independent::rules::Table;
use nimrod::games::klondike::parse_rules;
use nimrod::games::klondike::solver;
use nimrod::games::klondike::verdict::Verdict;

#[test]
fn every_winning_line_is_legal_under_an_independent_rules_engine() {
    let mut checked = 0;
    for (text, deals) in [
        ("1/unlimited", 0..60u64),
        ("3/unlimited", 0..60),
        ("3/unlimited/noworry", 0..40),
        ("3/3", 0..40),
        ("1/none", 0..60),
    ] {
        let rules = parse_rules(text).unwrap();
        let mut won = 0;
        for deal in deals {
            let Verdict::Won(line) = solver::solve_deal(deal, &rules, 200_000).verdict else {
                continue;
            };
            let mut t = Table::deal(deal);
            for (i, &m) in line.iter().enumerate() {
                if let Err(e) = t.play(m, &rules) {
                    panic!("{text} deal {deal}, move {i} ({m:?}): {e}");
                }
            }
            assert!(t.is_won(), "{text} deal {deal}: the line does not win");
            won += 1;
        }
        assert!(won >= 3, "{text}: only {won} wins to check");
        checked += won;
    }
    eprintln!("{checked} winning lines legal under the second engine");
}
