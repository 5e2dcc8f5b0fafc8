//! `nimrod play` against the machines of the texts, scripted through
//! standard input.

mod common;
use common::*;

fn play(args: &[&str], input: &str) -> (bool, String, String) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let o = run_with_input(&all, input);
    (o.status.success(), stdout(&o), stderr(&o))
}

#[test]
fn nim_the_machine_wins_from_an_unsafe_start_and_refuses_illegal_moves() {
    // 1 3 5 7 is safe: moving first, the human loses whatever they do if
    // the machine plays on; the script makes arbitrary legal moves and
    // the machine must take the last token.
    let script =
        "1:1\n".to_string() + &"4:1\n2:1\n3:1\n4:1\n3:1\n2:1\n4:1\n3:1\n4:1\n3:1\n4:1\n".repeat(2);
    let (ok, out, err) = play(&["nim", "1", "3", "5", "7", "--seed", "5"], &script);
    assert!(
        out.contains("no tokens left: the machine wins"),
        "{out}\n{err}"
    );
    assert!(ok, "{err}");
    // An illegal move is refused with its reason and asked again.
    let (_, out, _) = play(&["nim", "3", "4", "5"], "2:9\n9:1\n1:x\nquit\n");
    assert!(out.contains("illegal: heap 2 has only 4"), "{out}");
    assert!(
        out.contains("illegal: heap \"9\" is not one of 1..3"),
        "{out}"
    );
    assert!(out.contains("illegal: take \"x\""), "{out}");
    assert!(out.contains("you resign"), "{out}");
}

#[test]
fn nim_from_a_safe_position_the_machine_takes_one_from_the_largest_heap() {
    // 1 2 3 is safe for the player to move: the machine, first, takes one
    // from the largest heap (the 3rd), as NIMROD did.
    let (_, out, _) = play(&["nim", "1", "2", "3", "--machine-first"], "quit\n");
    assert!(out.contains("machine takes 1 from heap 3"), "{out}");
}

#[test]
fn nim_misere_and_nim_k_end_by_their_own_rules() {
    // Misère 1 1: the human takes one, the machine must take the last and lose.
    let (ok, out, _) = play(&["nim", "1", "1", "--misere"], "1:1\n");
    assert!(ok, "{out}");
    assert!(out.contains("machine takes 1 from heap 2"), "{out}");
    assert!(out.contains("no tokens left: you win"), "{out}");
    // Nim_2 from 1 1 1 is safe (each binary column sums to 0 mod 3): the
    // human moves first, takes from two heaps in one move (legal for
    // k = 2), and the machine takes the last token.
    let (ok, out, _) = play(&["nim", "1", "1", "1", "--k", "2"], "1:1 2:1\n");
    assert!(ok, "{out}");
    assert!(
        out.contains("you take 1 from heap 1, 1 from heap 2"),
        "{out}"
    );
    assert!(out.contains("machine takes 1 from heap 3"), "{out}");
    assert!(out.contains("the machine wins"), "{out}");
    // From 1 1 (unsafe for k = 2) the machine, first, takes both at once.
    let (ok, out, _) = play(&["nim", "1", "1", "--k", "2", "--machine-first"], "");
    assert!(ok, "{out}");
    assert!(
        out.contains("machine takes 1 from heap 1, 1 from heap 2"),
        "{out}"
    );
    // Misère Nim_2 from 1 1 2: the machine, first, leaves 0 1 0 or 1 0 0
    // (one token: the human must take it and loses).
    let (ok, out, _) = play(
        &[
            "nim",
            "1",
            "1",
            "2",
            "--k",
            "2",
            "--misere",
            "--machine-first",
        ],
        "1:1\n2:1\n",
    );
    assert!(ok, "{out}");
    assert!(out.contains("misère Nim_2"), "{out}");
    assert!(out.contains("the machine wins"), "{out}");
}

