//! Open-information ("thoughtful") Klondike: every card is visible, and the
//! question is whether some sequence of legal moves wins. First the
//! relaxed game (`relaxed::may_win_counting_kings`) may prove the deal lost
//! outright; then a round of up to three passes (`round`):
//! - greedy best-first searches over the deal's positions find most wins
//!   in a few thousand positions; the first round runs one, over
//!   purposeful moves (no worrying back, column moves only to turn a card,
//!   empty a column or bare a card for its foundation);
//! - under rules other than draw one with unlimited redeals, the search of
//!   the deal under those rules, which relax every other rule set: lost
//!   there is lost here;
//! - a depth-first search over every legal move, in a normal form that
//!   keeps every verdict (restorable cards sent home, preparing steps
//!   followed at once by the step they prepare, or by a second preparing
//!   step when one step needs both), which alone can prove a loss under the
//!   deal's own rules.
//!
//! The first round has at most 10^6 positions; a deal it leaves unknown
//! gets a second round on the rest of the budget, where three best-first
//! searches over different move sets (purposeful moves; every move; every
//! move with restorable cards sent home) get half of it: they win
//! different deals, and many deals the first round leaves are wins that a
//! depth-first search finds late. The depth-first searches get the other
//! half, resuming the first round's (`extend_dfs`).
//!
//! The normal form is checked against an exhaustive search of exact
//! positions on late positions of many deals (the unit tests), which found
//! two cuts of an earlier version unsound: sending home a king alone in
//! its column (these rules cannot worry it back into an empty column), and
//! requiring the very next step to use a pending one (worrying the 8♦ back
//! onto the 9♠ needs both the 9♦ and the 9♠ worried back first).
//!
//! All use
//! - a transposition table of the positions already searched (128-bit
//!   hashes of a canonical encoding; a collision is about 10^-20 likely
//!   over a whole run, so a "no" is as good as exhaustive),
//! - symmetry: columns are interchangeable, so the encoding sorts them;
//!   with unlimited redeals, talon splits that can reach each other by
//!   dealing alone share one key,
//! - dominance: a card whose holders are no longer needed (both
//!   other-colour cards one lower home, and its same-colour twin two lower
//!   home) goes to its foundation without branching, from a column under
//!   every rule set, from the waste only drawing one (drawing three, a card
//!   leaving the talon shifts every later group of three),
//! - stock macro moves: "deal until card X is on top, then play X" is one
//!   step,
//! - and the relaxed game on every position reached: a position it proves
//!   lost is not searched.
//!
//! The second opinion on a loss is `independent::loss_check`, which shares
//! none of this: its own rules engine and an exhaustive search.
//!
//! A node budget per deal bounds the work: a deal over budget is reported
//! unknown, never guessed. Every win carries its line, replayed by the
//! rules engine (`check_win`) before the batch job stores it.

use super::cards::{card, is_red, rank, suit, twin, Card};
use super::relaxed::{may_win, may_win_counting_kings};
use super::state::{stacks, Move, Redeal, Rules, State};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The keys are already xxh3 hashes: the table uses their low bits as
/// they are instead of hashing them again with SipHash.
#[derive(Default)]
struct KeyBits(u64);

impl Hasher for KeyBits {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u128(&mut self, k: u128) {
        self.0 = (k as u64) ^ (k >> 64) as u64;
    }
}

type Seen = HashSet<u128, BuildHasherDefault<KeyBits>>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Winnable; the moves of one winning game.
    Won(Vec<Move>),
    /// Every line searched and none wins.
    Lost,
    /// The node budget ran out first.
    Unknown,
}

impl Verdict {
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Won(_) => "winnable",
            Verdict::Lost => "not winnable",
            Verdict::Unknown => "unknown (over budget)",
        }
    }
}

/// Progress of a long solve: calls `report` with the positions searched so
/// far (every search of the deal together) each time another `every` have
/// been searched. One deal, one thread.
pub struct Ticker {
    searched: std::cell::Cell<u64>,
    every: u64,
    report: Box<dyn Fn(u64)>,
}

impl Ticker {
    pub fn new(every: u64, report: impl Fn(u64) + 'static) -> Ticker {
        Ticker {
            searched: std::cell::Cell::new(0),
            every: every.max(1),
            report: Box::new(report),
        }
    }

    fn tick(&self) {
        let n = self.searched.get() + 1;
        self.searched.set(n);
        if n.is_multiple_of(self.every) {
            (self.report)(n);
        }
    }
}

pub struct Solved {
    pub verdict: Verdict,
    pub nodes: u64,
}

/// A card nothing can need any more on the tableau.
fn dominated(s: &State, c: Card) -> bool {
    let r = rank(c);
    if r <= 2 {
        return true;
    }
    let twin_suit = suit(twin(c));
    (0..4u8)
        .filter(|&o| is_red(card(o, 1)) != is_red(c))
        .all(|o| s.foundations[o as usize] >= r - 1)
        && s.foundations[twin_suit as usize] >= r - 2
}

/// The most pending steps the search holds to account (see `dfs`).
const MAX_PENDING: usize = 2;

/// One step of the search: turn the talon `advances` times (deal, or turn
/// the waste over when the stock is empty), then make `play`. The turns
/// are determined by the position, so a count says them all.
#[derive(Clone, Copy, Debug)]
struct Step {
    advances: u16,
    play: Move,
}

impl Step {
    fn single(play: Move) -> Step {
        Step { advances: 0, play }
    }

    /// Plays the step, handing each move to `record`.
    fn apply(self, s: &mut State, rules: &Rules, mut record: impl FnMut(Move)) {
        for _ in 0..self.advances {
            let m = if s.stock.is_empty() {
                Move::Redeal
            } else {
                Move::Deal
            };
            s.apply(m, rules);
            record(m);
        }
        s.apply(self.play, rules);
        record(self.play);
    }
}

/// A step whose point is still to come (see `Search::moves_after`).
#[derive(Clone, Copy, Debug)]
enum Pending {
    /// This card, played from the talon, must receive a card next.
    Receive(Card),
    /// This card, worried back, must receive a card next (or the card
    /// under it on its foundation be worried back).
    Worried(Card),
    /// This card, bared by moving part of a run, must be used next.
    Bared(Card),
    /// A column was emptied; a king must go into one next.
    Emptied,
}

impl Pending {
    /// One byte naming the pending step, for the position's key: the same
    /// cards with steps pending allow fewer moves.
    fn code(self) -> u8 {
        match self {
            Pending::Receive(c) => c,
            Pending::Worried(c) => 192 + c,
            Pending::Bared(c) => 64 + c,
            Pending::Emptied => 128,
        }
    }

    /// The card this step waits on; None for an emptied column.
    fn card(self) -> Option<Card> {
        match self {
            Pending::Receive(c) | Pending::Worried(c) | Pending::Bared(c) => Some(c),
            Pending::Emptied => None,
        }
    }

