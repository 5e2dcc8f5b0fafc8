//! Winning lines checked by a second rules engine, written apart from
//! `state.rs`: its own layout (cards with a face-up flag), its own deal from
//! the shuffled deck, and the rules as a player would state them. A solver
//! win that this engine rejects is a rules bug in `state.rs` that the
//! solver's own replay could not see.

use nimrod::games::klondike::cards::shuffled;
use nimrod::games::klondike::parse_rules;
use nimrod::games::klondike::solver::{self, Verdict};
use nimrod::games::klondike::state::{Move, Redeal, Rules};

const RED_SUITS: [u8; 2] = [1, 2]; // clubs 0, diamonds 1, hearts 2, spades 3

fn suit_of(c: u8) -> u8 {
    c / 13
}
fn rank_of(c: u8) -> u8 {
    c % 13 + 1
}
fn red(c: u8) -> bool {
    RED_SUITS.contains(&suit_of(c))
}

struct Table {
    /// Each column bottom first: (card, face up).
    columns: Vec<Vec<(u8, bool)>>,
    stock: Vec<u8>, // top = last
    waste: Vec<u8>, // top = last
    home: [u8; 4],
    passes: u32,
}

impl Table {
    fn deal(deal: u64) -> Table {
        let deck = shuffled(deal);
        let mut columns = vec![Vec::new(); 7];
        let mut k = 0;
        for row in 0..7 {
            for (col, pile) in columns.iter_mut().enumerate() {
                if col >= row {
                    pile.push((deck[k], col == row));
                    k += 1;
                }
            }
        }
        Table {
            columns,
            stock: deck[k..].to_vec(),
            waste: Vec::new(),
            home: [0; 4],
            passes: 1,
        }
    }

    fn may_take(&self, to: usize, c: u8) -> Result<(), String> {
        match self.columns[to].last() {
            None if rank_of(c) == 13 => Ok(()),
            None => Err(format!("card {c} into an empty column")),
            Some(&(_, false)) => Err("onto a face-down card".into()),
            Some(&(t, true)) if rank_of(t) == rank_of(c) + 1 && red(t) != red(c) => Ok(()),
            Some(&(t, true)) => Err(format!("card {c} onto card {t}")),
        }
    }

    fn may_go_home(&self, c: u8) -> Result<(), String> {
        if self.home[suit_of(c) as usize] + 1 == rank_of(c) {
            Ok(())
        } else {
            Err(format!("card {c} home out of order"))
        }
    }

    fn turn_up(&mut self, col: usize) {
        if let Some(last) = self.columns[col].last_mut() {
            last.1 = true;
        }
    }

    fn play(&mut self, m: Move, rules: &Rules) -> Result<(), String> {
        match m {
            Move::Deal => {
                if self.stock.is_empty() {
                    return Err("deal from an empty stock".into());
                }
                for _ in 0..rules.draw {
                    if let Some(c) = self.stock.pop() {
                        self.waste.push(c);
                    }
                }
            }
            Move::Redeal => {
                let allowed = match rules.redeal {
                    Redeal::None => false,
                    Redeal::Passes(n) => self.passes < n,
                    Redeal::Unlimited => true,
                };
                if !self.stock.is_empty() || self.waste.is_empty() || !allowed {
                    return Err("turning the waste over is not allowed here".into());
                }
                self.stock = self.waste.drain(..).rev().collect();
                self.passes += 1;
            }
            Move::WasteToFoundation => {
                let c = *self.waste.last().ok_or("empty waste")?;
                self.may_go_home(c)?;
                self.waste.pop();
                self.home[suit_of(c) as usize] += 1;
            }
            Move::WasteToColumn(to) => {
                let c = *self.waste.last().ok_or("empty waste")?;
                self.may_take(to as usize, c)?;
                self.waste.pop();
                self.columns[to as usize].push((c, true));
            }
            Move::ColumnToFoundation(from) => {
                let &(c, up) = self.columns[from as usize].last().ok_or("empty column")?;
                if !up {
                    return Err("a face-down card home".into());
                }
                self.may_go_home(c)?;
                self.columns[from as usize].pop();
                self.home[suit_of(c) as usize] += 1;
                self.turn_up(from as usize);
            }
            Move::ColumnToColumn { from, to, count } => {
                let (from, to, count) = (from as usize, to as usize, count as usize);
                if from == to || count == 0 || count > self.columns[from].len() {
                    return Err("no such group".into());
                }
                let at = self.columns[from].len() - count;
                let group: Vec<(u8, bool)> = self.columns[from][at..].to_vec();
                if group.iter().any(|&(_, up)| !up) {
                    return Err("moving a face-down card".into());
                }
                for pair in group.windows(2) {
                    let (a, b) = (pair[0].0, pair[1].0);
                    if rank_of(a) != rank_of(b) + 1 || red(a) == red(b) {
                        return Err("moving a group that is not a built sequence".into());
                    }
                }
                self.may_take(to, group[0].0)?;
                self.columns[from].truncate(at);
                self.columns[to].extend(group);
                self.turn_up(from);
            }
            Move::FoundationToColumn { suit, to } => {
                if !rules.worry_back {
                    return Err("worrying back is not allowed".into());
                }
                let n = self.home[suit as usize];
                if n == 0 {
                    return Err("empty foundation".into());
                }
                let c = suit * 13 + n - 1;
                self.may_take(to as usize, c)?;
                self.home[suit as usize] -= 1;
                self.columns[to as usize].push((c, true));
            }
        }
        Ok(())
    }
}

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
            let Verdict::Won(line) = solver::solve(deal, &rules, 200_000).verdict else {
                continue;
            };
            let mut t = Table::deal(deal);
            for (i, &m) in line.iter().enumerate() {
                if let Err(e) = t.play(m, &rules) {
                    panic!("{text} deal {deal}, move {i} ({m:?}): {e}");
                }
            }
            assert_eq!(t.home, [13; 4], "{text} deal {deal}: the line does not win");
            won += 1;
        }
        assert!(won >= 3, "{text}: only {won} wins to check");
        checked += won;
    }
    eprintln!("{checked} winning lines legal under the second engine");
}
