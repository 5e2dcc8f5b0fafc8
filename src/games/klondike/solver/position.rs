//! A position of the quotient search and its steps (see the module
//! `solver` for why these states and steps are exact).

use super::bits::{
    card_of, cards, children_of, foundation_tops, mask, next_home, nonzero_pairs, pair_counts, ALL,
    KINGS,
};
use super::talon::{Reach, Talon, TalonReach};
use crate::games::klondike::cards::{card, is_red, rank, suit, Card};
use crate::games::klondike::state::{Redeal, Rules, State};

/// The cards that stay where a search starts them until they move: per
/// column the face-down cards and the base above them (bottom first), and
/// the talon in dealing order (the waste from its bottom, then the stock
/// from its top).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Per column the face-down cards and the base, bottom first.
    pub columns: [Vec<Card>; 7],
    /// The talon in dealing order (at most 24 cards).
    pub talon: Vec<Card>,
    /// The column each tableau card starts in (7: not on the tableau).
    column_of: [u8; 52],
    /// The talon place of each talon card (24: not in the talon).
    talon_place: [u8; 52],
    /// Per column, the values its count of cards in place can take (its
    /// dealt cards, plus one): the radix of that count in the key.
    radix: [u64; 7],
    /// Bits the key's mixed-radix part (home heights and cards in place)
    /// takes: the least with 2^bits above its largest value.
    mixed_bits: u32,
}

impl Layout {
    /// The layout a 52-card deck gives when dealt our way (see `cards`
    /// and `State::from_deck`, which deals it).
    pub fn from_deck(deck: &[Card; 52]) -> Layout {
        Layout::of(&State::from_deck(deck))
    }

    /// The layout of a position of the rules engine: per column the
    /// face-down cards and the lowest face-up card (on an empty floor too),
    /// and the talon in dealing order.
    pub fn of(s: &State) -> Layout {
        let columns: [Vec<Card>; 7] = std::array::from_fn(|col| match s.columns[col].len() {
            0 => Vec::new(),
            _ => s.columns[col][..=s.hidden[col] as usize].to_vec(),
        });
        let talon = s
            .waste
            .iter()
            .chain(s.stock.iter().rev())
            .copied()
            .collect();
        Layout::new(columns, talon)
    }

    /// The layout of these columns (face-down cards and base, bottom
    /// first) and this talon (dealing order).
    pub fn new(columns: [Vec<Card>; 7], talon: Vec<Card>) -> Layout {
        let mut column_of = [7; 52];
        for (col, cards) in columns.iter().enumerate() {
            for &c in cards {
                column_of[c as usize] = col as u8;
            }
        }
        let mut talon_place = [24; 52];
        for (place, &c) in talon.iter().enumerate() {
            talon_place[c as usize] = place as u8;
        }
        let radix = std::array::from_fn(|col| columns[col].len() as u64 + 1);
        let values = radix.iter().fold(14u64.pow(4), |v, &r| v * r);
        Layout {
            columns,
            talon,
            column_of,
            talon_place,
            radix,
            mixed_bits: 64 - values.leading_zeros(),
        }
    }

    /// Bits a class key takes under `rules` (see `Position::key`): more
    /// than 64 only for positions no deal leads to (a column holding more
    /// cards than it was dealt) or many counted passes.
    pub(super) fn key_bits(&self, rules: &Rules) -> u32 {
        let pass_bits = match rules.redeal {
            Redeal::Unlimited => 0,
            Redeal::None => 1,
            Redeal::Passes(n) => 32 - n.leading_zeros(),
        };
        TALON_KEY_BITS + self.mixed_bits + pass_bits
    }
}

/// Bits of a class key that hold the talon: its 24 places and its split.
pub(super) const TALON_KEY_BITS: u32 = 29;

/// The layout and the class of a position of the rules engine.
pub(super) fn class_of(s: &State, rules: &Rules) -> (Layout, Position) {
    let layout = Layout::of(s);
    let position = class_in(&layout, s, rules);
    (layout, position)
}