    /// Whether this step may wait under a second preparing step. Only
    /// worrying a card c back onto a card p needs two steps at once: p
    /// prepared, and the card over c on its foundation worried back first
    /// (`needed_by` counts no other pair). Those two preparations touch
    /// different cards and commute, so a won game can make the worry-back
    /// first; then what waits is a card w just worried back with the card
    /// c under it on top of its foundation, and a card p that could take c
    /// (one of the two of w's rank in the other colour) is not at a column's
    /// top but could be made ready by preparing steps: it is home, in the
    /// talon (drawing one with unlimited redeals), or face up under other
    /// cards.
    fn may_wait_for_a_pair(self, s: &State, rules: &Rules) -> bool {
        let Pending::Worried(w) = self else {
            return false;
        };
        if s.foundations[suit(w) as usize] + 1 != rank(w) {
            return false;
        }
        let talon_ready = rules.draw == 1 && rules.redeal == Redeal::Unlimited;
        (0..4u8)
            .filter(|&o| is_red(card(o, 1)) != is_red(w))
            .map(|o| card(o, rank(w)))
            .any(|p| {
                s.foundations[suit(p) as usize] >= rank(p)
                    || (talon_ready && (s.stock.contains(&p) || s.waste.contains(&p)))
                    || (0..7).any(|col| {
                        let run = s.run(col);
                        run.contains(&p) && run.last() != Some(&p)
                    })
            })
    }

    /// Whether `m`, made in `s`, is a step that needs this one: a card
    /// goes onto the card waiting to receive one (or, after a worry-back,
    /// the next card of its suit is worried back: it needed this one off
    /// the foundation); the bared card receives a card or goes home; a king
    /// takes an empty column. (Moving the waiting card again, alone or with
    /// the run under it, is one move from where it was, so it does not
    /// count.)
    fn needed_by(self, s: &State, m: Move) -> bool {
        let column_topped_by = |c: Card| (0..7u8).find(|&col| s.top(col as usize) == Some(c));
        match self {
            Pending::Receive(p) | Pending::Worried(p) => {
                let Some(col) = column_topped_by(p) else {
                    return false;
                };
                let worried = s.foundations[suit(p) as usize] + 1 == rank(p);
                match m {
                    Move::WasteToColumn(to) | Move::ColumnToColumn { to, .. } => to == col,
                    Move::FoundationToColumn { suit: su, to } => {
                        to == col || (worried && su == suit(p))
                    }
                    _ => false,
                }
            }
            Pending::Bared(d) => {
                let Some(col) = column_topped_by(d) else {
                    return false;
                };
                match m {
                    Move::WasteToColumn(to)
                    | Move::FoundationToColumn { to, .. }
                    | Move::ColumnToColumn { to, .. } => to == col,
                    Move::ColumnToFoundation(from) => from == col,
                    _ => false,
                }
            }
            // A king comes from the waste, another column or (worrying
            // back, Solvitaire's rule) its foundation.
            Pending::Emptied => match m {
                Move::WasteToColumn(to)
                | Move::ColumnToColumn { to, .. }
                | Move::FoundationToColumn { to, .. } => s.columns[to as usize].is_empty(),
                _ => false,
            },
        }
    }
}

struct Search<'a> {
    rules: &'a Rules,
    budget: u64,
    nodes: u64,
    seen: Seen,
    line: Vec<Move>,
    pass: Pass,
    /// The depth-first search's path, kept when the budget runs out so
    /// that a later round can resume it (`resume_dfs`).
    stack: Vec<Frame>,
    /// Progress of the whole solve, when someone watches it.
    ticker: Option<std::rc::Rc<Ticker>>,
}

/// A position on the depth-first search's path and the steps from it
/// still to try.
struct Frame {
    state: State,
    moves: Vec<Step>,
    next: usize,
    line_start: usize,
    /// Steps pending here (see `moves_after`).
    pending: Vec<Pending>,
}

/// Which search a `Search` runs (see `solve`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Best-first over `purposeful` moves only, for wins.
    Quick,
    /// Depth-first over every move in the normal form: restorable cards
    /// go home at once (`autoplay`), and a step that only prepares must be
    /// followed at once by the step it prepares (`left_pending`,
    /// `moves_after`).
    NormalForm,
    /// Every move, no normal form (a win-finding search of the second round).
    Plain,
}

impl<'a> Search<'a> {
    fn new(rules: &'a Rules, budget: u64, pass: Pass) -> Search<'a> {
        Search {
            rules,
            budget,
            nodes: 0,
            seen: Seen::default(),
            line: Vec::new(),
            pass,
            stack: Vec::new(),
            ticker: None,
        }
    }

    fn watched(mut self, ticker: Option<&std::rc::Rc<Ticker>>) -> Self {
        self.ticker = ticker.cloned();
        self
    }

    /// One more position searched.
    fn count_node(&mut self) {
        self.nodes += 1;
        if let Some(t) = &self.ticker {
            t.tick();
        }
    }

    /// The verdict a depth-first search's outcome stands for; a win takes
    /// the winning line the search holds.
    fn verdict(&mut self, found: Option<bool>) -> Verdict {
        match found {
            Some(true) => Verdict::Won(std::mem::take(&mut self.line)),
            Some(false) => Verdict::Lost,
            None => Verdict::Unknown,
        }
    }
}

impl Search<'_> {
    fn key(&self, s: &State) -> u128 {
        self.key_with(s, &[])
    }

    /// The key of `s` with steps `pending`.
    fn key_with(&self, s: &State, pending: &[Pending]) -> u128 {
        // On the stack: a position encodes in at most 14 + 52 + 3 + 4 + 4
        // bytes, so no allocation per node.
        let mut cols: [(u8, &[Card]); 7] =
            std::array::from_fn(|i| (s.hidden[i], &s.columns[i][..]));
        // Non-empty columns differ in their base card, so ordering by it
        // alone is canonical (and spares comparing whole columns).
        cols.sort_unstable_by_key(|(_, c)| c.first().copied().unwrap_or(u8::MAX));
        let mut buf = [0u8; 96];
        let mut len = 0;
        let mut put = |bytes: &mut dyn Iterator<Item = u8>| {
            for b in bytes {
                buf[len] = b;
                len += 1;
            }
        };
        for (h, c) in cols {
            put(&mut [h, c.len() as u8].into_iter());
            put(&mut c.iter().copied());
        }
        put(&mut std::iter::once(0xfe));
        if self.talon_at_pass_start(s) {
            // Keyed as the pass start it is equivalent to: dealing out the
            // stock and turning the waste over gives stock S ++ rev(W).
            put(&mut s.stock.iter().copied());
            put(&mut s.waste.iter().rev().copied());
            put(&mut std::iter::once(0xfe));
        } else {
            put(&mut s.stock.iter().copied());
            put(&mut std::iter::once(0xfe));
            put(&mut s.waste.iter().copied());
        }
        put(&mut s.foundations.iter().copied());
        if self.rules.redeal != Redeal::Unlimited {
            put(&mut s.passes.to_le_bytes().into_iter());
        }
        if !pending.is_empty() {
            // In order: the order decides which steps may follow.
            put(&mut std::iter::once(0xfd));
            put(&mut pending.iter().map(|p| p.code()));
        }
        xxhash_rust::xxh3::xxh3_128(&buf[..len])
    }

    /// True when the talon can reach the start of a pass and come back
    /// to where it is, touching nothing else, so the position is as good
    /// as that pass start: with unlimited redeals, a waste of a multiple of
    /// `draw` cards (every size, drawing one) or an empty stock. From the
    /// pass start the deals reach exactly those waste sizes.
    fn talon_at_pass_start(&self, s: &State) -> bool {
        self.rules.redeal == Redeal::Unlimited
            && (s.stock.is_empty() || s.waste.len().is_multiple_of(self.rules.draw as usize))
    }

