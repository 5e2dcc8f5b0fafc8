//! The quotient solver: open-information Klondike decided by a plain
//! depth-first search over *classes* of positions, each class every
//! arrangement of the same face-up tableau cards over the same column
//! bases. Its state and step kinds follow lonelybot (the fastest open
//! solver, measured beside ours in `benches/klondike_reference.sh`); the
//! code is ours, and the rules that prune are proved here and tested
//! against exhaustive search per rule set.
//!
//! # The state
//! A position is the cards home per suit, per column how many dealt cards
//! are still in place (the face-down ones and the *base*, the lowest
//! face-up card, while it is the card dealt there), and the talon (which
//! of its 24 deal-order places still hold a card, the split between waste
//! and stock, the passes begun: `talon`). The face-up tableau cards are
//! then every card not home, not in the talon and not face down. The key
//! packs all of it exactly: no hashing collisions.
//!
//! Why one class is one state. Every face-up card that is not a base and
//! not a king rests on a holder: a face-up card one rank higher of the
//! other colour. The two holders of a card are twins (same rank and
//! colour). Let a pair's *spare* be its face-up cards less the face-up
//! cards resting on them; in every arrangement that is the number of the
//! pair's cards with nothing on them (only the two lower cards of the
//! other colour can rest on a card). Then:
//! - a card of a pair with a spare can be made a column's top: if
//!   something rests on it, its twin is bare, and the run resting on it
//!   moves onto the twin (a legal move that changes no key);
//! - a card can be put down exactly when its holders' pair has a spare
//!   (a king: when a column is empty), and then some holder is a top;
//! - moving a run whose lowest card rests on a holder onto the other
//!   holder changes no key; moving a base with its run turns a card up
//!   or empties the column (a `Reveal` step); a king from a column's floor
//!   to an empty column changes nothing.
//!
//! So what every move can do depends on the class alone, and every move
//! of every member leads into the class a step leads to: the steps over
//! classes are the moves over positions, less the moves that stay in the
//! class. A win exists from a position exactly when one exists from its
//! class. `line.rs` turns a winning line of steps back into moves (the
//! deals, and the run moved onto a twin before a covered card goes home),
//! and the line is replayed by the independent rules engine before it is
//! returned.
//!
//! # The steps
//! A base (with its run) onto a holder or a king into an empty column; a
//! tableau card home; a talon card home or onto the tableau, with the
//! deals and turns that bring it up as part of the step (`talon`); a
//! foundation's top back onto the tableau (when the rules allow worrying
//! back).
//!
//! # What is pruned, and why it keeps every verdict
//! Words. A card's *tenants* are the two cards one rank lower of the other
//! colour (the cards that may rest on it). A card is *dead* when it is
//! home and so are its tenants, their tenants, and so on (the cards of
//! lower rank whose colour alternates with the rank): then every card
//! below it in its suit and each of its tenants is dead too. A card of
//! rank R is *safe* when the other colour's two suits hold at least R − 2
//! cards and its own colour's at least R − 3 (aces and twos always; this
//! is lonelybot's threshold, one rank sooner than the one we used before).
//! A line's *length* is its moves that change the class, not counting
//! deals and turns of the waste (the search folds them into the step that
//! takes a card from the talon).
//!
//! **The safe-card lemma.** Let c be safe at position P, and either home
//! or free to go home (the top of a column; drawing one with unlimited
//! redeals, anywhere in the talon; under any rules, the talon's last card
//! when the split is at the end, or with unlimited redeals in the end's
//! cycle, stored as 0: `talon`). If a winning line L starts at P, so
//! does a winning line L′, no longer, that first sends c home (if it is not
//! home) and then never moves c or any card dead at P.
//!
//! Proof. Let C be c and the cards dead at P, and D the tenants of c that
//! are not dead at P and the card of c's twin suit two ranks below c if
//! it is not home: every other card c could hold, directly or not, is
//! dead (safety puts it home, and what it could hold). A D card already
//! home at P (a tenant of c while that twin card is out) counts as sent
//! home already. Only cards of C ∪ D ever rest on cards of C ∪ D. Build
//! L′ from L: after c goes home, a move of L that only moves cards of C,
//! or D cards already sent home, is dropped; the first move of L that
//! moves a D card not yet sent home (in a run, from the talon, or home)
//! is preceded by sending home that card and the D cards resting on it,
//! top first, and keeps the rest of its run, if any; every other move
//! keeps the cards it moves less those home in L′.
//! Throughout, the two positions differ only in that L′ has home the
//! cards of C and the D cards sent home so far, which in L lie on top of
//! their columns (nothing else rests on them; a C card leaves home in L only by
//! worrying back, onto a holder or an empty column), and that L′ may have
//! a card turned up (or a column empty) where L still has c over it.
//! Each move of L′ is legal: a D card goes home onto the card just below
//! it in its suit, which is dead at P, so home in L′ for good; any other
//! card's suit holds in L′ only extra cards of lower rank than it (a C or
//! D card above it in its suit would make it dead at P, so in C), so it
//! goes home, or is worried back, exactly when in L; a holder or an empty
//! column free in L is free in L′; the talon is the same (a D card leaves
//! it when it leaves it in L; drawing one with unlimited redeals every
//! card left in it can be brought up at any time, so lacking c costs
//! nothing; c the talon's last card: lacking it moves no other card's
//! place in dealing order, and L′'s split is L's capped at its one card
//! shorter length, which brings up every card L's brings up but c, follows
//! each deal and turn of L (a deal L makes onto c from the last split
//! before the end is dropped), and after any card is taken is L's again,
//! with the same passes); and a move turns up the same card as in L. So L′ ends with
//! every card home. It is no longer: every move of c in L (at least the
//! one home) is dropped for the one that sends it home first, and each D
//! card goes home once in L′ while its own move home in L is dropped.
//!
//! What the search takes from it, for a *shortest* winning line L from a
//! class (every rule below keeps one, so a plain search over the steps
//! left still reaches a win whenever there is one):
//! 1. *A safe card goes home at once from the tableau* (every rule set):
//!    the lemma's L′ is a shortest line starting with that step. Only the
//!    first safe card (lowest bit) is tried; the others stay safe.
//! 2. *Drawing one with unlimited redeals, a safe talon card goes home at
//!    once*: the same. Drawing three (the groups of three shift), or with
//!    passes counted (bringing a card up can cost a pass), lacking the card
//!    changes what the talon can do, and the rule is not used.
//! 3. *A safe card is not worried back*: if L did so, the lemma from the
//!    position before would drop that move and the card's later move home:
//!    a winning line two moves shorter than a shortest one.
//! 4. *A safe talon card that can go home is not put on the tableau
//!    instead*: if L did so, sending it home from the talon (the same
//!    talon afterwards) and then the lemma's line from the position after
//!    the putting down, less its first move, wins one move sooner.
//! 5. *The search does not visit a class twice*: a plain reachability
//!    search; a class already seen is either still being searched from
//!    (a cycle) or has no win.
//! 6. *A column is emptied only for a king, and only when none is empty*
//!    (under every rule set): a base at its column's floor (no card under
//!    it), not a king, is moved onto a holder only when no column is empty
//!    and some step could then put a king into a column: a king base with
//!    cards under it, a king the talon can bring up, or (worrying back) a
//!    king home. Take a winning line and its first such move F (base b
//!    off the floor of column C), and let K be the next step after it that
//!    puts a king into an empty column (none: the end of the line). Moving
//!    F to just before K keeps every step between legal: none of them uses
//!    the empty C (only a king can); b goes home from its floor as well as
//!    from a holder (in a class that depends on its pair's spare, not on
//!    where b lies); and without b on its holder pair, that pair has one
//!    spare more, which allows whatever it allowed. If b went home in
//!    between, C is empty already at K, and F is dropped. Otherwise F is
//!    still legal just before K (b is on its floor, and its holder pair,
//!    which held b all along in the line, has the spare for it), and the
//!    class after F is the one the line had there: the line continues
//!    unchanged. If at that point another column E is empty, K goes into
//!    E instead (which empty column a king stands in is not part of a
//!    class), and F is put off again to the next king step in the same
//!    way. Repeat with every such move that is not yet just before a king
//!    step with no other column empty: each time one moves later or goes,
//!    and none moves earlier, so this ends, in a line where every such
//!    move is just before a king step with no other column empty. That
//!    king step's source (a covered king base, the talon, a foundation) is
//!    there before F as after it, since F touches none of them. So the
//!    rule lets every step of that line through; and as steps only move
//!    later or go, a shortest line stays a shortest line.
//!
//! 7. *Drawing one with unlimited redeals, a talon card other than a king
//!    is put down only for the step after it* (worrying back or not): only
//!    when no card of its pair is bare on the tableau, and then the next
//!    step must be one that could not be made without it: a card put onto
//!    its pair (a base with its run, a talon card, a card worried back) or
//!    its twin sent home (the run on the twin moved onto it first). The
//!    position between the two steps is not stored, as it is not searched
//!    in full. Drawing one with unlimited redeals, the talon can bring up
//!    every card it holds at any time, and its class is the set of those
//!    cards. Take a winning line L and build L* from it by holding back
//!    each put-down of a non-king talon card (the card stays in the talon,
//!    *pending*) until a step needs it: before each step of L, while the
//!    step cannot be made for want of a pending card, put that card down
//!    first. The positions of L* are those of L with the pending cards in
//!    the talon and not on the tableau, which changes only spares: a pair
//!    has in L* its spare in L less its pending cards plus its pending
//!    tenants (no column empties or fills, as no king is held back; the
//!    foundations, the other cards and what the talon can bring up are as
//!    in L). A step needs a spare of one pair only (a card put onto it, or
//!    a card of it sent home; a king into an empty column needs none), and
//!    in L that pair has one; so in L* one pending card of that pair put
//!    down gives it one (a spare counts bare cards, never below 0). That
//!    put-down needs a spare of its holder pair, given the same way; this
//!    ends, as ranks rise and no king is pending. So L* is L with its
//!    put-downs reordered, as long, legal and winning, and each non-king
//!    put-down in it is made when its pair has no spare and is followed by
//!    a step that needs it: a card onto its pair, or a card of its pair
//!    home, its twin (the card itself sent straight home would make a line
//!    one move longer than sending it home from the talon, so not in a
//!    shortest line). If L obeys rule 6 at every step, L* obeys it at its
//!    first step: that is a put-down (rule 6 does not restrict those) or a
//!    step of L made from a position that differs only by pending cards,
//!    none of them a king: the same empty columns, covered king bases,
//!    foundations and kings in the talon.
//!
//! 8. *The talon's last card, when safe, goes home at once if the split
//!    is at the end (or in the end's cycle with unlimited redeals); with
//!    the split elsewhere, no card is reached by turning the waste over*
//!    (every rule set; drawing one with unlimited redeals this is rule 2).
//!    The first part is the lemma. For the second, let a shortest line L
//!    start by turning the waste over to take some card. Dealing on to the
//!    end first (no turn, no pass) gives a position P′ from which L's
//!    first step is the same step; at P′ the lemma gives a line no longer
//!    than L that starts by sending c home; and that first move, with the
//!    deals before it, is the step that takes c home from P (it reaches
//!    the last card without a turn and leaves the split at the end). So
//!    the search tries a step that starts a line as short as L.
//!
//! Together, by induction on the length of a shortest win: at a class
//! where a safe card is free, the search tries only its move home, and
//! the lemma gives a shortest line starting so; anywhere else, a shortest
//! line made to obey rule 6 as above (and, drawing one with unlimited
//! redeals, made L* as in rule 7) obeys rules 3 and 4 too (it is
//! shortest), so the search tries its first step and, if that is a
//! put-down, its second, and the class after them has a shorter win;
//! if rule 8 leaves out that first step (a turn of the waste), the step
//! that sends the last card home starts another shortest line (rule 8's
//! proof), and the class after it has a shorter win.
//!
//! Order only (no verdict depends on it): bases to holders first, then
//! tableau cards home, talon cards put down, talon cards home (lower ranks
//! first), worrying back last.
//!
//! # The scout pass (drawing three)
//! Before the proved search, a search under cuts that are not proved
//! (`Cuts::Scout`: no worrying back, and every card goes home a rank
//! sooner than a safe one, from the tableau and the talon) looks for a
//! quick win, storing at most `SCOUT_BUDGET` classes. It can miss a win, never invent one: its
//! steps are legal moves, and its line is replayed like any other. When it
//! finds none, the proved search starts from scratch and decides alone;
//! no loss ever rests on the scout.
//!
//! Tested against the independent exhaustive search (`independent::
//! loss_check`, no pruning, its own rules engine) on many late positions
//! of random deals under every rule set (`tests::agrees_with_exhaustive_search`).

