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
//! 1. *A card no longer needed goes home at once from the tableau* (under
//!    every rule set): a card whose two possible tenants (one rank lower,
//!    other colour) are home, and their possible tenants (two ranks lower,
//!    its colour) too; aces and twos always. Take a winning line from the
//!    position. Sending the card home first changes only where it is; in
//!    the line, the card matters on the tableau only as a holder for its
//!    tenants, which are home. A tenant comes back down onto it only by
//!    worrying back, and a worried-back tenant matters on the tableau only
//!    as a holder for the card's own colour two ranks lower, home too. So
//!    drop from the line the card's own moves and every move of a card
//!    that rests, directly or not, on it in the line after a worry-back:
//!    what is left is legal (nothing it uses needed those cards) and wins.
//!    Only the first such card (lowest bit) is tried: the others stay no
//!    longer needed after it goes.
//! 2. *Drawing one with unlimited redeals, a talon card no longer needed
//!    goes home at once.* The same argument, with one more remark: drawing
//!    one with unlimited redeals, every talon card can be brought up at
//!    any time whatever left the talon before, so taking the card out of
//!    the talon removes no option. Drawing three (the groups of three
//!    shift), or with passes counted (bringing it up can cost a pass), that
//!    remark fails, and the rule is not used.
//! 3. *A card no longer needed is not worried back.* By rule 1's
//!    argument, from the position after worrying it back, sending it home
//!    again keeps the verdict: that position wins exactly when the present
//!    one does, so the step adds nothing.
//! 4. *A talon card no longer needed that can go home is not put on the
//!    tableau instead.* Both steps take it from the same place in the
//!    talon (the talon afterwards is the same); on the tableau, by rule 1's
//!    argument, sending it home keeps the verdict, which is the other step.
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
//!    rule lets every step of that line through.
//!
//! Order only (no verdict depends on it): bases to holders first, then
//! tableau cards home, talon cards put down, talon cards home (lower ranks
//! first), worrying back last.
//!
//! # The scout pass (drawing three)
//! Before the proved search, a search under cuts that are not proved
//! (`Cuts::Scout`: no worrying back, and every card goes home a rank
//! sooner, from the tableau and the talon) looks for a quick win, storing
//! at most `SCOUT_BUDGET` classes. It can miss a win, never invent one: its
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
use super::state::{Move, Redeal, Rules, State};
use super::verdict::Verdict;
use position::{Cuts, Position, Step, Steps};
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
    steps: Steps,
    next: u8,
}

fn search(layout: &Layout, root: Position, rules: &Rules, budget: u64, cuts: Cuts) -> (Found, u64) {
    match rules.redeal {
        Redeal::Passes(n) if n > 15 => search_keyed::<u128>(layout, root, rules, budget, cuts),
        _ => search_keyed::<u64>(layout, root, rules, budget, cuts),
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
    seen.insert(K::of(root.key()));
    let mut stack = vec![Frame {
        position: root,
        steps: root.steps_cut(layout, rules, cuts),
        next: 0,
    }];
    while let Some(top) = stack.last_mut() {
        let Some(&step) = top.steps.as_slice().get(top.next as usize) else {
            stack.pop();
            continue;
        };
        top.next += 1;
        let child = top.position.after(step, layout, rules);
        if child.is_won() {
            let mut line: Vec<Step> = stack
                .iter()
                .map(|f| f.steps.as_slice()[f.next as usize - 1])
                .collect();
            line.truncate(stack.len());
            return (Found::Won(line), seen.len());
        }
        if seen.insert(K::of(child.key())) {
            if seen.len() > budget {
                return (Found::Unknown, seen.len());
            }
            let steps = child.steps_cut(layout, rules, cuts);
            stack.push(Frame {
                position: child,
                steps,
                next: 0,
            });
        }
    }
    (Found::Lost, seen.len())
}

/// The moves of a winning line, for callers that hold a line of the rules
/// engine (re-exported so tests can compare engines).
pub type Line = Vec<Move>;

#[cfg(test)]
mod tests;