    /// A column's top card that could be put back exactly where it is
    /// after going home: it rests face up on the card it is built on. (Not
    /// a king alone in its column. Under `/noworry` nothing comes back; with
    /// worrying back a king could come back into its emptied column, but
    /// that column is then free for other kings meanwhile, which the
    /// argument above does not cover, so the king stays.)
    fn restorable_in_column(s: &State, col: usize) -> bool {
        let cards = &s.columns[col];
        let n = cards.len();
        n >= 2 && n - 1 > s.hidden[col] as usize && stacks(cards[n - 1], Some(cards[n - 2]))
    }

    /// Plays every foundation move that cannot cost the win; returns how
    /// many. Always: dominated cards at a column's top, and drawing one at
    /// the waste's top (see `waste_dominance_safe`). In the full search with worrying
    /// back (`Pass::NormalForm`), also every card that could be worried back
    /// to where it is (see `restorable_in_column`), and with draw one and
    /// unlimited redeals a talon card whose foundation card no line needs
    /// back (see `restorable_from_talon`): a line that needed the card in
    /// play gets it back by worrying it back at that moment, to the same
    /// card.
    fn autoplay(&mut self, s: &mut State) -> usize {
        let mut n = 0;
        // Sending home a card that could be worried back is only free when
        // worrying back is allowed.
        let restore = self.pass == Pass::NormalForm && self.rules.worry_back;
        let waste_restorable =
            restore && self.rules.draw == 1 && self.rules.redeal == Redeal::Unlimited;
        // Drawing one, taking the waste's top card out of the talon leaves
        // every other talon card reachable at the same deal as before (each
        // card comes to the top in turn), so a dominated waste card going
        // home costs nothing. Drawing three it is not free: every later
        // group of three shifts by one card, so cards that were group tops
        // stop being reachable (deal 179, draw 3, is won only by leaving
        // the A♥ in the talon for one more pass so that the A♣ comes up).
        let waste_dominance_safe = self.rules.draw == 1;
        loop {
            let m = (0..7u8)
                .find(|&c| {
                    s.top(c as usize).is_some_and(|t| {
                        s.to_foundation(t)
                            && (dominated(s, t)
                                || (restore && Self::restorable_in_column(s, c as usize)))
                    })
                })
                .map(Move::ColumnToFoundation)
                .or_else(|| {
                    s.waste
                        .last()
                        .filter(|&&w| waste_dominance_safe && s.to_foundation(w) && dominated(s, w))
                        .map(|_| Move::WasteToFoundation)
                });
            match m {
                Some(m) => {
                    s.apply(m, self.rules);
                    self.line.push(m);
                    n += 1;
                }
                // The waste card first, then the rest of the talon.
                None if waste_restorable && self.talon_card_home(s) => n += 1,
                None => return n,
            }
        }
    }

    /// A talon card that can go home and come back when a line wants it
    /// (drawing one with unlimited redeals, worrying back allowed): it
    /// goes home, and the line worries it back at the moment it would have
    /// played it from the talon. That fails only if the line worried back
    /// the card under it meanwhile, so that card must be one no line needs
    /// back: dominated (the cards it could hold, and the cards those could
    /// hold, all home; deleting every worry-back of them, and every move
    /// onto them, leaves a line that still wins).
    fn restorable_from_talon(s: &State, c: Card) -> bool {
        s.to_foundation(c) && (rank(c) == 1 || dominated(s, card(suit(c), rank(c) - 1)))
    }

    /// With draw one and unlimited redeals, sends home a talon card that
    /// `restorable_from_talon` allows, dealing until it is on top (every
    /// split of the talon is keyed as the same pass start).
    fn talon_card_home(&mut self, s: &mut State) -> bool {
        let before = *s;
        let homeable = |c: &Card| Self::restorable_from_talon(&before, *c);
        if !s.stock.iter().any(homeable) && !s.waste.iter().any(homeable) {
            return false;
        }
        loop {
            if s.waste.last().is_some_and(homeable) {
                s.apply(Move::WasteToFoundation, self.rules);
                self.line.push(Move::WasteToFoundation);
                return true;
            }
            let m = if s.stock.is_empty() {
                Move::Redeal
            } else {
                Move::Deal
            };
            s.apply(m, self.rules);
            self.line.push(m);
        }
    }

    /// The moves the win-finding pass keeps: column moves that turn a
    /// card, empty a column or bare a card for its foundation, and no
    /// worrying back. (Not every won game needs only these, which is why
    /// a deal this pass cannot win goes on to the full search.)
    fn purposeful(s: &State, m: Move) -> bool {
        match m {
            Move::ColumnToColumn { from, count, .. } => {
                let from = from as usize;
                let run = s.run(from).len();
                if count as usize == run {
                    s.hidden[from] > 0 || rank(s.run(from)[0]) != 13
                } else {
                    let bared = s.run(from)[run - count as usize - 1];
                    s.to_foundation(bared)
                }
            }
            Move::FoundationToColumn { .. } => false,
            _ => true,
        }
    }

    fn order(m: &Move) -> u8 {
        match m {
            Move::ColumnToFoundation(_) | Move::WasteToFoundation => 0,
            Move::ColumnToColumn { .. } => 1,
            Move::WasteToColumn(_) => 2,
            Move::Deal => 3,
            Move::Redeal => 4,
            Move::FoundationToColumn { .. } => 5,
        }
    }

    /// A position's moves, best kinds first. Dealing is folded into the
    /// play of the card it uncovers: "deal (and turn the waste over) until
    /// card X is on top, then play X" is one step. Deals that play nothing
    /// are never needed (they touch only the stock, so they commute with
    /// every other move up to the next waste play), and the folding spares
    /// the search the long chains of single deals.
    fn moves(&self, s: &State, hint: bool) -> Vec<Step> {
        self.moves_where(s, hint, |_| true)
    }

    /// `moves`, keeping only the steps whose play `admit` accepts (in the
    /// same order as `moves` would list them).
    fn moves_where(&self, s: &State, hint: bool, admit: impl Fn(Move) -> bool) -> Vec<Step> {
        let mut single = Vec::new();
        s.legal_moves(self.rules, &mut single);
        single.retain(|&m| !matches!(m, Move::Deal | Move::Redeal) && admit(m));
        if self.pass == Pass::Quick {
            single.retain(|&m| Self::purposeful(s, m));
        }
        single.sort_by_key(Self::order);
        // The greedy player's choice first: ordering only, so no verdict
        // changes, but its sense of progress finds wins sooner.
        let hint = if hint {
            super::greedy::Player::Classic(super::greedy::Variant::ALL[1])
                .next_move(s, self.rules, false)
        } else {
            None
        };
        if let Some(i) = hint.and_then(|h| single.iter().position(|&m| m == h)) {
            let h = single.remove(i);
            single.insert(0, h);
        }
        let mut out: Vec<Step> = single.into_iter().map(Step::single).collect();
        let mut t = *s;
        let mut advances = 0u16;
        let mut plays = Vec::new();
        // Talon configurations met so far: the stock and waste hold the
        // same cards in the same cyclic order throughout, so the split
        // point (and the pass, when passes are limited) identifies one.
        let config = |t: &State| {
            let pass = if self.rules.redeal == Redeal::Unlimited {
                0
            } else {
                t.passes
            };
            (t.stock.len(), pass)
        };
        let mut met = vec![config(&t)];
        loop {
            let m = if !t.stock.is_empty() {
                Move::Deal
            } else if !t.waste.is_empty() && self.rules.may_redeal(t.passes) {
                Move::Redeal
            } else {
                break;
            };
            t.apply(m, self.rules);
            advances += 1;
            if met.contains(&config(&t)) {
                break;
            }
            met.push(config(&t));
            if let Some(&w) = t.waste.last() {
                plays.clear();
                if t.to_foundation(w) && admit(Move::WasteToFoundation) {
                    plays.push(Move::WasteToFoundation);
                }
                for to in 0..7u8 {
                    if super::state::stacks(w, t.top(to as usize)) && admit(Move::WasteToColumn(to))
                    {
                        plays.push(Move::WasteToColumn(to));
                    }
                }
                out.extend(plays.iter().map(|&play| Step { advances, play }));
            }
        }
        out
    }