mod bits;
mod line;
mod position;
mod seen;
mod talon;

pub use position::Layout;

use super::relaxed::may_win_counting_kings;
#[cfg(any(test, feature = "internals"))]
use super::state::Move;
use super::state::{Rules, State};
use super::verdict::Verdict;
use position::{Cuts, Position, Step, StepSet};
use talon::TalonReach;
use seen::{Key, Seen};

/// Classes the scout pass may store before the proved search starts (see
/// `solve_from`).
const SCOUT_BUDGET: u64 = 100_000;

/// What a search found, and the classes it stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Winnable (with a line replayed by the rules engine), lost, or
    /// unknown past the budget.
    pub verdict: Verdict,
    /// Classes stored, by the scout pass (drawing three, at most
    /// 100,000) and the proved search together.
    pub classes: u64,
    /// Whether the relaxed game proved the loss before any search.
    pub relaxed: bool,
}

/// Decides a deal's layout under `rules`, the proved search storing at
/// most `budget` classes. A winning line is turned into moves and replayed by the rules
/// engine (`state.rs`) before it is returned; one that does not replay is
/// a bug and panics rather than pass as a verdict.
pub fn solve(layout: &Layout, rules: &Rules, budget: u64) -> Outcome {
    solve_from(&line::dealt(layout), rules, budget)
}