/// The class of a position reached from `layout`'s start.
pub(super) fn class_in(layout: &Layout, s: &State, rules: &Rules) -> Position {
    let mut visible = 0;
    let mut bases = 0;
    let mut in_place = [0u8; 7];
    for (col, places) in in_place.iter_mut().enumerate() {
        let cards = &s.columns[col][..];
        let h = s.hidden[col] as usize;
        for &c in cards.get(h..).unwrap_or(&[]) {
            visible |= mask(c);
        }
        if let Some(&base) = cards.get(h) {
            if layout.columns[col].get(h) == Some(&base) {
                *places = h as u8 + 1;
                bases |= mask(base);
            }
        }
    }
    let mut left = 0u32;
    for (place, c) in layout.talon.iter().enumerate() {
        if s.waste.contains(c) || s.stock.contains(c) {
            left |= 1 << place;
        }
    }
    let mut talon = Talon {
        left,
        offset: s.waste.len() as u8,
        passes: s.passes,
    };
    talon.normalise(rules);
    Position {
        visible,
        bases,
        home: s.foundations,
        in_place,
        talon,
    }
}

/// One step of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// A column's base card (the lowest face-up card), with whatever rests
    /// on it, onto a holder, or a king into an empty column: the card under
    /// it turns up, or the column empties.
    Reveal(Card),
    /// A tableau card to its foundation.
    TableauHome(Card),
    /// A talon card to its foundation.
    TalonHome(Card, Reach),
    /// A talon card onto a holder (or a king into an empty column).
    TalonToTableau(Card, Reach),
    /// A foundation's top card back onto the tableau.
    WorryBack(Card),
}

/// The steps of a position, in the order the search tries them (tests).
#[cfg(test)]
pub(super) struct Steps {
    items: [Step; 48],
    len: u8,
}

#[cfg(test)]
impl Steps {
    fn new() -> Steps {
        Steps {
            items: [Step::Reveal(0); 48],
            len: 0,
        }
    }
    fn push(&mut self, s: Step) {
        self.items[self.len as usize] = s;
        self.len += 1;
    }
    pub(super) fn as_slice(&self) -> &[Step] {
        &self.items[..self.len as usize]
    }
}

/// The steps of a position as card masks, one per kind, taken kind by kind
/// (`REVEAL` first, `WORRY_BACK` last) and within a kind lowest card bit
/// first: the order the search tries them in (see `Position::step_set`).
/// Made whole (a few mask operations) but turned into steps one at a time,
/// as the search goes: a search that wins early never makes the rest.
#[derive(Clone, Copy, Debug)]
pub(super) struct StepSet {
    /// Per kind (`REVEAL` …), the cards it moves.
    kinds: [u64; 5],
    /// Talon cards reached only by turning the waste over.
    after_turn: u64,
}

const REVEAL: usize = 0;
const TABLEAU_HOME: usize = 1;
const TALON_TO_TABLEAU: usize = 2;
const TALON_HOME: usize = 3;
const WORRY_BACK: usize = 4;

impl StepSet {
    fn one(kind: usize, c: Card, reach: TalonReach) -> StepSet {
        let mut kinds = [0; 5];
        kinds[kind] = mask(c);
        StepSet {
            kinds,
            after_turn: reach.after_turn,
        }
    }

    /// The next step, taken out of the set.
    pub(super) fn pop(&mut self, layout: &Layout, rules: &Rules) -> Option<Step> {
        let kind = self.kinds.iter().position(|&m| m != 0)?;
        let m = self.kinds[kind];
        self.kinds[kind] = m & (m - 1);
        let c = card_of(m.trailing_zeros());
        let reach = || {
            Reach::new(
                layout.talon_place[c as usize],
                self.after_turn & mask(c) != 0,
                rules,
            )
        };
        Some(match kind {
            REVEAL => Step::Reveal(c),
            TABLEAU_HOME => Step::TableauHome(c),
            TALON_TO_TABLEAU => Step::TalonToTableau(c, reach()),
            TALON_HOME => Step::TalonHome(c, reach()),
            _ => Step::WorryBack(c),
        })
    }