    /// Greedy best-first search: always expand the position with the
    /// fewest cards away from home and face down (ties: the newest), so
    /// the search follows progress instead of finishing a subtree. The
    /// winning line, or None when the budget runs out or every position
    /// has been expanded.
    fn best_first(&mut self, root: State) -> Option<Vec<Move>> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let score = |s: &State| {
            let hidden: u32 = s.hidden.iter().map(|&h| h as u32).sum();
            (52 - s.home()) + 2 * hidden
        };
        // Each position: its parent and the moves from the parent.
        let mut nodes: Vec<(State, usize, Vec<Move>)> = Vec::new();
        let mut open = BinaryHeap::new();
        let mut s = root;
        self.line.clear();
        self.autoplay(&mut s);
        let first = std::mem::take(&mut self.line);
        if s.is_won() {
            return Some(first);
        }
        self.seen.insert(self.key(&s));
        open.push((Reverse(score(&s)), 0usize));
        nodes.push((s, usize::MAX, first));
        let line_to = |nodes: &Vec<(State, usize, Vec<Move>)>, mut at: usize| {
            let mut parts = Vec::new();
            while at != usize::MAX {
                parts.push(nodes[at].2.clone());
                at = nodes[at].1;
            }
            parts.into_iter().rev().flatten().collect::<Vec<Move>>()
        };
        while let Some((_, at)) = open.pop() {
            let here = nodes[at].0;
            for step in self.moves(&here, true) {
                self.count_node();
                if self.nodes > self.budget {
                    return None;
                }
                let mut child = here;
                let mut moves = Vec::new();
                step.apply(&mut child, self.rules, |m| moves.push(m));
                self.line.clear();
                self.autoplay(&mut child);
                moves.append(&mut self.line);
                if child.is_won() {
                    let mut line = line_to(&nodes, at);
                    line.extend(moves);
                    return Some(line);
                }
                if !self.seen.insert(self.key(&child)) || !may_win(&child, self.rules) {
                    continue;
                }
                // Newest first among equals: the index breaks ties.
                open.push((Reverse(score(&child)), nodes.len()));
                nodes.push((child, at, moves));
            }
        }
        None
    }

    /// The steps allowed right after a step that left `pending`. Any won
    /// game can be reordered so that each such step comes just before the
    /// first step that needs it: until then it commutes with every other
    /// move (the cases that do not commute fold into it: moving the same
    /// cards again is one move from where they were, a move of the run
    /// under them is the same move with fewer cards), and nothing else
    /// needs it. A step may need more than one such step (worrying back
    /// the 8♦ onto the 9♠ needs the 9♦ worried back off it and the 9♠
    /// worried back to take it); those gather just before it. So what may
    /// follow is another step that leaves one (`left_pending`; it may need
    /// some of those pending), or a step that needs every step still
    /// pending.
    fn moves_after(&self, s: &State, pending: &[Pending]) -> Vec<Step> {
        self.moves_after_with(s, pending, true)
    }

    /// `moves_after`; `prefilter` false generates every step before the
    /// filter (the slow obvious way, for the tests).
    fn moves_after_with(&self, s: &State, pending: &[Pending], prefilter: bool) -> Vec<Step> {
        // A pending step that cannot wait for a pair must be needed by
        // whatever follows (both ways through the filter below require it),
        // so only steps that need it are generated: about 99 % of the
        // positions searched have a step pending. No hint: the few
        // follow-ups are all tried anyway.
        let waits: Vec<bool> = pending
            .iter()
            .map(|p| p.may_wait_for_a_pair(s, self.rules))
            .collect();
        let must: Vec<Pending> = pending
            .iter()
            .zip(&waits)
            .filter(|&(_, &waits)| prefilter && !waits)
            .map(|(&p, _)| p)
            .collect();
        let mut out = self.moves_where(s, false, |m| must.iter().all(|p| p.needed_by(s, m)));
        // A run move takes the column's top card with it: moving a card
        // still waiting to be used is one move from where it was.
        let moves_waiting = |m: Move| match m {
            Move::ColumnToColumn { from, .. } => pending
                .iter()
                .any(|p| p.card().is_some() && p.card() == s.top(from as usize)),
            _ => false,
        };
        // The steps a preparing step needs are the newest ones pending:
        // each preparing step waits just before the first step that needs
        // it, so those needed by one step are made just before it, and the
        // steps pending form a stack of the ones still waiting.
        let needs_newest = |m: Move| {
            let first = pending.iter().position(|p| p.needed_by(s, m));
            first.is_none_or(|i| pending[i..].iter().all(|p| p.needed_by(s, m)))
        };
        // What a preparing step leaves pending must wait for a step that
        // needs two at once (`may_wait_for_a_pair`).
        // And the step must be able to start the preparation of the card
        // that will take c: its card (the card worried back or played from
        // the talon, or the card bared) is of w's rank or higher, as every
        // card that preparation can touch first is (the card itself, the
        // cards covering it on its foundation, the cards it could rest on,
        // and theirs), or it empties a column for a king.
        let rest_may_wait = |m: Move, first: Option<Card>| {
            pending
                .iter()
                .zip(&waits)
                .filter(|(p, _)| !p.needed_by(s, m))
                .all(|(p, &waits)| {
                    waits
                        && match (p, first) {
                            (Pending::Worried(w), Some(c)) => rank(c) >= rank(*w),
                            _ => true,
                        }
                })
        };
        out.retain(|step| {
            if pending.iter().all(|p| p.needed_by(s, step.play)) {
                return true;
            }
            let played = |to: usize| {
                let mut t = *s;
                step.apply(&mut t, self.rules, |_| {});
                t.top(to)
            };
            let Some(left) = self.left_pending(s, *step, played) else {
                return false;
            };
            !moves_waiting(step.play)
                && needs_newest(step.play)
                && rest_may_wait(step.play, left.card())
        });
        out
    }

    /// What a step leaves that must be used by the next step (see
    /// `moves_after`), judged from the position before it (`was`);
    /// `played(to)` names the talon card it puts on column `to`:
    /// - a card worried back, and with draw one and unlimited redeals a
    ///   talon card played to a column (every talon card stays reachable
    ///   then, so it can wait in the talon as a card can wait on its
    ///   foundation): it must receive a card;
    /// - part of a run moved: the card it bared must be used;
    /// - a whole run moved off an empty base: a king must take the space.
    fn left_pending(
        &self,
        was: &State,
        step: Step,
        played: impl FnOnce(usize) -> Option<Card>,
    ) -> Option<Pending> {
        match step.play {
            Move::FoundationToColumn { suit: su, .. } => {
                Some(Pending::Worried(card(su, was.foundations[su as usize])))
            }
            Move::WasteToColumn(to)
                if self.rules.draw == 1 && self.rules.redeal == Redeal::Unlimited =>
            {
                played(to as usize).map(Pending::Receive)
            }
            Move::ColumnToColumn { from, count, .. } => {
                let run = was.run(from as usize);
                if (count as usize) < run.len() {
                    Some(Pending::Bared(run[run.len() - count as usize - 1]))
                } else if was.hidden[from as usize] == 0 {
                    Some(Pending::Emptied)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// Some(true) won, Some(false) exhausted, None over budget. An explicit
    /// stack: winning lines run to hundreds of moves.
    fn dfs(&mut self, root: State) -> Option<bool> {
        let mut s = root;
        self.count_node();
        self.autoplay(&mut s);
        if s.is_won() {
            return Some(true);
        }
        self.seen.insert(self.key(&s));
        self.stack = vec![Frame {
            moves: self.moves(&s, true),
            state: s,
            next: 0,
            line_start: 0,
            pending: Vec::new(),
        }];
        self.resume_dfs()
    }

    /// Goes on with the depth-first search from where `dfs` (or an
    /// earlier call) ran out of budget, with `extra` more positions. The
    /// position it stopped at was keyed and stacked before it stopped, so
    /// nothing is skipped: the transposition table and the path carry
    /// over, and the search ends as one run with the sum of the budgets
    /// would have.
    fn extend_dfs(&mut self, extra: u64) -> Option<bool> {
        self.budget = self.nodes.max(self.budget).saturating_add(extra);
        self.resume_dfs()
    }

    fn resume_dfs(&mut self) -> Option<bool> {
        let mut stack = std::mem::take(&mut self.stack);
        let verdict = self.run_dfs(&mut stack);
        self.stack = stack;
        verdict
    }

    fn run_dfs(&mut self, stack: &mut Vec<Frame>) -> Option<bool> {
        while let Some(frame) = stack.last_mut() {
            if frame.next == frame.moves.len() {
                let start = frame.line_start;
                stack.pop();
                self.line.truncate(start);
                continue;
            }
            let step = frame.moves[frame.next];
            frame.next += 1;
            let mut child = frame.state;
            let before = self.line.len();
            let line = &mut self.line;
            step.apply(&mut child, self.rules, |m| line.push(m));
            // Steps still pending after this one: those it does not need,
            // and the one it leaves.
            let mut pending: Vec<Pending> = frame
                .pending
                .iter()
                .copied()
                .filter(|p| !p.needed_by(&frame.state, step.play))
                .collect();
            if self.pass == Pass::NormalForm {
                pending.extend(self.left_pending(&frame.state, step, |to| child.top(to)));
            }
            // Forgetting the oldest only loosens the rule (every line it
            // allowed is still allowed), and keeps the stacks that differ,
            // and so the keys, few.
            if pending.len() > MAX_PENDING {
                pending.drain(..pending.len() - MAX_PENDING);
            }
            // A card just worried back waits for its follow-up; autoplay
            // would only send it home again.
            if pending.is_empty() {
                self.autoplay(&mut child);
            }
            if child.is_won() {
                return Some(true);
            }
            // The pending steps restrict the moves, so they are part of the key.
            let key = self.key_with(&child, &pending);
            if !self.seen.insert(key) {
                self.line.truncate(before);
                continue;
            }
            // The relaxed game speaks for every continuation; the ones a
            // pending step allows are among them, so the cut holds there
            // too.
            if !may_win(&child, self.rules) {
                self.line.truncate(before);
                continue;
            }
            let child_moves = if pending.is_empty() {
                self.moves(&child, true)
            } else {
                self.moves_after(&child, &pending)
            };
            if !pending.is_empty() && child_moves.is_empty() {
                // A preparing step with nothing to follow it is no step.
                self.line.truncate(before);
                continue;
            }
            // Positions expanded, so the budget buys search, not lookups.
            self.count_node();
            stack.push(Frame {
                moves: child_moves,
                state: child,
                next: 0,
                line_start: before,
                pending,
            });
            // Stacked first: the position is already keyed, so a resumed
            // search must expand it from the stack.
            if self.nodes > self.budget {
                return None;
            }
        }
        Some(false)
    }
}

/// Decides whether `deal` can be won with every card visible, within
/// `budget` search nodes.
///
/// Two rounds: the first, on at most `FIRST_ROUND` nodes, decides most
/// deals in a small fraction of a second; a deal it leaves unknown gets a
/// second round on the rest of the budget, with more of it spent on
/// win-finding searches of several kinds (many of the deals left are wins
/// a depth-first search finds late); its depth-first searches go on from
/// where the first round's stopped.
pub fn solve(deal: u64, rules: &Rules, budget: u64) -> Solved {
    solve_in_rounds(deal, rules, budget, FIRST_ROUND)
}

/// `solve` with a first round of `first_round` nodes (tests make it small
/// to exercise the second round on small budgets).
pub fn solve_in_rounds(deal: u64, rules: &Rules, budget: u64, first_round: u64) -> Solved {
    solve_with(deal, rules, budget, first_round, None, None)
}

/// `solve`, telling `ticker` of its progress (the same verdict and nodes:
/// watching changes nothing it does).
pub fn solve_watched(deal: u64, rules: &Rules, budget: u64, ticker: Ticker) -> Solved {
    let ticker = std::rc::Rc::new(ticker);
    solve_with(deal, rules, budget, FIRST_ROUND, None, Some(&ticker))
}

/// What the table of the relaxed rule set (draw one, unlimited redeals,
/// worrying back: `RELAXED`) says of a deal. Every other rule set's games
/// are games there too, so "lost" there is lost under any rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelaxedVerdict {
    Won,
    Lost,
    Unknown,
}

impl From<&Verdict> for RelaxedVerdict {
    /// A solve of the relaxed rule set, as its table records it.
    fn from(v: &Verdict) -> RelaxedVerdict {
        match v {
            Verdict::Won(_) => RelaxedVerdict::Won,
            Verdict::Lost => RelaxedVerdict::Lost,
            Verdict::Unknown => RelaxedVerdict::Unknown,
        }
    }
}

/// `solve` for a rule set other than `RELAXED`, given that rule set's
/// verdict on the deal at a budget at least `budget`. A loss there is the
/// answer; otherwise the search skips its own search of the relaxed game,
/// which is the very search that verdict came from with less budget (so it
/// could prove nothing the verdict does not say), and the depth-first
/// search under the deal's own rules gets its share.
pub fn solve_knowing_relaxed(
    deal: u64,
    rules: &Rules,
    budget: u64,
    relaxed: RelaxedVerdict,
) -> Solved {
    solve_with(deal, rules, budget, FIRST_ROUND, Some(relaxed), None)
}

fn solve_with(
    deal: u64,
    rules: &Rules,
    budget: u64,
    first_round: u64,
    relaxed: Option<RelaxedVerdict>,
    ticker: Option<&std::rc::Rc<Ticker>>,
) -> Solved {
    let known = relaxed.filter(|_| *rules != RELAXED);
    if known == Some(RelaxedVerdict::Lost) || !may_win_counting_kings(&State::deal(deal), rules) {
        return Solved {
            verdict: Verdict::Lost,
            nodes: 0,
        };
    }
    let first = budget.min(first_round);
    // Capped: on a lost deal the quick pass is wasted work, and the full
    // search finds the wins it misses as well.
    let quick = (first / 4).min(250_000);
    let mut searches = DepthFirst {
        // Under `RELAXED` itself that search would be the full one.
        relaxed: if known.is_some() || *rules == RELAXED {
            RelaxedSearch::Settled
        } else {
            RelaxedSearch::Open(None)
        },
        full: None,
    };
    let solved = round(
        deal,
        rules,
        first,
        &[(Pass::Quick, quick)],
        &mut searches,
        ticker,
    );
    if solved.verdict != Verdict::Unknown || budget <= solved.nodes {
        return solved;
    }
    let rest = budget - solved.nodes;
    let finders = [
        (Pass::Quick, rest / 4),
        (Pass::Plain, rest / 8),
        (Pass::NormalForm, rest / 8),
    ];
    let mut second = round(deal, rules, rest, &finders, &mut searches, ticker);
    second.nodes += solved.nodes;
    second
}

/// The nodes of the first round of `solve`.
const FIRST_ROUND: u64 = 1_000_000;

/// The depth-first searches of a deal, carried from one round to the
/// next so that the second resumes them instead of starting afresh.
struct DepthFirst<'a> {
    /// The search under `RELAXED` (losses only).
    relaxed: RelaxedSearch,
    /// The normal-form search under the deal's own rules, once started.
    full: Option<Search<'a>>,
}

/// Where the search of a deal under `RELAXED` stands.
enum RelaxedSearch {
    /// Still able to prove a loss: not started yet (None) or stopped by
    /// its budget, to be resumed.
    Open(Option<Search<'static>>),
    /// It can prove nothing more: the relaxed game was won, the relaxed
    /// rule set's own table already holds what it would find, or the deal's
    /// rules are the relaxed ones.
    Settled,
}

/// Starts the depth-first search `slot` holds (a new one on `budget`
/// nodes, from the deal), or resumes it with `budget` more; returns its
/// verdict and the nodes this call used.
fn run_depth_first<'a>(
    slot: &mut Option<Search<'a>>,
    rules: &'a Rules,
    deal: u64,
    budget: u64,
    ticker: Option<&std::rc::Rc<Ticker>>,
) -> (Option<bool>, u64) {
    match slot {
        Some(search) => {
            let before = search.nodes;
            let verdict = search.extend_dfs(budget);
            (verdict, search.nodes - before)
        }
        None => {
            let search = slot.insert(Search::new(rules, budget, Pass::NormalForm).watched(ticker));
            let verdict = search.dfs(State::deal(deal));
            (verdict, search.nodes)
        }
    }
}

/// One round of `solve` on `budget` nodes: the best-first searches
/// `finders` (each with its share of nodes; wins only), then under rules
/// other than draw one with unlimited redeals the search of the deal under
/// those rules (losses only), then the normal-form depth-first search;
/// the two depth-first searches go on from where an earlier round left
/// them (`searches`).
/// The best-first move sets win different deals: purposeful moves only
/// (`Pass::Quick`), every move with dominated cards sent home
/// (`Pass::Plain`), and every move with restorable cards sent home as well
/// (`Pass::NormalForm`'s autoplay; the pending steps are the depth-first
/// search's alone).
fn round<'a>(
    deal: u64,
    rules: &'a Rules,
    budget: u64,
    finders: &[(Pass, u64)],
    searches: &mut DepthFirst<'a>,
    ticker: Option<&std::rc::Rc<Ticker>>,
) -> Solved {
    let mut used = 0;
    for &(pass, share) in finders {
        let share = share.max(1);
        let mut search = Search::new(rules, share, pass).watched(ticker);
        let found = search.best_first(State::deal(deal));
        used += search.nodes.min(share);
        if let Some(line) = found {
            return Solved {
                verdict: Verdict::Won(line),
                nodes: used,
            };
        }
    }
    if let RelaxedSearch::Open(slot) = &mut searches.relaxed {
        // Drawing one with unlimited redeals reaches every talon card at
        // every moment, so any game won under other rules is won under
        // those too: a deal lost there is lost here. Its normal form (talon
        // cards wait in the talon) makes that search much the smaller.
        let share = budget.saturating_sub(used) / 2;
        let (verdict, spent) = run_depth_first(slot, &RELAXED, deal, share, ticker);
        used += spent;
        match verdict {
            Some(false) => {
                return Solved {
                    verdict: Verdict::Lost,
                    nodes: used,
                }
            }
            Some(true) => {
                searches.relaxed = RelaxedSearch::Settled;
            }
            None => {}
        }
    }
    let share = budget.saturating_sub(used);
    let (verdict, spent) = run_depth_first(&mut searches.full, rules, deal, share, ticker);
    let search = searches.full.as_mut().expect("the search just ran");
    Solved {
        verdict: search.verdict(verdict),
        nodes: used + spent,
    }
}

