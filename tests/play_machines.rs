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
    // Misère Nim_k is refused, as the query refuses it.
    let (ok, _, err) = play(&["nim", "1", "2", "--k", "2", "--misere"], "");
    assert!(
        !ok && err.contains("misère play is only supported for k = 1"),
        "{err}"
    );
}