    /// Every step, in order.
    #[cfg(test)]
    pub(super) fn to_steps(mut self, layout: &Layout, rules: &Rules) -> Steps {
        let mut out = Steps::new();
        while let Some(s) = self.pop(layout, rules) {
            out.push(s);
        }
        out
    }
}

impl Step {
    /// Whether the step takes a card from the talon (and so changes what
    /// the talon can reach).
    pub(super) fn takes_from_talon(self) -> bool {
        matches!(self, Step::TalonHome(..) | Step::TalonToTableau(..))
    }
}

/// A class of positions: every arrangement of the same face-up tableau
/// cards over the same column bases (see the module `solver`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Position {
    /// Face-up tableau cards (bits).
    pub(super) visible: u64,
    /// The bases: each column's lowest face-up card while it is the card
    /// dealt there.
    pub(super) bases: u64,
    /// Cards home per suit.
    pub(super) home: [u8; 4],
    /// Per column, the dealt cards still in place (face down, and the base).
    pub(super) in_place: [u8; 7],
    pub(super) talon: Talon,
}

/// Whether a card is *safe*: the cards two ranks lower of the other
/// colour and three ranks lower of its own colour are home (aces, twos
/// always). See the module `solver` (the safe-card lemma) for why sending
/// a safe card home at once, and never taking one back, keeps every
/// verdict.
pub(super) fn safe(home: &[u8; 4], c: Card) -> bool {
    home_within(home, c, 1)
}

/// The scout pass's threshold, one rank sooner still (the cards three
/// ranks lower of the other colour and four lower of its own). Not a
/// proved rule: the scout pass only (see `Cuts::Scout`).
fn scout_safe(home: &[u8; 4], c: Card) -> bool {
    home_within(home, c, 2)
}

/// Whether the cards `slack` + 1 ranks below `c` of the other colour and
/// `slack` + 2 below of its own colour are all home (aces and twos: always,
/// as an ace can always go home).
#[inline]
fn home_within(home: &[u8; 4], c: Card, slack: u8) -> bool {
    let r = rank(c);
    if r <= 2 {
        return true;
    }
    (0..4u8).all(|s| {
        if is_red(card(s, 1)) != is_red(c) {
            home[s as usize] + 1 + slack >= r
        } else {
            home[s as usize] + 2 + slack >= r
        }
    })
}

/// Which steps a search leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cuts {
    /// None (tests compare the rules against this).
    None,
    /// The proved rules of the module `solver`: every verdict is kept.
    Proved,
    /// The scout pass, after a win only: no worrying back, and a card goes
    /// home a rank sooner (`scout_safe`), from the talon too. A win it
    /// finds is a win (its line is replayed like any other); it proves no
    /// loss, so a search that finds none starts again under `Proved`.
    Scout,
    /// `Proved` less rule 7 (tests compare the two).
    #[cfg(test)]
    ProvedEager,
    /// `Proved` less rule 8 (tests compare the two).
    #[cfg(test)]
    ProvedWithoutRule8,
}

impl Cuts {
    /// Whether talon cards are put down only when a step needs them
    /// (rule 7 of the module `solver`): proved search, drawing one with
    /// unlimited redeals.
    pub(super) fn defers_put_downs(self, rules: &Rules) -> bool {
        self == Cuts::Proved
            && rules.draw == 1
            && rules.redeal == Redeal::Unlimited
    }
}

/// Whether rule 7 covers putting `c` down: every card but a king (a king
/// takes an empty column, which rule 6 counts).
pub(super) fn deferrable(c: Card) -> bool {
    rank(c) != 13
}

impl Position {
    pub(super) fn is_won(&self) -> bool {
        self.home == [13; 4]
    }

