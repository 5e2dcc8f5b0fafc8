//! `nimrod play bridgit`: you play Black against White's winning strategy
//! (the pairing, or Lehman's two spanning trees), on a drawn board. The
//! strategy is built and proved (its structural check, or the trees'
//! spanning check) before the first move, so the machine never loses.

use super::board::{Board, Player};
use super::pairing::Pairing;
use super::query::Kind;
use super::strategy::{Position, Strategy};
use super::trees::TreeStrategy;
use crate::games::query::read_answer;
use anyhow::{bail, ensure, Result};
use std::io::{BufRead, Write};

/// The largest board `play bridgit` draws.
pub const MAX_PLAY_SIZE: usize = 12;

/// `nimrod play bridgit`.
#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        about = "Play Bridg-it as Black against White's winning strategy",
        after_help = "Examples:\n  nimrod play bridgit\n  nimrod play bridgit --size 3 --strategy trees\n\nWhite (o) joins left to right and moves first; you are Black (•), joining\ntop to bottom. Name a free site by number or label (h1,2 or v2,1); 'quit'\nends the game."
    )
)]
#[derive(Clone, Debug, PartialEq)]
pub struct BridgitPlay {
    /// Board size n (the commercial board is 5), 2 to 12.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 5))]
    pub size: usize,
    /// White's strategy.
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value = "pairing"))]
    pub strategy: Kind,
}

/// The command line's defaults, so that a library caller's
/// `BridgitPlay { .., ..Default::default() }` asks what the command would.
impl Default for BridgitPlay {
    fn default() -> Self {
        BridgitPlay {
            size: 5,
            strategy: Kind::Pairing,
        }
    }
}

