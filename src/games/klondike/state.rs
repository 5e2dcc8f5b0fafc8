//! Klondike rules: seven columns (face-down cards under a face-up run), the
//! stock and waste, four foundations built up by suit. Draw one or three;
//! the stock may be turned over a limited or unlimited number of times.

use super::cards::{is_red, name, rank, shuffled, suit, Card};
pub use super::pile::Pile;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
/// How often the stock may be gone through.
pub enum Redeal {
    /// One pass through the stock.
    None,
    /// This many passes in all.
    Passes(u32),
    /// Any number of passes.
    Unlimited,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
/// A Klondike rule set.
pub struct Rules {
    /// Cards dealt from the stock at a time: 1 or 3.
    pub draw: u8,
    /// Passes through the stock allowed.
    pub redeal: Redeal,
    /// Whether a card may come back from its foundation onto a column.
    pub worry_back: bool,
}

impl Rules {
    /// The rule set in words ("draw 3, unlimited redeals").
    pub fn label(&self) -> String {
        let r = match self.redeal {
            Redeal::None => "no redeal".to_string(),
            Redeal::Passes(n) => format!("{n} passes"),
            Redeal::Unlimited => "unlimited redeals".to_string(),
        };
        let worry = if self.worry_back {
            ""
        } else {
            ", no worrying back"
        };
        format!("draw {}, {r}{worry}", self.draw)
    }

