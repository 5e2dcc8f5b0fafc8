//! A second Klondike rules engine, written apart from `state.rs`: its own
//! layout (a column is its cards and a count of face-down ones; the talon
//! is one sequence in dealing order with a split between waste and stock),
//! its own deal from the shuffled deck, its own move list, and the rules as
//! a player would state them. It shares with the solver only the deck
//! (`cards::shuffled`, which defines what deal N is) and the plain data
//! types that name a move and a rule set.
//!
//! Cards: suit · 13 + rank − 1, suits clubs, diamonds, hearts, spades.

use crate::games::klondike::cards::shuffled;
use crate::games::klondike::state::{Move, Redeal, Rules};

/// Cards in a fixed array, so that copying a position allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cards<const N: usize> {
    cards: [u8; N],
    len: u8,
}

impl<const N: usize> Cards<N> {
    fn new() -> Self {
        Cards {
            cards: [0; N],
            len: 0,
        }
    }

    fn from_slice(cards: &[u8]) -> Option<Self> {
        let mut out = Self::new();
        for &c in cards {
            out.push(c).ok()?;
        }
        Some(out)
    }

    fn push(&mut self, c: u8) -> Result<(), Illegal> {
        let slot = self
            .cards
            .get_mut(self.len as usize)
            .ok_or_else(|| Illegal(format!("more than {N} cards in one pile")))?;
        *slot = c;
        self.len += 1;
        Ok(())
    }

    fn pop(&mut self) -> Option<u8> {
        self.len = self.len.checked_sub(1)?;
        Some(self.cards[self.len as usize])
    }

    fn remove(&mut self, at: usize) {
        self.cards.copy_within(at + 1..self.len as usize, at);
        self.len -= 1;
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len as u8);
    }
}

impl<const N: usize> std::ops::Deref for Cards<N> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.cards[..self.len as usize]
    }
}

fn suit_of(c: u8) -> u8 {
    c / 13
}

fn rank_of(c: u8) -> u8 {
    c % 13 + 1
}

fn red(c: u8) -> bool {
    matches!(suit_of(c), 1 | 2)
}

/// A card on the table: seven columns, the talon and the foundations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// Each column bottom first (at most 6 face-down cards under 13).
    pub(super) columns: [Cards<19>; 7],
    /// Face-down cards at the bottom of each column.
    pub(super) down: [u8; 7],
    /// Every talon card in the order the deals bring them up: the waste
    /// from its bottom, then the stock from its top. Dealing and turning
    /// the waste over never change this order, only `dealt`.
    pub(super) talon: Cards<52>,
    /// How many talon cards are in the waste (its top is `talon[dealt-1]`).
    pub(super) dealt: usize,
    /// Cards home per suit.
    pub(super) home: [u8; 4],
    /// Passes through the stock begun (1 at the start).
    pub(super) passes: u32,
}

impl Table {
    /// Deal `deal`: row by row, column c gets c + 1 cards, the last face up;
    /// the other 24 cards make the stock, the deck's last card on top.
    pub fn deal(deal: u64) -> Table {
        Table::from_deck(&shuffled(deal))
    }

    /// The deal of this deck, dealt as [`Table::deal`] deals (any
    /// numbering that gives a 52-card deck: ours, Solvitaire's).
    pub fn from_deck(deck: &[u8; 52]) -> Table {
        let mut columns = [Cards::new(); 7];
        let mut next = 0;
        for row in 0..7 {
            for pile in columns.iter_mut().skip(row) {
                pile.push(deck[next]).expect("seven cards at most");
                next += 1;
            }
        }
        let down = std::array::from_fn(|col| col as u8);
        // The stock's top is the deck's last card, dealt first.
        let rest: Vec<u8> = deck[next..].iter().rev().copied().collect();
        let talon = Cards::from_slice(&rest).expect("24 cards");
        Table {
            columns,
            down,
            talon,
            dealt: 0,
            home: [0; 4],
            passes: 1,
        }
    }