/// The board drawn: White's dots o, Black's •, free sites ·, White's
/// bridges = and ‖, Black's | and -.
fn draw(b: &Board, p: &Position) -> String {
    let n = b.n;
    let mut grid = super::board::dot_grid(n);
    for s in 0..b.sites() {
        let (x, y) = b.coords[s];
        let white_horizontal = x % 2 == 1;
        grid[y][x] = match (p.white[s], p.black[s], white_horizontal) {
            (true, _, true) => '=',
            (true, _, false) => '‖',
            (_, true, true) => '|',
            (_, true, false) => '-',
            _ => '·',
        };
    }
    grid.iter()
        .map(|row| {
            let line: String = row.iter().flat_map(|&c| [c, ' ']).collect();
            format!("  {}", line.trim_end())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn free_sites(b: &Board, p: &Position) -> String {
    (0..b.sites())
        .filter(|&s| p.is_free(s))
        .map(|s| format!("{}:{}", s + 1, b.labels[s]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How sites are named to the player: our site numbers, or the text
/// machine's numbers (`numbers[k - 1]` is the site of number k), with which
/// the machine, as the text says, does not notice that it has won.
enum Names<'a> {
    Sites,
    Text(&'a [usize]),
}

impl Names<'_> {
    fn name(&self, b: &Board, site: usize) -> String {
        match self {
            Names::Sites => b.labels[site].clone(),
            Names::Text(numbers) => {
                let k = numbers
                    .iter()
                    .position(|&s| s == site)
                    .expect("every site numbered")
                    + 1;
                format!("{k} ({})", b.labels[site])
            }
        }
    }

    fn parse(&self, b: &Board, line: &str) -> Option<usize> {
        match self {
            Names::Text(numbers) => match line.parse::<usize>() {
                Ok(k) => numbers.get(k.checked_sub(1)?).copied(),
                Err(_) => b.parse_site(line),
            },
            Names::Sites => b.parse_site(line),
        }
    }
}

fn run(b: &Board, s: &impl Strategy, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    run_named(b, s, &Names::Sites, input, out)
}

fn run_named(
    b: &Board,
    s: &impl Strategy,
    names: &Names,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let mut p = Position::start(b, s);
    writeln!(out, "White opens with {}", names.name(b, s.opening()))?;
    let mut noticed = false;
    loop {
        writeln!(out, "{}", draw(b, &p))?;
        match p.winner(b) {
            Some(Player::White) if matches!(names, Names::Text(_)) => {
                if !noticed {
                    writeln!(
                        out,
                        "White has joined left to right and won, but the text's machine cannot tell: it answers on by its table"
                    )?;
                    noticed = true;
                }
                if (0..b.sites()).all(|x| !p.is_free(x)) {
                    writeln!(out, "the board is full: the machine won")?;
                    return Ok(());
                }
            }
            Some(Player::White) => {
                writeln!(out, "White has joined left to right: the machine wins")?;
                return Ok(());
            }
            Some(Player::Black) => {
                writeln!(out, "you have joined top to bottom: you win")?;
                return Ok(());
            }
            None => {}
        }
        match names {
            Names::Sites => writeln!(out, "free: {}", free_sites(b, &p))?,
            Names::Text(numbers) => writeln!(
                out,
                "free: {}",
                numbers
                    .iter()
                    .filter(|&&x| p.is_free(x))
                    .map(|&x| names.name(b, x))
                    .collect::<Vec<_>>()
                    .join(" ")
            )?,
        }
        let line = read_answer(input, out, "your site> ", "bridgit")?;
        let line = line.as_str();
        if line == "quit" || line == "q" {
            writeln!(out, "you resign")?;
            return Ok(());
        }
        let Some(site) = names.parse(b, line) else {
            writeln!(
                out,
                "illegal: no site \"{line}\" (1..={} or a label such as {})",
                b.sites(),
                b.labels[0]
            )?;
            continue;
        };
        if !p.is_free(site) {
            writeln!(out, "illegal: {} is taken", names.name(b, site))?;
            continue;
        }
        match p.black_moves(b, s, site) {
            Some(reply) => writeln!(
                out,
                "you take {}; White answers {}",
                names.name(b, site),
                names.name(b, reply)
            )?,
            None => writeln!(out, "you take {}; no site is left", names.name(b, site))?,
        }
    }
}

pub(super) fn play(q: &BridgitPlay, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    ensure!(
        (2..=MAX_PLAY_SIZE).contains(&q.size),
        "play bridgit: --size {} is out of range (2..={MAX_PLAY_SIZE})",
        q.size
    );
    let b = Board::new(q.size);
    match q.strategy {
        Kind::Pairing => {
            let s = Pairing::staircase(&b);
            ensure!(
                s.structural_check(&b).blocked,
                "play bridgit: the pairing of size {} fails its proof",
                q.size
            );
            run(&b, &s, input, out)
        }
        Kind::Trees => {
            let Some(s) = TreeStrategy::find(&b).filter(|s| s.check(&b)) else {
                bail!(
                    "play bridgit: no proved pair of spanning trees for size {}",
                    q.size
                );
            };
            run(&b, &s, input, out)
        }
        Kind::Text => {
            let m = super::text::machine(&b);
            ensure!(
                m.is_well_formed(&b) && m.structural_check(&b).blocked,
                "play bridgit: the text's machine of size {} fails its proof",
                q.size
            );
            let numbers = super::text::numbering(&b);
            writeln!(
                out,
                "the games chapter's machine: crossings go by its numbers 1 to {}; name yours by number",
                numbers.len()
            )?;
            run_named(&b, &m, &Names::Text(&numbers), input, out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_shows_each_bridge_where_it_is_drawn() {
        let b = Board::new(2);
        let s = Pairing::staircase(&b);
        let mut p = Position::start(&b, &s);
        let free = (0..b.sites()).find(|&x| p.is_free(x)).unwrap();
        let reply = p.black_moves(&b, &s, free).unwrap();
        let d = draw(&b, &p);
        assert_eq!(d.matches(['=', '‖']).count(), 2, "{d}");
        assert_eq!(d.matches(['|', '-']).count(), 1, "{d}");
        assert_eq!(d.matches('·').count(), b.sites() - 3, "{d}");
        assert!(!p.is_free(reply));
    }
}
