//! Bridg-it through the CLI: the stored strategy's replies, replays and
//! every kind of bad move list.

mod common;
use common::*;

#[test]
fn bridgit_queries() {
    let d = tempfile::tempdir().unwrap();
    let cfg = d.path().join("b.toml");
    std::fs::write(
        &cfg,
        "[bridgit]\nsizes = [3, 5]\nexhaustive_up_to = 5\ntrees_exhaustive_up_to = 3\nrandom_games = 50\n",
    )
    .unwrap();
    build_json(&cfg, d.path(), &[]);
    let dd = d.path().to_str().unwrap();
    let v = json(&ok(&[
        "query", "bridgit", "--size", "5", "--json", "--data", dd,
    ]));
    let opening = v["opening"].as_str().unwrap().to_string();
    assert!(v["winner"].is_null());
    // Black answers somewhere; the reply is a free site; replaying it is accepted.
    let black = if opening == "h1,2" { "h1,3" } else { "h1,2" };
    let moves = format!("{opening} {black}");
    let v = json(&ok(&[
        "query", "bridgit", "--size", "5", "--moves", &moves, "--json", "--data", dd,
    ]));
    let reply = v["reply"].as_str().unwrap().to_string();
    assert!(reply != opening && reply != black);
    // The pairing answers with the partner: the pair appears in the table.
    let t = json(&ok(&[
        "query", "bridgit", "--size", "5", "--table", "--json", "--data", dd,
    ]));
    let pairs = t["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 20);
    assert!(pairs.iter().any(|p| {
        let p: Vec<&str> = p
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        p == [black, reply.as_str()] || p == [reply.as_str(), black]
    }));
    // Every site but the opening is in exactly one pair.
    let mut sites: Vec<&str> = pairs
        .iter()
        .flat_map(|p| p.as_array().unwrap().iter().map(|x| x.as_str().unwrap()))
        .collect();
    sites.push(opening.as_str());
    sites.sort_unstable();
    sites.dedup();
    assert_eq!(sites.len(), 41);
    let moves3 = format!("{opening} {black} {reply}");
    let v = json(&ok(&[
        "query", "bridgit", "--size", "5", "--moves", &moves3, "--json", "--data", dd,
    ]));
    assert!(v["reply"].is_null());
    for (moves, expect) in [
        (black.to_string(), "opens with"),
        (format!("{opening} zz"), "no site"),
        (format!("{opening} {opening}"), "already taken"),
        (format!("{opening} {black} {black}"), "strategy answered"),
    ] {
        let e = fails(&[
            "query", "bridgit", "--size", "5", "--moves", &moves, "--data", dd,
        ]);
        assert!(e.contains(expect), "{moves}: {e}");
    }
    // The tree strategy answers through the same replay.
    let v = json(&ok(&[
        "query",
        "bridgit",
        "--size",
        "5",
        "--strategy",
        "trees",
        "--json",
        "--data",
        dd,
    ]));
    let tree_opening = v["opening"].as_str().unwrap().to_string();
    let black = if tree_opening == "h1,2" {
        "h1,3"
    } else {
        "h1,2"
    };
    let v = json(&ok(&[
        "query",
        "bridgit",
        "--size",
        "5",
        "--strategy",
        "trees",
        "--moves",
        &format!("{tree_opening} {black}"),
        "--json",
        "--data",
        dd,
    ]));
    assert!(v["reply"].is_string());
    let e = fails(&["query", "bridgit", "--size", "4", "--data", dd]);
    assert!(e.contains("bridgit/n04") && e.contains("not found"), "{e}");
    let e = fails(&[
        "query",
        "bridgit",
        "--size",
        "4",
        "--strategy",
        "trees",
        "--data",
        dd,
    ]);
    assert!(
        e.contains("bridgit/trees-n04") && e.contains("not found"),
        "{e}"
    );
    let e = fails(&["query", "bridgit", "--size", "1", "--data", dd]);
    assert!(e.contains("out of range"), "{e}");
}

/// The games chapter's machine (`--strategy text`): it opens with 1,
/// answers by the text's remainder rule in the text's numbers, never
/// loses, and does not notice when it has won: it answers on.
#[test]
fn the_text_machine_answers_by_its_numbers_and_plays_on_after_winning() {
    // Size 5: the printed table's answers, e.g. 2 -> 6 and 10 -> 11.
    let out = stdout(&run_with_input(
        &["play", "bridgit", "--strategy", "text"],
        "2\n10\nquit\n",
    ));
    assert!(out.contains("White opens with 1 ("), "{out}");
    assert!(
        out.contains("you take 2 (") && out.contains("White answers 6 ("),
        "{out}"
    );
    assert!(
        out.contains("you take 10 (") && out.contains("White answers 11 ("),
        "{out}"
    );
    // Black taking the numbers from the top down lets White connect
    // before the board is full; the machine then answers again.
    for n in [3usize, 5] {
        let last = n * n + (n - 1) * (n - 1);
        let moves: String = (2..=last)
            .rev()
            .map(|k| format!("{k}\n"))
            .collect::<String>()
            + "quit\n";
        let size = n.to_string();
        let out = stdout(&run_with_input(
            &["play", "bridgit", "--size", &size, "--strategy", "text"],
            &moves,
        ));
        let won = out
            .find("cannot tell")
            .unwrap_or_else(|| panic!("n = {n}: {out}"));
        assert!(
            out[won..].contains("White answers"),
            "n = {n}: no answer after winning"
        );
        assert!(!out.contains("you win"), "n = {n}: the machine lost");
    }
    // The query answers by the same rule, no table needed.
    let dir = tempfile::tempdir().unwrap();
    let q = json(&ok(&[
        "query",
        "bridgit",
        "--size",
        "4",
        "--strategy",
        "text",
        "--moves",
        "h1,1 h1,2",
        "--data",
        dir.path().to_str().unwrap(),
        "--json",
    ]));
    // h1,2 is number 8 on the size-4 board; the printed N = 4 table answers 9, h2,2.
    assert_eq!(
        (q["opening"].as_str(), q["reply"].as_str()),
        (Some("h1,1"), Some("h2,2")),
        "{q}"
    );
}