    /// The exact key of the class.
    /// Home heights and cards in place in mixed radix (each column's count
    /// in radix its dealt cards plus one: in a deal, column i holds i + 1,
    /// so 14^4 · 8! < 2^31 values), then the talon's places (24 bits) and
    /// split (5 bits), and the passes above them. The radices come from
    /// the layout, not from a deal's shape, so a position whose columns
    /// hold more cards than a deal gives them keeps an exact key (wider:
    /// `Layout::key_bits`). The mixed-radix part is below 2^`mixed_bits`
    /// less one, so its bits are never all ones (`Seen`'s empty slot).
    pub(super) fn key(&self, layout: &Layout) -> u128 {
        let mut k: u64 = 0;
        for &h in &self.home {
            k = k * 14 + h as u64;
        }
        for col in (0..7).rev() {
            k = k * layout.radix[col] + self.in_place[col] as u64;
        }
        let talon = (self.talon.left as u128) << 5 | self.talon.offset as u128;
        (self.talon.passes as u128) << (TALON_KEY_BITS + layout.mixed_bits)
            | (k as u128) << TALON_KEY_BITS
            | talon
    }

    /// The column whose base is `c` (a base is a card dealt there).
    fn column_of_base(&self, layout: &Layout, c: Card) -> usize {
        layout.column_of[c as usize] as usize
    }

    /// Both bits of every pair with a spare: more face-up cards than
    /// cards resting on them. A face-up card of such a pair can be made a
    /// column's top by moving what rests on it onto its twin, and a card
    /// of the pair below can be put down on one of them.
    fn open_pairs(&self) -> u64 {
        let resting = self.visible & !self.bases & !KINGS;
        let spare = pair_counts(self.visible) - ((pair_counts(resting) << 4) & ALL);
        nonzero_pairs(spare)
    }

    /// Whether `c`'s pair has no spare: no card of it is bare on the
    /// tableau (rule 7 puts a talon card down only then).
    #[cfg(test)]
    pub(super) fn pair_closed(&self, c: Card) -> bool {
        self.open_pairs() & mask(c) == 0
    }

    fn empty_columns(&self) -> u32 {
        7 - (self.bases | (self.visible & KINGS)).count_ones()
    }

    /// Rule 6: whether emptying a column by moving a base off its floor
    /// can pay: no column is empty, and a step could then put a king into
    /// it (a king base with cards under it, a king the talon can bring up
    /// (`talon_cards`, the cards it reaches) or, worrying back, a king
    /// home).
    pub(super) fn floor_moves_pay(&self, layout: &Layout, rules: &Rules, talon_cards: u64) -> bool {
        if self.empty_columns() > 0 {
            return false;
        }
        let covering_king = cards(self.bases & KINGS)
            .any(|k| self.in_place[self.column_of_base(layout, k)] > 1);
        let home_king = rules.worry_back && foundation_tops(&self.home) & KINGS != 0;
        covering_king || home_king || talon_cards & KINGS != 0
    }

    /// Whether rule 6 takes a step away here: a base off its floor that
    /// could go onto a holder but does not pay.
    #[cfg(test)]
    pub(super) fn floor_move_pruned(&self, layout: &Layout, rules: &Rules) -> bool {
        let floor_bases = cards(self.bases & self.placeable(self.open_pairs()))
            .any(|c| rank(c) != 13 && self.in_place[self.column_of_base(layout, c)] == 1);
        floor_bases && !self.floor_moves_pay(layout, rules, self.talon_reach(layout, rules).cards)
    }

    /// Cards that have somewhere to go on the tableau.
    fn placeable(&self, open_pairs: u64) -> u64 {
        let kings = if self.empty_columns() > 0 { KINGS } else { 0 };
        children_of(open_pairs) | kings
    }

    /// The steps, with the forcing rules or without (tests).
    #[cfg(test)]
    pub(super) fn steps_pruned(&self, layout: &Layout, rules: &Rules, prune: bool) -> Steps {
        self.steps_cut(layout, rules, if prune { Cuts::Proved } else { Cuts::None })
    }

    /// What the talon can reach (see `Talon::reach`).
    pub(super) fn talon_reach(&self, layout: &Layout, rules: &Rules) -> TalonReach {
        self.talon.reach(&layout.talon, rules)
    }

