//! `nimrod play nim`: a game of Nim against NIMROD's rule. From an unsafe
//! position the machine makes a winning move, chosen at random (seeded)
//! among all of them; from a safe position, where every move loses against
//! correct play, it takes one token from the largest heap and waits for a
//! mistake, as the 1951 machine did. In Moore's Nim_k (normal or misère)
//! it chooses among the winning moves the same way.

use super::{bouton, moore, MAX_HEAPS};
use crate::games::query::read_answer;
use crate::rng::SplitMix64;
use anyhow::Result;
use std::io::{BufRead, Write};

/// The largest heap `play nim` accepts: a human types the moves.
pub const MAX_PLAY_HEAP: u64 = 1_000_000_000;

/// `nimrod play nim HEAPS…`.
#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        about = "Play Nim against NIMROD's rule",
        after_help = "Examples:\n  nimrod play nim 3 4 5\n  nimrod play nim 1 3 5 7 --machine-first --seed 1951\n  nimrod play nim 1 1 2 --misere\n  nimrod play nim 1 3 5 7 11 --k 2\n\nA move is HEAP:TAKE (take 2 from the 3rd heap: 3:2), or for Nim_k up to k\nof them separated by spaces (1:1 4:3); 'quit' ends the game."
    )
)]
#[derive(Clone, Debug, PartialEq)]
pub struct NimPlay {
    /// Heap sizes (1 to 100 heaps, each at most 10^9).
    #[cfg_attr(feature = "cli", arg(required = true))]
    pub heaps: Vec<u64>,
    /// Misère play: whoever takes the last token loses.
    #[cfg_attr(feature = "cli", arg(long))]
    pub misere: bool,
    /// Moore's Nim_k: a move takes from 1 to k heaps.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_PLAY_K)))]
    pub k: u64,
    /// The machine moves first.
    #[cfg_attr(feature = "cli", arg(long))]
    pub machine_first: bool,
    /// Seed for the choice among winning moves.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1951))]
    pub seed: u64,
}

/// The command line's defaults, so that a library caller's
/// `NimPlay { .., ..Default::default() }` asks what the command would.
impl Default for NimPlay {
    fn default() -> Self {
        NimPlay {
            heaps: vec![],
            misere: false,
            k: 1,
            machine_first: false,
            seed: 1951,
        }
    }
}

/// A move as new heap sizes, checked against the rules.
fn parse_move(line: &str, heaps: &[u64], k: usize) -> Result<Vec<u64>, String> {
    let mut next = heaps.to_vec();
    let mut touched = Vec::new();
    for part in line.split_whitespace() {
        let (h, t) = part
            .split_once(':')
            .ok_or_else(|| format!("\"{part}\" is not HEAP:TAKE (like 2:3)"))?;
        let h: usize = h
            .parse()
            .ok()
            .filter(|&h| (1..=heaps.len()).contains(&h))
            .ok_or_else(|| format!("heap \"{h}\" is not one of 1..{}", heaps.len()))?;
        let t: u64 = t
            .parse()
            .ok()
            .filter(|&t| t >= 1)
            .ok_or_else(|| format!("take \"{t}\" is not a number of tokens >= 1"))?;
        if touched.contains(&h) {
            return Err(format!("heap {h} is named twice"));
        }
        if t > heaps[h - 1] {
            return Err(format!("heap {h} has only {}", heaps[h - 1]));
        }
        touched.push(h);
        next[h - 1] -= t;
    }
    if touched.is_empty() {
        return Err("give a move, like 2:3".into());
    }
    if touched.len() > k {
        return Err(format!("a move takes from at most {k} heap(s)"));
    }
    Ok(next)
}

/// The machine's reply: a winning move at random among all (Bouton), or
/// Moore's; from a safe position one token from the largest heap.
fn machine_move(heaps: &[u64], k: usize, misere: bool, rng: &mut SplitMix64) -> Vec<u64> {
    let mut next = heaps.to_vec();
    if k == 1 {
        let wins = bouton::winning_moves(heaps, misere);
        if !wins.is_empty() {
            let (i, to) = wins[rng.below(wins.len() as u64) as usize];
            next[i] = to;
            return next;
        }
    } else {
        match moore::winning_moves(heaps, k, misere, 64) {
            Some((moves, _)) if !moves.is_empty() => {
                return moves[rng.below(moves.len() as u64) as usize].clone();
            }
            Some(_) => {}
            // Too many heap subsets to list: Moore's construction (normal
            // play; in misère play it is right while a heap above 1 stays).
            None => {
                if let Some(w) = moore::winning_move(heaps, k) {
                    if !misere || moore::is_p_misere(&w, k) {
                        return w;
                    }
                }
            }
        }
    }
    // The first of the largest heaps, so the choice is reproducible.
    let largest = (0..heaps.len())
        .max_by_key(|&i| (heaps[i], std::cmp::Reverse(i)))
        .expect("a game has heaps");
    next[largest] -= 1;
    next
}

fn show(heaps: &[u64]) -> String {
    heaps
        .iter()
        .enumerate()
        .map(|(i, h)| format!("{}:{h}", i + 1))
        .collect::<Vec<_>>()
        .join("  ")
}