/// The certificate of a "winnable" verdict: `line` replayed from the deal
/// by the rules engine, every move legal where it is played, ends with
/// every card home. The batch job checks it before it stores the verdict.
pub fn check_win(deal: u64, rules: &Rules, line: &[Move]) -> Result<(), WinCheckError> {
    let s = State::replay(deal, rules, line).map_err(WinCheckError::Illegal)?;
    if s.is_won() {
        Ok(())
    } else {
        Err(WinCheckError::NotWon {
            deal,
            home: s.home(),
        })
    }
}

/// Why a winning line is not a certificate (see [`check_win`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WinCheckError {
    #[error("{0} in the winning line")]
    Illegal(super::state::ReplayError),
    #[error("deal {deal}: the winning line ends with {home} cards home")]
    NotWon { deal: u64, home: u32 },
}

/// The rules every other rule set relaxes to (see `solve`).
pub const RELAXED: Rules = Rules {
    draw: 1,
    redeal: Redeal::Unlimited,
    worry_back: true,
};

/// The reference for every cut above: a depth-first search over exact
/// positions (the pass count dropped when passes are unlimited), every
/// legal move, nothing pruned or merged. Some(won), or None past `budget`
/// positions. For tests on positions small enough to search this way.
pub fn exhaustive(root: State, rules: &Rules, budget: usize) -> Option<bool> {
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    let mut moves = Vec::new();
    while let Some(mut s) = stack.pop() {
        if s.is_won() {
            return Some(true);
        }
        if rules.redeal == Redeal::Unlimited {
            s.passes = 1;
        }
        if !seen.insert(s) {
            continue;
        }
        if seen.len() > budget {
            return None;
        }
        s.legal_moves(rules, &mut moves);
        // Pushed in reverse, so the moves are tried in the order listed
        // (foundation moves first, worrying back last): the same positions
        // in the end, but a win is met before the budget.
        for &m in moves.iter().rev() {
            let mut c = s;
            c.apply(m, rules);
            stack.push(c);
        }
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_form_search_alone_wins_with_replayable_lines() {
        // No quick pass: wins found through restorable autoplay, worrying
        // back and the pending steps.
        for text in ["1/unlimited", "3/unlimited"] {
            let rules = crate::games::klondike::parse_rules(text).unwrap();
            let mut won = 0;
            for deal in 0..12 {
                let mut search = Search::new(&rules, 150_000, Pass::NormalForm);
                if search.dfs(State::deal(deal)) == Some(true) {
                    check_win(deal, &rules, &search.line).unwrap();
                    won += 1;
                }
            }
            assert!(won >= 3, "{text}: {won} of 12 won by the full search alone");
        }
    }

    #[test]
    fn a_resumed_search_ends_as_one_run_with_the_whole_budget() {
        // Stopped after a first budget and resumed with a second, the
        // depth-first search must reach the verdict, the node count and the
        // winning line of one run with the sum: nothing the first part keyed
        // may be skipped by the second. Deals of both kinds, stopped at
        // several points (some stops land after a cut, some in a long line).
        let rules = crate::games::klondike::parse_rules("1/unlimited").unwrap();
        let (mut resumed, mut decided) = (0, 0);
        for deal in 0..40 {
            for first in [1, 97, 5_000] {
                let mut once = Search::new(&rules, first + 30_000 + 1, Pass::NormalForm);
                let whole = once.dfs(State::deal(deal));
                let mut parts = Search::new(&rules, first, Pass::NormalForm);
                let mut split = parts.dfs(State::deal(deal));
                if split.is_none() {
                    resumed += 1;
                    split = parts.extend_dfs(30_000);
                }
                assert_eq!(split, whole, "deal {deal}, stopped after {first}");
                assert_eq!(
                    parts.nodes, once.nodes,
                    "deal {deal}, stopped after {first}"
                );
                if whole == Some(true) {
                    assert_eq!(parts.line, once.line, "deal {deal}");
                    check_win(deal, &rules, &parts.line).unwrap();
                }
                decided += whole.is_some() as u32;
            }
        }
        assert!(
            resumed >= 60 && decided >= 30,
            "{resumed} resumed, {decided} decided"
        );
    }

    #[test]
    fn generating_only_needed_steps_lists_the_same_steps_as_filtering_all() {
        // Random normal-form lines from many deals, each position with the
        // pending steps the depth-first search would carry there: the
        // prefiltered follow-ups must be the full list's, in its order.
        use crate::rng::SplitMix64;
        let (mut compared, mut restricted) = (0, 0);
        for text in ["1/unlimited", "3/unlimited", "1/none"] {
            let rules = crate::games::klondike::parse_rules(text).unwrap();
            let search = Search::new(&rules, 0, Pass::NormalForm);
            let mut rng = SplitMix64::new(11);
            for deal in 0..60 {
                let mut s = State::deal(deal);
                let mut pending: Vec<Pending> = Vec::new();
                for _ in 0..80 {
                    let steps = if pending.is_empty() {
                        search.moves(&s, false)
                    } else {
                        let fast = search.moves_after_with(&s, &pending, true);
                        let slow = search.moves_after_with(&s, &pending, false);
                        let key =
                            |v: &[Step]| v.iter().map(|x| (x.advances, x.play)).collect::<Vec<_>>();
                        assert_eq!(key(&fast), key(&slow), "{text} deal {deal}");
                        compared += 1;
                        restricted += (search.moves(&s, false).len() > fast.len()) as u32;
                        fast
                    };
                    if steps.is_empty() {
                        break;
                    }
                    let step = steps[rng.below(steps.len() as u64) as usize];
                    let before = s;
                    step.apply(&mut s, &rules, |_| {});
                    pending.retain(|p| !p.needed_by(&before, step.play));
                    pending.extend(search.left_pending(&before, step, |to| s.top(to)));
                    if pending.len() > MAX_PENDING {
                        pending.drain(..pending.len() - MAX_PENDING);
                    }
                }
            }
        }
        assert!(
            compared >= 1_000 && restricted >= 500,
            "{compared} compared, {restricted} restricted"
        );
    }

    /// A xorshift stream from `seed`: each call a number below its argument.
    fn below(mut rng: u64) -> impl FnMut(u64) -> u64 {
        move |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        }
    }

    /// A late position of `deal`: the lowest `heights[suit]` cards of each
    /// suit already home, taken from wherever the deal put them; a column
    /// whose face-up card went home turns up the next one.
    fn late_position(deal: u64, heights: [u8; 4]) -> State {
        let mut s = State::deal(deal);
        let gone = |c: Card| rank(c) <= heights[suit(c) as usize];
        for col in 0..7 {
            let cards = s.columns[col];
            let hidden = s.hidden[col] as usize;
            let kept_hidden = cards[..hidden].iter().filter(|&&c| !gone(c)).count();
            s.columns[col].clear();
            for &c in cards.iter().filter(|&&c| !gone(c)) {
                s.columns[col].push(c);
            }
            let up_kept = !gone(cards[hidden]);
            s.hidden[col] = if up_kept {
                kept_hidden
            } else {
                kept_hidden.saturating_sub(1)
            } as u8;
        }
        let stock = s.stock;
        s.stock.clear();
        for &c in stock.iter().filter(|&&c| !gone(c)) {
            s.stock.push(c);
        }
        s.foundations = heights;
        s
    }

    #[test]
    fn late_positions_agree_with_an_exhaustive_search() {
        // Random foundation heights put the normal form's autoplay (cards
        // that can come back, talon cards included) and worrying back to
        // work in positions small enough to search exhaustively.
        let mut next = below(0x2545_f491_4f6c_dd1du64);
        // Each rule set: positions tried, and the fewest lost ones to meet.
        // (Reverting either unsound rule this test found fails it: a king
        // sent home from an empty base, and a pending step followed only
        // by a step that needs it.)
        let mut all_lost = 0;
        for (text, tries, min_lost) in [
            ("1/unlimited", 500, 1),
            ("3/unlimited", 300, 3),
            ("1/none", 300, 0),
            ("1/unlimited/noworry", 250, 1),
            ("3/none", 300, 1),
        ] {
            let rules = crate::games::klondike::parse_rules(text).unwrap();
            let (mut won, mut lost, mut big) = (0, 0, 0);
            for deal in 0..tries {
                let heights = std::array::from_fn(|_| 2 + next(12) as u8);
                let root = late_position(deal, heights);
                let Some(truth) = exhaustive(root, &rules, 30_000) else {
                    big += 1;
                    continue;
                };
                let mut search = Search::new(&rules, 1_000_000, Pass::NormalForm);
                // Over its budget the search decides nothing, which is no
                // disagreement (worrying kings back into empty columns made
                // a few of these larger than 10^6 positions).
                let Some(ours) = search.dfs(root) else {
                    big += 1;
                    continue;
                };
                assert_eq!(ours, truth, "{text} deal {deal} heights {heights:?}");
                if truth {
                    let s = root
                        .replay_from(&rules, &search.line)
                        .unwrap_or_else(|e| panic!("{text} deal {deal}: {e}"));
                    assert!(s.is_won(), "{text} deal {deal}: the line does not win");
                    assert!(may_win(&root, &rules), "{text} deal {deal}: relaxed game");
                    won += 1;
                } else {
                    lost += 1;
                }
            }
            eprintln!("{text}: {won} won, {lost} lost, {big} too big");
            assert!(
                won >= 50 && lost >= min_lost,
                "{text}: {won} won, {lost} lost"
            );
            all_lost += lost;
        }
        assert!(all_lost >= 8, "{all_lost} lost positions in all");
    }

    /// A random position with `heights` cards home per suit: of the other
    /// cards, up to 14 in the stock, the rest dealt at random over the
    /// columns, each with up to three face up where they happen to make a
    /// built run (every face-up run of a real game is built), the rest
    /// face down.
    fn random_endgame(heights: [u8; 4], next: &mut impl FnMut(u64) -> u64) -> State {
        let mut rest: Vec<Card> = (0..52)
            .filter(|&c: &Card| rank(c) > heights[suit(c) as usize])
            .collect();
        for i in (1..rest.len()).rev() {
            rest.swap(i, next(i as u64 + 1) as usize);
        }
        let mut s = State::deal(0);
        s.foundations = heights;
        s.stock.clear();
        s.waste.clear();
        let in_stock = rest.len().min(6 + next(9) as usize);
        for c in rest.drain(..in_stock) {
            s.stock.push(c);
        }
        for col in 0..7 {
            s.columns[col].clear();
        }
        for c in rest {
            s.columns[next(7) as usize].push(c);
        }
        // Face up, only the top card: a face-up run is always built, and
        // the cards under it were dealt at random. Face down, up to three.
        for col in 0..7 {
            let n = s.columns[col].len() as u64;
            s.hidden[col] = if n == 0 {
                0
            } else {
                (n - 1).min(next(4)) as u8
            };
            let cards = s.columns[col];
            let keep_up = cards.len() - s.hidden[col] as usize;
            // Turn face-up cards below the top face down when the run is not built.
            let built = cards[cards.len() - keep_up..]
                .windows(2)
                .all(|p| stacks(p[1], Some(p[0])));
            if !built {
                s.hidden[col] = n as u8 - 1;
            }
        }
        s
    }

    /// `s` in the independent engine's terms.
    fn independent(s: &State) -> crate::games::klondike::independent::rules::Table {
        let talon: Vec<Card> = s
            .waste
            .iter()
            .chain(s.stock.iter().rev())
            .copied()
            .collect();
        crate::games::klondike::independent::rules::Table::from_parts(
            std::array::from_fn(|c| s.columns[c].to_vec()),
            s.hidden,
            talon,
            s.waste.len(),
            s.foundations,
            s.passes,
        )
        .expect("a legal position")
    }

    #[test]
    fn endgames_agree_with_the_independent_checker_under_every_rule_set() {
        // Every cut of the solver at once (dominated and restorable cards
        // sent home, the pending steps, the talon keys, dealing folded into
        // plays, the relaxed game) against the independent exhaustive
        // search, which shares none of them, on random endgames under each
        // rule set: draw one and three, with and without worrying back, no
        // redeal, unlimited, and three passes. Some of the talon is dealt
        // first, so the waste holds cards (dominated ones among them).
        // (Sending a dominated waste card home drawing three fails it.)
        use crate::games::klondike::independent::loss_check::{check_from, Finding};
        let mut next = below(0x9e37_79b9_7f4a_7c15u64);
        let mut all_lost = 0;
        for (text, tries) in [
            ("1/unlimited", 250),
            ("3/unlimited", 250),
            ("1/none", 200),
            ("3/none", 200),
            ("3/3", 200),
            ("1/unlimited/noworry", 200),
            ("3/unlimited/noworry", 200),
        ] {
            let rules = crate::games::klondike::parse_rules(text).unwrap();
            let (mut won, mut lost, mut big) = (0, 0, 0);
            for deal in 0..tries {
                let heights: [u8; 4] = std::array::from_fn(|_| 4 + next(8) as u8);
                // Half the endgames come from the deal, half are random with
                // a long talon, where the draw-three groups decide.
                let mut root = if deal % 2 == 0 {
                    late_position(deal, heights)
                } else {
                    random_endgame(heights, &mut next)
                };
                for _ in 0..next(6) {
                    if !root.stock.is_empty() {
                        root.apply(Move::Deal, &rules);
                    }
                }
                let truth = match check_from(independent(&root), &rules, 40_000) {
                    Finding::Won(_) => true,
                    Finding::Lost { .. } => false,
                    Finding::Unfinished { .. } => {
                        big += 1;
                        continue;
                    }
                };
                let mut search = Search::new(&rules, 1_000_000, Pass::NormalForm);
                let Some(ours) = search.dfs(root) else {
                    big += 1;
                    continue;
                };
                if ours {
                    // The win replays in the independent engine too.
                    let mut t = independent(&root);
                    for (i, &m) in search.line.iter().enumerate() {
                        if let Err(e) = t.play(m, &rules) {
                            panic!("{text} deal {deal}: move {i} {m:?} of the win: {e}\n{root:?}\n{:?}", search.line);
                        }
                    }
                    assert!(t.is_won(), "{text} deal {deal}: the win does not win");
                }
                assert_eq!(
                    ours, truth,
                    "{text} deal {deal} heights {heights:?}: {root:?}"
                );
                if truth {
                    won += 1;
                } else {
                    lost += 1;
                }
            }
            eprintln!("{text}: {won} won, {lost} lost, {big} too big");
            assert!(won >= 100, "{text}: only {won} won endgames");
            all_lost += lost;
        }
        assert!(all_lost >= 60, "{all_lost} lost endgames in all");
    }

    #[test]
    fn a_watched_solve_reports_its_progress_and_decides_the_same() {
        use std::cell::RefCell;
        use std::rc::Rc;
        for (draw, deal) in [(1u8, 0u64), (3, 179), (1, 284)] {
            let rules = Rules {
                draw,
                redeal: Redeal::Unlimited,
                worry_back: true,
            };
            let plain = solve(deal, &rules, 200_000);
            let seen = Rc::new(RefCell::new(Vec::new()));
            let log = Rc::clone(&seen);
            let watched = solve_watched(
                deal,
                &rules,
                200_000,
                Ticker::new(50, move |n| log.borrow_mut().push(n)),
            );
            assert_eq!(
                (&watched.verdict, watched.nodes),
                (&plain.verdict, plain.nodes),
                "deal {deal}"
            );
            let seen = seen.borrow();
            assert!(
                seen.iter()
                    .enumerate()
                    .all(|(i, &n)| n == 50 * (i as u64 + 1)),
                "deal {deal}: reports {:?}",
                &seen[..seen.len().min(5)]
            );
            assert!(
                seen.len() as u64 >= plain.nodes / 50,
                "deal {deal}: {} reports for {} nodes",
                seen.len(),
                plain.nodes
            );
        }
    }

    #[test]
    fn winning_lines_replay_to_a_win() {
        let rules = Rules {
            draw: 1,
            redeal: Redeal::Unlimited,
            worry_back: true,
        };
        let mut won = 0;
        for deal in 0..20 {
            if let Verdict::Won(line) = solve(deal, &rules, 200_000).verdict {
                check_win(deal, &rules, &line).unwrap();
                // The check can fail: a line cut short does not win.
                assert!(check_win(deal, &rules, &line[..line.len() - 1]).is_err());
                won += 1;
            }
        }
        assert!(won >= 10, "only {won} of 20 deals solved");
    }
}