    #[cfg(any(test, feature = "internals"))]
    /// A position given by its parts: each column bottom first with its
    /// count of face-down cards, the talon in dealing order (waste bottom
    /// first, then the stock from its top) with `dealt` of it in the waste,
    /// the cards home per suit, and the passes begun. None when the parts
    /// do not make a position (a card twice or missing, a count too big).
    pub fn from_parts(
        columns: [Vec<u8>; 7],
        down: [u8; 7],
        talon: Vec<u8>,
        dealt: usize,
        home: [u8; 4],
        passes: u32,
    ) -> Option<Table> {
        let mut seen = [false; 52];
        let home_cards = (0..4u8).flat_map(|s| (0..home[s as usize]).map(move |r| s * 13 + r));
        for c in columns
            .iter()
            .flatten()
            .copied()
            .chain(talon.iter().copied())
            .chain(home_cards)
        {
            if c >= 52 || std::mem::replace(&mut seen[c as usize], true) {
                return None;
            }
        }
        let counts_fit = (0..7).all(|c| (down[c] as usize) < columns[c].len().max(1));
        if !seen.iter().all(|&s| s)
            || !counts_fit
            || dealt > talon.len()
            || home.iter().any(|&h| h > 13)
        {
            return None;
        }
        let mut piles = [Cards::new(); 7];
        for (pile, cards) in piles.iter_mut().zip(&columns) {
            *pile = Cards::from_slice(cards)?;
        }
        Some(Table {
            columns: piles,
            down,
            talon: Cards::from_slice(&talon)?,
            dealt,
            home,
            passes,
        })
    }

    /// Plays `line` from here to its end in this engine: the error names
    /// the first move refused, or the cards home when the line ends
    /// without every card home. The one replay every caller of a solver's
    /// winning line goes through (job, bench, tests).
    pub fn replay_win(mut self, line: &[Move], rules: &Rules) -> Result<(), Illegal> {
        for (i, &m) in line.iter().enumerate() {
            self.play(m, rules)
                .map_err(|e| Illegal(format!("move {i} of the winning line: {}", e.0)))?;
        }
        if !self.is_won() {
            return Err(Illegal(format!(
                "the winning line ends with {} cards home",
                self.cards_home()
            )));
        }
        Ok(())
    }

    /// Every card home.
    pub fn is_won(&self) -> bool {
        self.home == [13; 4]
    }

    /// Cards on the foundations.
    pub fn cards_home(&self) -> u32 {
        self.home.iter().map(|&h| h as u32).sum()
    }

    fn waste_top(&self) -> Option<u8> {
        self.dealt.checked_sub(1).map(|i| self.talon[i])
    }

    fn column_top(&self, col: usize) -> Option<u8> {
        self.columns[col].last().copied()
    }

    /// Whether card `c` may be put on column `to`: a king into an empty
    /// column, any other card onto a face-up card one rank higher of the
    /// other colour.
    fn fits(&self, c: u8, to: usize) -> bool {
        match self.column_top(to) {
            None => rank_of(c) == 13,
            Some(t) => {
                self.columns[to].len() > self.down[to] as usize
                    && rank_of(t) == rank_of(c) + 1
                    && red(t) != red(c)
            }
        }
    }

    fn goes_home(&self, c: u8) -> bool {
        self.home[suit_of(c) as usize] + 1 == rank_of(c)
    }

    fn may_turn_over(&self, rules: &Rules) -> bool {
        let passes_left = match rules.redeal {
            Redeal::None => false,
            Redeal::Passes(n) => self.passes < n,
            Redeal::Unlimited => true,
        };
        self.dealt == self.talon.len() && self.dealt > 0 && passes_left
    }

    /// After a card leaves a column, the card it lay on is turned face up.
    fn turn_up(&mut self, col: usize) {
        let len = self.columns[col].len() as u8;
        if self.down[col] == len && len > 0 {
            self.down[col] -= 1;
        }
    }

    #[cfg(any(test, feature = "internals"))]
    /// Every legal move, each listed once.
    pub fn moves(&self, rules: &Rules) -> Vec<Move> {
        let mut out = Vec::new();
        if self.dealt < self.talon.len() {
            out.push(Move::Deal);
        } else if self.may_turn_over(rules) {
            out.push(Move::Redeal);
        }
        if let Some(w) = self.waste_top() {
            if self.goes_home(w) {
                out.push(Move::WasteToFoundation);
            }
            for to in 0..7 {
                if self.fits(w, to) {
                    out.push(Move::WasteToColumn(to as u8));
                }
            }
        }
        for from in 0..7 {
            let cards = &self.columns[from];
            let up = self.down[from] as usize;
            if let Some(&t) = cards.last() {
                if self.goes_home(t) {
                    out.push(Move::ColumnToFoundation(from as u8));
                }
            }
            // Any face-up card with a built sequence above it may move with
            // it: from the top down, as long as each card holds the next.
            for start in (up..cards.len()).rev() {
                if start + 1 < cards.len() {
                    let (a, b) = (cards[start], cards[start + 1]);
                    if rank_of(a) != rank_of(b) + 1 || red(a) == red(b) {
                        break;
                    }
                }
                for to in (0..7).filter(|&to| to != from) {
                    if self.fits(cards[start], to) {
                        out.push(Move::ColumnToColumn {
                            from: from as u8,
                            to: to as u8,
                            count: (cards.len() - start) as u8,
                        });
                    }
                }
            }
        }
        if rules.worry_back {
            for suit in 0..4u8 {
                let n = self.home[suit as usize];
                if n == 0 {
                    continue;
                }
                let c = suit * 13 + n - 1;
                for to in 0..7 {
                    if self.fits(c, to) {
                        out.push(Move::FoundationToColumn { suit, to: to as u8 });
                    }
                }
            }
        }
        out
    }