fn describe(before: &[u64], after: &[u64]) -> String {
    before
        .iter()
        .zip(after)
        .enumerate()
        .filter(|(_, (b, a))| b != a)
        .map(|(i, (b, a))| format!("{} from heap {}", b - a, i + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The largest k of Moore's Nim_k the machine plays.
pub const MAX_PLAY_K: u64 = 64;

pub(super) fn play(p: &NimPlay, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    crate::ensure_input!(
        p.heaps.len() <= MAX_HEAPS,
        "play nim: at most {MAX_HEAPS} heaps"
    );
    crate::ensure_input!(
        p.heaps.iter().all(|&h| h <= MAX_PLAY_HEAP),
        "play nim: a heap may hold at most {MAX_PLAY_HEAP} tokens"
    );
    crate::ensure_input!(
        p.heaps.iter().any(|&h| h > 0),
        "play nim: every heap is empty; there is no game"
    );
    // The command line's range, held for library callers too.
    crate::ensure_input!(
        (1..=MAX_PLAY_K).contains(&p.k),
        "play nim: --k {} is out of range (1 ..= {MAX_PLAY_K})",
        p.k
    );
    let k = (p.k as usize).min(p.heaps.len());
    let mut rng = SplitMix64::new(p.seed);
    let mut heaps = p.heaps.clone();
    let mut human_turn = !p.machine_first;
    let rule = match (p.misere, p.k) {
        (true, 1) => "misère Nim: whoever takes the last token loses".to_string(),
        (true, k) => format!("misère Nim_{k}: take from up to {k} heaps; the last token loses"),
        (false, 1) => "Nim: whoever takes the last token wins".to_string(),
        (false, k) => format!("Moore's Nim_{k}: take from up to {k} heaps; the last token wins"),
    };
    writeln!(out, "{rule}")?;
    loop {
        writeln!(out, "heaps  {}", show(&heaps))?;
        if heaps.iter().all(|&h| h == 0) {
            // The player who just moved took the last token.
            let last_mover_won = !p.misere;
            let human_moved_last = !human_turn;
            let verdict = if last_mover_won == human_moved_last {
                "you win"
            } else {
                "the machine wins"
            };
            writeln!(out, "no tokens left: {verdict}")?;
            return Ok(());
        }
        if !human_turn {
            let next = machine_move(&heaps, k, p.misere, &mut rng);
            writeln!(out, "machine takes {}", describe(&heaps, &next))?;
            heaps = next;
            human_turn = true;
            continue;
        }
        let line = read_answer(input, out, "your move> ", "nim")?;
        let line = line.as_str();
        if line == "quit" || line == "q" {
            writeln!(out, "you resign")?;
            return Ok(());
        }
        match parse_move(line, &heaps, k) {
            Ok(next) => {
                writeln!(out, "you take {}", describe(&heaps, &next))?;
                heaps = next;
                human_turn = false;
            }
            Err(why) => writeln!(out, "illegal: {why}")?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The help once said 64 heaps while 100 were accepted.
    #[cfg(feature = "cli")]
    #[test]
    fn the_help_states_the_heap_count_play_accepts() {
        let help = <NimPlay as clap::CommandFactory>::command()
            .render_long_help()
            .to_string();
        assert!(help.contains(&format!("1 to {MAX_HEAPS} heaps")), "{help}");
        let mut out = Vec::new();
        let too_many = NimPlay {
            heaps: vec![1; MAX_HEAPS + 1],
            misere: false,
            k: 1,
            machine_first: false,
            seed: 1,
        };
        assert!(play(&too_many, &mut &b""[..], &mut out).is_err());
    }

    #[test]
    fn moves_are_checked() {
        let h = [3, 4, 5];
        assert_eq!(parse_move("2:3", &h, 1), Ok(vec![3, 1, 5]));
        assert!(parse_move("2:5", &h, 1).unwrap_err().contains("only 4"));
        assert!(parse_move("4:1", &h, 1).unwrap_err().contains("not one of"));
        assert!(parse_move("1:0", &h, 1).is_err());
        assert!(parse_move("1:1 2:1", &h, 1)
            .unwrap_err()
            .contains("at most 1"));
        assert_eq!(parse_move("1:1 2:1", &h, 2), Ok(vec![2, 3, 5]));
        assert!(parse_move("1:1 1:1", &h, 2).unwrap_err().contains("twice"));
        assert!(parse_move("", &h, 1).is_err());
        assert!(parse_move("x", &h, 1).is_err());
    }

    #[test]
    fn the_machine_wins_from_every_unsafe_position_and_stalls_from_safe_ones() {
        // Against every reply, from every unsafe position of three heaps
        // up to 5, the machine leaves a safe position (checked by brute
        // force, which shares no code with bouton); from a safe one it
        // takes one token from the largest heap.
        let brute = super::super::brute::solve(3, 5, 1, false);
        let mut rng = SplitMix64::new(3);
        for a in 0..=5u64 {
            for b in 0..=5 {
                for c in 0..=5 {
                    let h = [a, b, c];
                    if h == [0, 0, 0] {
                        continue;
                    }
                    let next = machine_move(&h, 1, false, &mut rng);
                    if brute.is_p(&h) {
                        let max = *h.iter().max().unwrap();
                        let i = h.iter().position(|&x| x == max).unwrap();
                        let mut want = h.to_vec();
                        want[i] -= 1;
                        assert_eq!(next, want, "{h:?}");
                    } else {
                        assert!(brute.is_p(&next), "{h:?} -> {next:?}");
                    }
                }
            }
        }
    }
}