    /// Whether another pass may start after `passes` passes.
    pub fn may_redeal(&self, passes: u32) -> bool {
        match self.redeal {
            Redeal::None => false,
            Redeal::Passes(n) => passes < n,
            Redeal::Unlimited => true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// A move of the rules engine.
pub enum Move {
    /// Deal from the stock onto the waste.
    Deal,
    /// Turn the waste over into a new stock (a new pass).
    Redeal,
    /// The waste's top card to its foundation.
    WasteToFoundation,
    /// The waste's top card onto a column.
    WasteToColumn(u8),
    /// A column's top card to its foundation.
    ColumnToFoundation(u8),
    /// The top `count` cards of column `from` onto column `to`.
    ColumnToColumn {
        /// The column the cards leave (0..7).
        from: u8,
        /// The column they go onto.
        to: u8,
        /// How many cards move.
        count: u8,
    },
    /// A foundation's top card onto column `to`.
    FoundationToColumn {
        /// The foundation's suit (0 clubs, 1 diamonds, 2 hearts, 3 spades).
        suit: u8,
        /// The column it goes onto.
        to: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// A Klondike position.
pub struct State {
    /// The columns, bottom first (face-down cards first).
    pub columns: [Pile; 7],
    /// Face-down cards at the bottom of each column.
    pub hidden: [u8; 7],
    /// Top is the last card.
    pub stock: Pile,
    /// The waste; its top is the last card.
    pub waste: Pile,
    /// Cards home per suit.
    pub foundations: [u8; 4],
    /// Passes through the stock begun so far (1 at the start).
    pub passes: u32,
}

/// Whether `c` may go on a column whose top card is `onto` (None: empty).
pub fn stacks(c: Card, onto: Option<Card>) -> bool {
    match onto {
        None => rank(c) == 13,
        Some(o) => rank(o) == rank(c) + 1 && is_red(o) != is_red(c),
    }
}

impl State {
    /// Deal `deal` of our numbering.
    pub fn deal(deal: u64) -> State {
        State::from_deck(&shuffled(deal))
    }

    /// A deck dealt our way (see `cards`).
    pub fn from_deck(deck: &[Card; 52]) -> State {
        let mut columns: [Pile; 7] = Default::default();
        let mut next = 0;
        for row in 0..7 {
            for col in columns.iter_mut().skip(row) {
                col.push(deck[next]);
                next += 1;
            }
        }
        let hidden = std::array::from_fn(|i| i as u8);
        State {
            columns,
            hidden,
            stock: deck[next..].iter().copied().collect(),
            waste: Pile::new(),
            foundations: [0; 4],
            passes: 1,
        }
    }

    /// `line` played from deal `deal`, each move checked to be legal where
    /// it is played: the position it ends in, or which move is not legal.
    pub fn replay(deal: u64, rules: &Rules, line: &[Move]) -> Result<State, ReplayError> {
        State::deal(deal)
            .replay_from(rules, line)
            .map_err(|e| ReplayError {
                deal: Some(deal),
                ..e
            })
    }

    /// `line` played from this position, each move checked to be legal
    /// where it is played (see `replay`).
    pub fn replay_from(mut self, rules: &Rules, line: &[Move]) -> Result<State, ReplayError> {
        let mut legal = Vec::new();
        for (i, &m) in line.iter().enumerate() {
            self.legal_moves(rules, &mut legal);
            if !legal.contains(&m) {
                return Err(ReplayError {
                    deal: None,
                    index: i,
                    illegal: m,
                });
            }
            self.apply(m, rules);
        }
        Ok(self)
    }

    /// Whether every card is home.
    pub fn is_won(&self) -> bool {
        self.foundations.iter().all(|&f| f == 13)
    }

    /// Cards home.
    pub fn home(&self) -> u32 {
        self.foundations.iter().map(|&f| f as u32).sum()
    }

    /// Column `col`'s top card, if any.
    pub fn top(&self, col: usize) -> Option<Card> {
        self.columns[col].last().copied()
    }

    /// The face-up run of a column, bottom first.
    pub fn run(&self, col: usize) -> &[Card] {
        &self.columns[col][self.hidden[col] as usize..]
    }

    /// Whether `c` is the next card of its foundation.
    pub fn to_foundation(&self, c: Card) -> bool {
        self.foundations[suit(c) as usize] + 1 == rank(c)
    }

    /// Every legal move (the solver's move set; the greedy player picks
    /// from these by its own rules).
    pub fn legal_moves(&self, rules: &Rules, out: &mut Vec<Move>) {
        out.clear();
        if let Some(&w) = self.waste.last() {
            if self.to_foundation(w) {
                out.push(Move::WasteToFoundation);
            }
            for to in 0..7 {
                if stacks(w, self.top(to)) {
                    out.push(Move::WasteToColumn(to as u8));
                }
            }
        }
        for from in 0..7 {
            if let Some(c) = self.top(from) {
                if self.to_foundation(c) {
                    out.push(Move::ColumnToFoundation(from as u8));
                }
            }
            let run = self.run(from);
            for (i, &c) in run.iter().enumerate() {
                let count = (run.len() - i) as u8;
                for to in 0..7 {
                    if to != from && stacks(c, self.top(to)) {
                        // A king from the bottom of a column to an empty one
                        // changes nothing.
                        if self.columns[to].is_empty() && i == 0 && self.hidden[from] == 0 {
                            continue;
                        }
                        out.push(Move::ColumnToColumn {
                            from: from as u8,
                            to: to as u8,
                            count,
                        });
                    }
                }
            }
        }
        for s in 0..4u8 {
            let f = self.foundations[s as usize];
            if f > 0 && rules.worry_back {
                let c = s * 13 + f - 1;
                // Solvitaire's rule: a king may come back into an empty column.
                for to in 0..7 {
                    if stacks(c, self.top(to)) {
                        out.push(Move::FoundationToColumn {
                            suit: s,
                            to: to as u8,
                        });
                    }
                }
            }
        }
        if !self.stock.is_empty() {
            out.push(Move::Deal);
        } else if !self.waste.is_empty() && rules.may_redeal(self.passes) {
            out.push(Move::Redeal);
        }
    }

    fn flip(&mut self, col: usize) {
        if self.hidden[col] as usize == self.columns[col].len() && self.hidden[col] > 0 {
            self.hidden[col] -= 1;
        }
    }

    /// Plays a legal move.
    pub fn apply(&mut self, m: Move, rules: &Rules) {
        match m {
            Move::Deal => {
                for _ in 0..rules.draw {
                    if let Some(c) = self.stock.pop() {
                        self.waste.push(c);
                    }
                }
            }
            Move::Redeal => {
                self.stock = self.waste.iter().rev().copied().collect();
                self.waste.clear();
                self.passes += 1;
            }
            Move::WasteToFoundation => {
                let c = self.waste.pop().expect("legal move");
                self.foundations[suit(c) as usize] += 1;
            }
            Move::WasteToColumn(to) => {
                let c = self.waste.pop().expect("legal move");
                self.columns[to as usize].push(c);
            }
            Move::ColumnToFoundation(from) => {
                let c = self.columns[from as usize].pop().expect("legal move");
                self.foundations[suit(c) as usize] += 1;
                self.flip(from as usize);
            }
            Move::ColumnToColumn { from, to, count } => {
                let f = &mut self.columns[from as usize];
                let moved = *f;
                let keep = f.len() - count as usize;
                f.truncate(keep);
                self.columns[to as usize].extend_from_slice(&moved[keep..]);
                self.flip(from as usize);
            }
            Move::FoundationToColumn { suit: s, to } => {
                let f = &mut self.foundations[s as usize];
                let c = s * 13 + *f - 1;
                *f -= 1;
                self.columns[to as usize].push(c);
            }
        }
    }

    /// A move in words, read before it is played.
    pub fn describe(&self, m: Move) -> String {
        let col = |c: u8| c + 1;
        match m {
            Move::Deal => match self.stock.len() {
                0 => "deal (stock empty)".into(),
                _ => "deal from the stock".into(),
            },
            Move::Redeal => "turn the waste over (new pass)".into(),
            Move::WasteToFoundation => format!("{} waste -> foundation", self.waste_name()),
            Move::WasteToColumn(to) => format!("{} waste -> column {}", self.waste_name(), col(to)),
            Move::ColumnToFoundation(from) => format!(
                "{} column {} -> foundation",
                self.top(from as usize).map_or("?".into(), name),
                col(from)
            ),
            Move::ColumnToColumn { from, to, count } => {
                let f = &self.columns[from as usize];
                format!(
                    "{} column {} -> column {}{}",
                    name(f[f.len() - count as usize]),
                    col(from),
                    col(to),
                    if count > 1 {
                        format!(" ({count} cards)")
                    } else {
                        String::new()
                    }
                )
            }
            Move::FoundationToColumn { suit: s, to } => format!(
                "{} foundation -> column {}",
                name(s * 13 + self.foundations[s as usize] - 1),
                col(to)
            ),
        }
    }

    fn waste_name(&self) -> String {
        self.waste.last().map_or("?".into(), |&c| name(c))
    }

    /// The layout in text: foundations, stock and waste, then the columns
    /// with face-down cards as "##" (all shown when `open`).
    pub fn render(&self, open: bool) -> String {
        let mut s = String::new();
        let f: Vec<String> = (0..4u8)
            .map(|su| match self.foundations[su as usize] {
                0 => "--".into(),
                n => name(su * 13 + n - 1),
            })
            .collect();
        s.push_str(&format!(
            "foundations {}   stock {} cards   waste {}   pass {}\n",
            f.join(" "),
            self.stock.len(),
            self.waste.last().map_or("--".into(), |&c| name(c)),
            self.passes
        ));
        for (i, col) in self.columns.iter().enumerate() {
            let cards: Vec<String> = col
                .iter()
                .enumerate()
                .map(|(j, &c)| {
                    if j < self.hidden[i] as usize && !open {
                        "##".into()
                    } else if j < self.hidden[i] as usize {
                        format!("({})", name(c))
                    } else {
                        name(c)
                    }
                })
                .collect();
            s.push_str(&format!("  {}: {}\n", i + 1, cards.join(" ")));
        }
        if open {
            let stock: Vec<String> = self.stock.iter().rev().map(|&c| name(c)).collect();
            s.push_str(&format!("  stock (next first): {}\n", stock.join(" ")));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deal_has_the_klondike_shape() {
        let s = State::deal(1);
        for i in 0..7 {
            assert_eq!(s.columns[i].len(), i + 1);
            assert_eq!(s.hidden[i] as usize, i);
        }
        assert_eq!(s.stock.len(), 24);
        let mut all: Vec<Card> = s.columns.iter().flatten().copied().collect();
        all.extend(&s.stock);
        all.sort();
        assert_eq!(all, (0..52).collect::<Vec<Card>>());
    }

    #[test]
    fn draw_three_and_redeal_keep_the_order() {
        let rules = Rules {
            draw: 3,
            redeal: Redeal::Passes(2),
            worry_back: true,
        };
        let mut s = State::deal(7);
        let before = s.stock;
        while !s.stock.is_empty() {
            s.apply(Move::Deal, &rules);
        }
        assert_eq!(s.waste.len(), 24);
        let mut moves = Vec::new();
        s.legal_moves(&rules, &mut moves);
        assert!(moves.contains(&Move::Redeal));
        s.apply(Move::Redeal, &rules);
        assert_eq!(s.stock, before);
        assert_eq!(s.passes, 2);
        while !s.stock.is_empty() {
            s.apply(Move::Deal, &rules);
        }
        s.legal_moves(&rules, &mut moves);
        assert!(!moves.contains(&Move::Redeal), "only two passes");
    }
}

/// A line that does not replay: the first move not legal where it is played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}move {index} ({illegal:?}) is not legal", deal.map(|d| format!("deal {d}: ")).unwrap_or_default())]
pub struct ReplayError {
    /// The deal replayed from, if from a deal.
    pub deal: Option<u64>,
    /// The move's place in the line, from 0.
    pub index: usize,
    /// The move.
    pub illegal: Move,
}