    /// The steps under `cuts`, in the order the search tries them (see
    /// `step_set`).
    #[cfg(test)]
    pub(super) fn steps_cut(&self, layout: &Layout, rules: &Rules, cuts: Cuts) -> Steps {
        self.step_set(layout, rules, cuts, self.talon_reach(layout, rules))
            .to_steps(layout, rules)
    }

    /// The steps under `cuts`, `reach` being what the talon can reach
    /// (`talon_reach`): in the order the search tries them, reveals, then
    /// tableau cards home, talon cards put down, talon cards home and cards
    /// worried back, each kind lowest card bit first (talon cards put down
    /// before talon cards sent home, lower ranks first: the order lonelybot
    /// tries them in, it finds wins sooner). See the module `solver` for
    /// the rules.
    pub(super) fn step_set(&self, layout: &Layout, rules: &Rules, cuts: Cuts, reach: TalonReach) -> StepSet {
        let prune = cuts != Cuts::None;
        let scout = cuts == Cuts::Scout;
        let defer = cuts.defers_put_downs(rules);
        // The threshold this search sends cards home at (`safe`, or the
        // scout's sooner one).
        let goes_home_now = |c: Card| {
            if scout {
                scout_safe(&self.home, c)
            } else {
                safe(&self.home, c)
            }
        };
        let open_pairs = self.open_pairs();
        let homeward = next_home(&self.home);
        let tableau_home = open_pairs & self.visible & homeward;
        if prune {
            if let Some(c) = cards(tableau_home).find(|&c| goes_home_now(c)) {
                return StepSet::one(TABLEAU_HOME, c, reach);
            }
        }
        let placeable = self.placeable(open_pairs);
        // Rule 8: the talon's last card, when safe, goes home at once if
        // the split is at the end, and otherwise no card is reached by
        // turning the waste over.
        let last_safe = self.last_talon_card_safe(layout, homeward, cuts);
        let last_at_end = last_safe.is_some() && self.talon.split_at_end(rules);
        let reachable = match last_safe {
            Some(_) if !last_at_end => reach.cards & !reach.after_turn,
            _ => reach.cards,
        };
        let talon_home = reachable & homeward;
        let mut safe_talon_home = 0;
        if prune {
            for c in cards(talon_home).filter(|&c| goes_home_now(c)) {
                safe_talon_home |= mask(c);
            }
        }
        let forced_talon = scout || rules.draw == 1 && rules.redeal == Redeal::Unlimited;
        let forced = match last_safe {
            _ if forced_talon => safe_talon_home,
            Some(place) if last_at_end => safe_talon_home & mask(layout.talon[place as usize]),
            _ => 0,
        };
        if forced != 0 {
            // The first the talon reaches: without turning the waste over
            // before after it, then in dealing order.
            let first = cards(forced)
                .min_by_key(|&c| (reach.after_turn & mask(c) != 0, layout.talon_place[c as usize]))
                .expect("a forced card");
            return StepSet::one(TALON_HOME, first, reach);
        }
        // Rule 4: a safe card that can go home is not put down instead.
        // Rule 7: put down only when the next step needs it, so only when
        // its own pair has no spare (kings are not deferred).
        let not_needed = if defer { open_pairs & !KINGS } else { 0 };
        let talon_out = reachable & placeable & !safe_talon_home & !not_needed;
        // Rule 6 (see the module `solver`), asked only when it matters.
        let mut reveals = 0;
        let mut floor_moves_pay = None;
        for c in cards(self.bases & placeable) {
            let col = self.column_of_base(layout, c);
            if self.in_place[col] == 1 {
                // A king on an empty column's floor has nowhere better to be.
                if rank(c) == 13 {
                    continue;
                }
                if prune
                    && !*floor_moves_pay
                        .get_or_insert_with(|| self.floor_moves_pay(layout, rules, reach.cards))
                {
                    continue;
                }
            }
            reveals |= mask(c);
        }
        let mut worry = 0;
        if rules.worry_back && !scout {
            for c in cards(foundation_tops(&self.home) & placeable) {
                // Rule 3: a safe card is not worried back.
                if !(prune && goes_home_now(c)) {
                    worry |= mask(c);
                }
            }
        }
        StepSet {
            kinds: [reveals, tableau_home, talon_out, talon_home, worry],
            after_turn: reach.after_turn,
        }
    }