#[test]
fn guessit_a_seeded_game_is_the_same_game_and_refuses_illegal_moves() {
    // Seed 3 deals you 3 and 5; the machine holds 1 and 2; 4 is hidden.
    let (ok, out, err) = play(
        &["guessit", "--mine", "2", "--theirs", "2", "--seed", "3"],
        "ask 9\nask 1\nask 1\ncall\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("your hand: 3 5   machine: 2 card(s)"), "{out}");
    assert!(out.contains("illegal: the cards are 1 to 5"), "{out}");
    assert!(out.contains("you asked for 1: yes, it is shown"), "{out}");
    // The machine's honest ask for the hidden card, called: you win, and
    // only now is its hand shown.
    assert!(out.contains("the machine asks for 4"), "{out}");
    assert!(
        out.contains("illegal: \"ask 1\" is neither call nor pass"),
        "{out}"
    );
    assert!(out.contains("you called 4 the hidden card: right"), "{out}");
    assert!(
        out.contains("hidden card 4; the machine held 2\nyou win"),
        "{out}"
    );
    assert_eq!(out.matches("the machine held").count(), 1, "{out}");
    // Passing instead lets the machine name it.
    let (ok, out, _) = play(
        &["guessit", "--mine", "2", "--theirs", "2", "--seed", "3"],
        "ask 1\npass\n",
    );
    assert!(ok);
    assert!(
        out.contains("you passed: 4 is the hidden card, and the machine names it"),
        "{out}"
    );
    assert!(out.contains("the machine wins"), "{out}");
    // Hand sizes are bounded.
    let (ok, _, err) = play(&["guessit", "--mine", "11"], "");
    assert!(
        !ok && err.contains("--mine and --theirs must be 1 to 10"),
        "{err}"
    );
}

#[test]
fn ttt_against_the_perfect_machine_and_in_the_fifteen_disguise() {
    // Centre, then refused moves, then a corner: the perfect machine (seed
    // 1961) answers and wins when X leaves a line open.
    let (ok, out, err) = play(&["ttt"], "5\n5\n1\n3\n8\n");
    assert!(ok, "{err}");
    assert!(out.contains("illegal: cell 5 is taken"), "{out}");
    assert!(out.contains("illegal: cell 1 is taken"), "{out}");
    assert!(out.contains("the machine wins"), "{out}");
    assert!(!out.contains("you win"), "{out}");
    // The 15 game: picks are numbers, and the machine answers in numbers.
    let (_, out, _) = play(
        &["ttt", "--fifteen", "--machine", "product"],
        "2\n4\n9\nquit\n",
    );
    assert!(out.contains("left: [1 2 3 4 5 6 7 8 9]"), "{out}");
    assert!(out.contains("the machine picks "), "{out}");
    assert!(out.contains("illegal: 9 has been picked"), "{out}");
    assert!(out.contains("you resign"), "{out}");
}

#[test]
fn ttt_menace_plays_first_after_its_training() {
    let (ok, out, _) = play(
        &[
            "ttt",
            "--machine",
            "menace",
            "--machine-first",
            "--menace-games",
            "50",
        ],
        "1\n2\n3\n4\n",
    );
    assert!(ok, "{out}");
    // Its record over the training games adds up to them.
    let line = out
        .lines()
        .find(|l| l.starts_with("MENACE trained for 50 games"))
        .expect(&out);
    let n: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(n[0], 50, "{line}");
    assert_eq!(n[1] + n[2] + n[3], 50, "{line}");
    // MENACE plays X only: it moves first without being told (it used to
    // refuse to start without --machine-first).
    let (ok, out, err) = play(
        &["ttt", "--machine", "menace", "--menace-games", "50"],
        "quit\n",
    );
    assert!(ok && out.contains("you play O"), "{out}{err}");
    let (ok, _, err) = play(
        &[
            "ttt",
            "--machine",
            "menace",
            "--machine-first",
            "--menace-games",
            "2000000",
        ],
        "",
    );
    assert!(
        !ok && err.contains("--menace-games 2000000 is above"),
        "{err}"
    );
}

#[test]
fn bridgit_white_wins_whatever_black_does_and_taken_sites_are_refused() {
    // Black names every site in order, taken ones refused and skipped:
    // under either strategy White connects first.
    let script: String = (1..=25).map(|s| format!("{s}\n")).collect();
    for strategy in ["pairing", "trees"] {
        let (ok, out, err) = play(&["bridgit", "--size", "3", "--strategy", strategy], &script);
        assert!(ok, "{strategy}: {err}");
        assert!(out.contains("White opens with "), "{out}");
        assert!(out.contains("is taken"), "{out}");
        assert!(out.contains("the machine wins"), "{strategy}: {out}");
        assert!(!out.contains("you win"), "{strategy}: {out}");
    }
    let (ok, out, _) = play(&["bridgit", "--size", "2"], "x\nquit\n");
    assert!(ok);
    assert!(out.contains("illegal: no site \"x\""), "{out}");
    let (ok, _, err) = play(&["bridgit", "--size", "13"], "");
    assert!(!ok && err.contains("--size 13 is out of range"), "{err}");
}

#[test]
fn ttt_defensive_machine_falls_into_its_loophole_about_once_in_three() {
    // Row-major cells: the opponent takes corner 1, the machine the
    // centre 5; the opponent's 6 is the far edge (the text's cells 1, 9
    // and 4). The machine's equal plays are 3, 9 and 4 (text 3, 5, 8);
    // after 4 the opponent forks at 3 and wins.
    let mut replies = std::collections::BTreeMap::new();
    for seed in 1..=40 {
        let seed = seed.to_string();
        let (ok, out, err) = play(
            &["ttt", "--machine", "defensive", "--seed", &seed],
            "1\n6\n3\n2\n9\nquit\n",
        );
        assert!(ok, "{err}");
        let plays: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("the machine plays "))
            .collect();
        assert_eq!(plays[0], "5", "{out}");
        let reply = plays[1].to_string();
        assert!(["3", "9", "4"].contains(&reply.as_str()), "{out}");
        assert_eq!(out.contains("you win"), reply == "4", "seed {seed}: {out}");
        *replies.entry(reply).or_insert(0) += 1;
    }
    assert_eq!(replies.len(), 3, "{replies:?}");
    let (ok, _, err) = play(&["ttt", "--machine", "defensive", "--machine-first"], "");
    assert!(!ok && err.contains("plays second"), "{err}");
}