/// Decides deal `deal` of our numbering (see [`solve`]).
pub fn solve_deal(deal: u64, rules: &Rules, budget: u64) -> Outcome {
    solve(
        &Layout::from_deck(&super::cards::shuffled(deal)),
        rules,
        budget,
    )
}

/// Decides any position of the rules engine (see [`solve`]).
pub fn solve_from(start: &State, rules: &Rules, budget: u64) -> Outcome {
    if !may_win_counting_kings(start, rules) {
        return Outcome {
            verdict: Verdict::Lost,
            classes: 0,
            relaxed: true,
        };
    }
    let (layout, root) = position::class_of(start, rules);
    // Drawing three, a scout pass first: a search for a quick win under
    // cuts that are not proved (`Cuts::Scout`). Its win is as good as any
    // (the line is replayed below); without one, the proved search decides.
    // Measured on deals 0-199: drawing three it halves the CPU of the wins
    // and costs the losses little; drawing one (where rule 2 already sends
    // talon cards home) it gains nothing.
    let scout = (rules.draw > 1)
        .then(|| search(&layout, root, rules, budget.min(SCOUT_BUDGET), Cuts::Scout));
    let (found, classes) = match scout {
        Some((won @ Found::Won(_), scouted)) => (won, scouted),
        missed => {
            let scouted = missed.map_or(0, |(_, n)| n);
            let (found, n) = search(&layout, root, rules, budget, Cuts::Proved);
            (found, n + scouted)
        }
    };
    let verdict = match found {
        Found::Won(steps) => {
            let moves = line::moves(start, &steps, rules)
                .unwrap_or_else(|e| panic!("quotient solver: a winning line does not replay: {e}"));
            Verdict::Won(moves)
        }
        Found::Lost => Verdict::Lost,
        Found::Unknown => Verdict::Unknown,
    };
    Outcome {
        verdict,
        classes,
        relaxed: false,
    }
}