    /// Rule 8: the place of the talon's last card when it is safe and
    /// next to go home (under the scout pass: its sooner threshold).
    fn last_talon_card_safe(&self, layout: &Layout, homeward: u64, cuts: Cuts) -> Option<u8> {
        #[cfg(test)]
        if cuts == Cuts::ProvedWithoutRule8 {
            return None;
        }
        let place = self.talon.last_place()?;
        let c = layout.talon[place as usize];
        let now = match cuts {
            Cuts::None => return None,
            Cuts::Scout => scout_safe(&self.home, c),
            _ => safe(&self.home, c),
        };
        (now && mask(c) & homeward != 0).then_some(place)
    }

    /// Where rule 8 acts at this position: whether it sends the talon's
    /// last card home at once, and whether it drops a card reached only by
    /// turning the waste over.
    #[cfg(test)]
    pub(super) fn rule_8_acts(&self, layout: &Layout, rules: &Rules) -> (bool, bool) {
        let homeward = next_home(&self.home);
        if self.last_talon_card_safe(layout, homeward, Cuts::Proved).is_none() {
            return (false, false);
        }
        if self.talon.split_at_end(rules) {
            return (true, false);
        }
        let mut dropped = false;
        self.talon.reachable(rules, |reach| dropped |= reach.after_turn);
        (false, dropped)
    }

    /// Rule 7: the steps just after `c` was put down from the talon that
    /// need it there (the pair of `c` had no spare before): a card put
    /// onto its pair (a base with its run, a talon card, a card worried
    /// back), or its twin home (the run on the twin moved onto `c` first).
    /// No other rule applies here: the position is not stored. `reach` is
    /// what the talon can reach here.
    pub(super) fn steps_needing(&self, c: Card, layout: &Layout, rules: &Rules, reach: TalonReach) -> StepSet {
        let pair = nonzero_pairs(pair_counts(mask(c)));
        let tenants = children_of(pair);
        let twin = pair & !mask(c);
        let mut set = self.step_set(layout, rules, Cuts::None, reach);
        set.kinds[REVEAL] &= tenants;
        set.kinds[TABLEAU_HOME] &= twin;
        set.kinds[TALON_TO_TABLEAU] &= tenants;
        set.kinds[TALON_HOME] = 0;
        set.kinds[WORRY_BACK] &= tenants;
        set
    }

    /// The base of column `col` leaves it: the next card down turns up, or
    /// the column empties.
    fn uncover(&mut self, layout: &Layout, col: usize) {
        self.in_place[col] -= 1;
        let n = self.in_place[col] as usize;
        if n > 0 {
            let m = mask(layout.columns[col][n - 1]);
            self.visible |= m;
            self.bases |= m;
        }
    }

    /// The position after a step from `steps`.
    pub(super) fn after(&self, step: Step, layout: &Layout, rules: &Rules) -> Position {
        let mut p = *self;
        match step {
            Step::Reveal(c) => {
                let col = self.column_of_base(layout, c);
                p.bases &= !mask(c);
                p.uncover(layout, col);
            }
            Step::TableauHome(c) => {
                p.home[suit(c) as usize] += 1;
                p.visible &= !mask(c);
                if self.bases & mask(c) != 0 {
                    let col = self.column_of_base(layout, c);
                    p.bases &= !mask(c);
                    p.uncover(layout, col);
                }
            }
            Step::TalonHome(c, reach) => {
                p.home[suit(c) as usize] += 1;
                p.talon = self.talon.take(reach, rules);
            }
            Step::TalonToTableau(c, reach) => {
                p.visible |= mask(c);
                p.talon = self.talon.take(reach, rules);
            }
            Step::WorryBack(c) => {
                p.home[suit(c) as usize] -= 1;
                p.visible |= mask(c);
            }
        }
        p
    }
}
