//! `nimrod query knight`: tours are knight's paths (checked here with no
//! code from the game's module), the text's rule takes the moves a person
//! reading it would take from a1, and the success rates come with their
//! trials and intervals.

mod common;
use common::*;

/// A path of squares ("a1", "c2", …) that a knight walks, each square once.
fn walks_as_a_knight(path: &[serde_json::Value]) -> bool {
    let squares: Vec<(i32, i32)> = path
        .iter()
        .map(|s| {
            let b = s.as_str().unwrap().as_bytes();
            ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    squares.iter().all(|s| seen.insert(*s))
        && squares
            .windows(2)
            .all(|w| ((w[1].0 - w[0].0) * (w[1].1 - w[0].1)).abs() == 2)
}

#[test]
fn tours_are_knight_paths_and_the_text_rule_starts_as_a_reader_would() {
    for reading in [
        "ring-first/every13",
        "ring-first/once13",
        "ring-first/lap",
        "turn-first/every13",
        "turn-first/once13",
        "turn-first/lap",
    ] {
        for seed in 1..=5 {
            let seed = seed.to_string();
            let a = json(&ok(&[
                "query",
                "knight",
                "--rule",
                "text",
                "--reading",
                reading,
                "--seed",
                &seed,
                "--json",
            ]));
            let path = a["path"].as_array().unwrap();
            assert!(walks_as_a_knight(path), "{reading} seed {seed}: {path:?}");
            assert_eq!(path[0], "a1");
            // From a1 both moves lie on ring 1; anticlockwise about the
            // centre (White at the bottom) is along the bottom edge: c2.
            assert_eq!(path[1], "c2", "{reading}");
            if reading.starts_with("ring-first") {
                // From c2 the edge squares are a3 and e1; e1 goes on anticlockwise.
                assert_eq!(path[2], "e1", "{reading}");
            }
            assert_eq!(a["completed"], path.len() == 64);
        }
    }
    for rule in ["warnsdorff", "random"] {
        let a = json(&ok(&[
            "query", "knight", "--rule", rule, "--seed", "9", "--json",
        ]));
        assert!(walks_as_a_knight(a["path"].as_array().unwrap()), "{rule}");
    }
}

#[test]
fn a_success_rate_counts_its_trials_and_warnsdorff_beats_a_random_walk() {
    let w = json(&ok(&[
        "query",
        "knight",
        "--rule",
        "warnsdorff",
        "--trials",
        "500",
        "--json",
    ]));
    assert_eq!(w["trials"], 500);
    let rate = w["success_rate"].as_f64().unwrap();
    assert!(rate > 0.9, "Warnsdorff: {rate}");
    let [lo, hi] = [
        w["interval_95"][0].as_f64().unwrap(),
        w["interval_95"][1].as_f64().unwrap(),
    ];
    assert!(lo < rate && rate < hi, "{lo} {rate} {hi}");
    let r = json(&ok(&[
        "query", "knight", "--rule", "random", "--trials", "500", "--json",
    ]));
    assert!(r["success_rate"].as_f64().unwrap() < 0.01);
    let c = json(&ok(&[
        "query",
        "knight",
        "--trials",
        "200",
        "--compare",
        "--json",
    ]));
    assert_eq!(c["rules"].as_array().unwrap().len(), 8);
    // The same seed gives the same numbers.
    let again = json(&ok(&[
        "query",
        "knight",
        "--trials",
        "200",
        "--compare",
        "--json",
    ]));
    assert_eq!(c, again);
}

#[test]
fn bad_knight_arguments_are_refused_with_what_is_wrong() {
    assert!(fails(&["query", "knight", "--rule", "spiral"]).contains("text, warnsdorff or random"));
    assert!(fails(&["query", "knight", "--reading", "sideways"]).contains("ring-first/every13"));
    let usage = usage_fails(&["query", "knight", "--trials", "0"]);
    assert!(usage.contains("--trials"), "{usage}");
    let usage = usage_fails(&["query", "knight", "--compare"]);
    assert!(usage.contains("--trials"), "{usage}");
}