enum Found {
    Won(Vec<Step>),
    Lost,
    Unknown,
}

struct Frame {
    position: Position,
    /// What the talon reaches at `position` (kept from the frame below
    /// while no step takes a talon card).
    reach: TalonReach,
    /// The steps not yet tried.
    steps: StepSet,
    /// The step last taken from here (the winning line is read off these).
    taken: Step,
}

fn search(layout: &Layout, root: Position, rules: &Rules, budget: u64, cuts: Cuts) -> (Found, u64) {
    if layout.key_bits(rules) > 64 {
        search_keyed::<u128>(layout, root, rules, budget, cuts)
    } else {
        search_keyed::<u64>(layout, root, rules, budget, cuts)
    }
}

fn search_keyed<K: Key>(
    layout: &Layout,
    root: Position,
    rules: &Rules,
    budget: u64,
    cuts: Cuts,
) -> (Found, u64) {
    if root.is_won() {
        return (Found::Won(Vec::new()), 1);
    }
    let mut seen: Seen<K> = Seen::new();
    seen.insert(K::of(root.key(layout)));
    let defer = cuts.defers_put_downs(rules);
    let reach = root.talon_reach(layout, rules);
    let mut stack = vec![Frame {
        position: root,
        reach,
        steps: root.step_set(layout, rules, cuts, reach),
        taken: Step::Reveal(0),
    }];
    while let Some(top) = stack.last_mut() {
        let Some(step) = top.steps.pop(layout, rules) else {
            stack.pop();
            continue;
        };
        top.taken = step;
        let child = top.position.after(step, layout, rules);
        if child.is_won() {
            let line: Vec<Step> = stack.iter().map(|f| f.taken).collect();
            return (Found::Won(line), seen.len());
        }
        let parent_reach = top.reach;
        let child_reach = || {
            if step.takes_from_talon() {
                child.talon_reach(layout, rules)
            } else {
                parent_reach
            }
        };
        if let Step::TalonToTableau(c, _) = step {
            if defer && position::deferrable(c) {
                // Rule 7: only the steps that need `c` follow, and the
                // position between is not stored (it is not searched in
                // full here, so it must not count as seen).
                let reach = child_reach();
                stack.push(Frame {
                    position: child,
                    reach,
                    steps: child.steps_needing(c, layout, rules, reach),
                    taken: step,
                });
                continue;
            }
        }
        if seen.insert(K::of(child.key(layout))) {
            if seen.len() > budget {
                return (Found::Unknown, seen.len());
            }
            let reach = child_reach();
            stack.push(Frame {
                position: child,
                reach,
                steps: child.step_set(layout, rules, cuts, reach),
                taken: step,
            });
        }
    }
    (Found::Lost, seen.len())
}

#[cfg(any(test, feature = "internals"))]
/// The moves of a winning line, for callers that hold a line of the rules
/// engine (re-exported so tests can compare engines).
pub type Line = Vec<Move>;

#[cfg(test)]
mod tests;