    #[cfg(any(test, feature = "internals"))]
    /// The plays of the waste's top card (home, or onto a column) when
    /// `split` talon cards have been dealt, without dealing them.
    pub fn waste_moves_at(&self, split: usize, out: &mut Vec<Move>) {
        let Some(w) = split
            .checked_sub(1)
            .and_then(|i| self.talon.get(i).copied())
        else {
            return;
        };
        if self.goes_home(w) {
            out.push(Move::WasteToFoundation);
        }
        for to in 0..7 {
            if self.fits(w, to) {
                out.push(Move::WasteToColumn(to as u8));
            }
        }
    }

    /// Plays `m`, or says why it is not legal here.
    pub fn play(&mut self, m: Move, rules: &Rules) -> Result<(), Illegal> {
        match m {
            Move::Deal => {
                if self.dealt == self.talon.len() {
                    return Err("deal from an empty stock".into());
                }
                self.dealt = (self.dealt + rules.draw.max(1) as usize).min(self.talon.len());
            }
            Move::Redeal => {
                if !self.may_turn_over(rules) {
                    return Err("turning the waste over is not allowed here".into());
                }
                self.dealt = 0;
                self.passes += 1;
            }
            Move::WasteToFoundation => {
                let c = self.waste_top().ok_or("empty waste")?;
                if !self.goes_home(c) {
                    return Err(Illegal(format!("card {c} home out of order")));
                }
                self.talon.remove(self.dealt - 1);
                self.dealt -= 1;
                self.home[suit_of(c) as usize] += 1;
            }
            Move::WasteToColumn(to) => {
                let c = self.waste_top().ok_or("empty waste")?;
                let to = column(to)?;
                if !self.fits(c, to) {
                    return Err(Illegal(format!("card {c} does not fit column {to}")));
                }
                self.talon.remove(self.dealt - 1);
                self.dealt -= 1;
                self.columns[to].push(c)?;
            }
            Move::ColumnToFoundation(from) => {
                let from = column(from)?;
                let c = self.column_top(from).ok_or("empty column")?;
                if self.down[from] as usize == self.columns[from].len() {
                    return Err("a face-down card home".into());
                }
                if !self.goes_home(c) {
                    return Err(Illegal(format!("card {c} home out of order")));
                }
                self.columns[from].pop();
                self.home[suit_of(c) as usize] += 1;
                self.turn_up(from);
            }
            Move::ColumnToColumn { from, to, count } => {
                let (from, to, count) = (column(from)?, column(to)?, count as usize);
                let len = self.columns[from].len();
                if from == to || count == 0 || count > len - self.down[from] as usize {
                    return Err("no such face-up group".into());
                }
                let moving = self.columns[from];
                let group = &moving[len - count..];
                let built = group
                    .windows(2)
                    .all(|p| rank_of(p[0]) == rank_of(p[1]) + 1 && red(p[0]) != red(p[1]));
                if !built {
                    return Err("moving a group that is not a built sequence".into());
                }
                if !self.fits(group[0], to) {
                    return Err(Illegal(format!(
                        "card {} does not fit column {to}",
                        group[0]
                    )));
                }
                self.columns[from].truncate(len - count);
                for &c in group {
                    self.columns[to].push(c)?;
                }
                self.turn_up(from);
            }
            Move::FoundationToColumn { suit, to } => {
                if !rules.worry_back {
                    return Err("worrying back is not allowed".into());
                }
                let to = column(to)?;
                let n = *self.home.get(suit as usize).ok_or("no such suit")?;
                if n == 0 {
                    return Err("empty foundation".into());
                }
                let c = suit * 13 + n - 1;
                if !self.fits(c, to) {
                    return Err(Illegal(format!("card {c} does not fit column {to}")));
                }
                self.home[suit as usize] -= 1;
                self.columns[to].push(c)?;
            }
        }
        Ok(())
    }
}

fn column(c: u8) -> Result<usize, Illegal> {
    if c < 7 {
        Ok(c as usize)
    } else {
        Err(Illegal(format!("no column {c}")))
    }
}

/// Why a move is not legal where it is played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Illegal(pub String);

impl From<&str> for Illegal {
    fn from(why: &str) -> Illegal {
        Illegal(why.to_string())
    }
}
