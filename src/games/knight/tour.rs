//! One knight's tour on 8×8 from a1 under a rule, with seeded random
//! tie-breaks. Squares are `file + 8 · rank` (a1 = 0, h8 = 63).
//!
//! **The text's rule, made precise.** "As close to the edge as possible"
//! is the square's ring: its distance to the nearest edge, 0 (the outer
//! ring) to 3 (the centre four). "Anticlockwise" is the sense of turning
//! about the board's centre: a move goes anticlockwise when the angle of
//! its target about the centre is larger than its start's (by less than
//! half a turn), as seen with White at the bottom. A move that keeps the
//! angle, or turns by exactly half a turn, goes neither way. Two readings
//! differ in which wish comes first ([`Order`]), three in when the sense
//! reverses ([`Reversal`]): after moves 13, 26, 39 and 52 ("(13-14) …
//! etc." as a period), once only at move 13, or each time the knight has
//! gone once round the board since the last reversal (one lap is what a
//! knight on the outer rings has done by move 13 or 14).

use crate::rng::SplitMix64;
use std::f64::consts::PI;

/// The knight's eight moves as (file, rank) steps.
const STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// Which wish of the text's rule decides first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Nearest the edge first, then the sense of turning.
    RingFirst,
    /// The sense of turning first, then nearest the edge.
    TurnFirst,
}

/// When the sense of turning reverses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reversal {
    /// After moves 13, 26, 39 and 52.
    Every13,
    /// After move 13 only.
    Once13,
    /// Each time a full turn about the centre is done since the last one.
    Lap,
}

/// One precise reading of the text's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Which wish comes first.
    pub order: Order,
    /// When the sense reverses.
    pub reversal: Reversal,
}

impl Reading {
    /// Every reading, in the order reports list them.
    pub const ALL: [Reading; 6] = [
        Reading { order: Order::RingFirst, reversal: Reversal::Every13 },
        Reading { order: Order::RingFirst, reversal: Reversal::Once13 },
        Reading { order: Order::RingFirst, reversal: Reversal::Lap },
        Reading { order: Order::TurnFirst, reversal: Reversal::Every13 },
        Reading { order: Order::TurnFirst, reversal: Reversal::Once13 },
        Reading { order: Order::TurnFirst, reversal: Reversal::Lap },
    ];

    /// `ring-first/every13` and so on.
    pub fn name(self) -> String {
        let order = match self.order {
            Order::RingFirst => "ring-first",
            Order::TurnFirst => "turn-first",
        };
        let reversal = match self.reversal {
            Reversal::Every13 => "every13",
            Reversal::Once13 => "once13",
            Reversal::Lap => "lap",
        };
        format!("{order}/{reversal}")
    }

    /// The reading called `name`, or None.
    pub fn parse(name: &str) -> Option<Reading> {
        Reading::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// How the next square is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The text's rule, as read by `Reading`.
    Text(Reading),
    /// Warnsdorff's rule: the square with the fewest onward moves.
    Warnsdorff,
    /// Any unvisited square, uniformly.
    Random,
}

impl Rule {
    /// `text ring-first/every13`, `warnsdorff`, `random`.
    pub fn name(self) -> String {
        match self {
            Rule::Text(r) => format!("text {}", r.name()),
            Rule::Warnsdorff => "warnsdorff".into(),
            Rule::Random => "random".into(),
        }
    }
}

/// A tour: `order[k]` is the square of visit k + 1.
#[derive(Clone, Debug)]
pub struct Tour {
    /// The squares in the order visited, a1 first.
    pub order: Vec<u8>,
}

impl Tour {
    /// Every square visited.
    pub fn complete(&self) -> bool {
        self.order.len() == 64
    }
}

fn targets(from: u8, visited: u64) -> impl Iterator<Item = u8> {
    let (f, r) = ((from % 8) as i8, (from / 8) as i8);
    STEPS.iter().filter_map(move |&(df, dr)| {
        let (nf, nr) = (f + df, r + dr);
        let ok = (0..8).contains(&nf) && (0..8).contains(&nr);
        let to = (nf + 8 * nr) as u8;
        (ok && visited >> to & 1 == 0).then_some(to)
    })
}

/// Distance to the nearest edge: 0 on the outer ring, 3 in the centre.
pub fn ring(sq: u8) -> u8 {
    let (f, r) = (sq % 8, sq / 8);
    f.min(7 - f).min(r).min(7 - r)
}

fn angle(sq: u8) -> f64 {
    let (x, y) = ((sq % 8) as f64 - 3.5, (sq / 8) as f64 - 3.5);
    y.atan2(x)
}

/// The turn of a move about the centre, in (−π, π]: positive anticlockwise.
pub fn turn(from: u8, to: u8) -> f64 {
    let mut d = angle(to) - angle(from);
    while d > PI {
        d -= 2.0 * PI;
    }
    while d <= -PI {
        d += 2.0 * PI;
    }
    d
}

/// The best of `candidates` by `key` (smallest), ties broken uniformly.
fn pick<K: Ord>(candidates: &[u8], key: impl Fn(u8) -> K, rng: &mut SplitMix64) -> u8 {
    let best = candidates.iter().map(|&c| key(c)).min().expect("a candidate");
    let ties: Vec<u8> = candidates.iter().copied().filter(|&c| key(c) == best).collect();
    ties[rng.below(ties.len() as u64) as usize]
}

/// One tour from a1 under `rule`, ties broken by `rng`.
pub fn tour(rule: Rule, rng: &mut SplitMix64) -> Tour {
    let mut at = 0u8;
    let mut visited = 1u64;
    let mut order = vec![at];
    // +1 anticlockwise, −1 clockwise; the turning done since the last reversal.
    let mut sense = 1.0f64;
    let mut turned = 0.0f64;
    while order.len() < 64 {
        let candidates: Vec<u8> = targets(at, visited).collect();
        if candidates.is_empty() {
            break;
        }
        let next = match rule {
            Rule::Random => candidates[rng.below(candidates.len() as u64) as usize],
            Rule::Warnsdorff => pick(&candidates, |c| targets(c, visited | 1 << c).count(), rng),
            Rule::Text(reading) => {
                let against = |c: u8| u8::from(sense * turn(at, c) <= 0.0 || turn(at, c) == PI);
                match reading.order {
                    Order::RingFirst => pick(&candidates, |c| (ring(c), against(c)), rng),
                    Order::TurnFirst => pick(&candidates, |c| (against(c), ring(c)), rng),
                }
            }
        };
        turned += sense * turn(at, next);
        at = next;
        visited |= 1 << at;
        order.push(at);
        if let Rule::Text(reading) = rule {
            let moves = order.len() - 1;
            let reverse = match reading.reversal {
                Reversal::Every13 => moves % 13 == 0,
                Reversal::Once13 => moves == 13,
                Reversal::Lap => turned >= 2.0 * PI,
            };
            if reverse {
                sense = -sense;
                turned = 0.0;
            }
        }
    }
    Tour { order }
}

/// Whether `t` is a knight's path from a1 over distinct squares: the
/// check a simulated tour passes before it is counted.
pub fn is_knight_path(t: &Tour) -> bool {
    let mut seen = 0u64;
    t.order.first() == Some(&0)
        && t.order.iter().all(|&s| {
            let new = s < 64 && seen >> s & 1 == 0;
            seen |= 1 << (s % 64);
            new
        })
        && t.order.windows(2).all(|w| {
            let (df, dr) = ((w[1] % 8) as i8 - (w[0] % 8) as i8, (w[1] / 8) as i8 - (w[0] / 8) as i8);
            df.abs() * dr.abs() == 2
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turn_about_the_centre_is_anticlockwise_when_positive() {
        // a1 -> b3 and a1 -> c2 both turn from the bottom-left corner.
        // c2 (file 2, rank 1) lies anticlockwise of a1 seen from the centre
        // (angles grow from the -x axis downward to the -y axis).
        assert!(turn(0, 10) > 0.0, "a1 to c2 goes anticlockwise");
        assert!(turn(0, 17) < 0.0, "a1 to b3 goes clockwise");
        assert_eq!(ring(0), 0);
        assert_eq!(ring(27), 3);
        assert_eq!(ring(9), 1);
    }

    #[test]
    fn every_rule_walks_a_knight_path_and_warnsdorff_nearly_always_completes() {
        let mut rng = SplitMix64::new(7);
        let mut complete = 0;
        for _ in 0..200 {
            let t = tour(Rule::Warnsdorff, &mut rng);
            assert!(is_knight_path(&t));
            complete += t.complete() as u32;
        }
        assert!(complete > 150, "Warnsdorff completed {complete} of 200");
        for r in Reading::ALL {
            for _ in 0..50 {
                assert!(is_knight_path(&tour(Rule::Text(r), &mut rng)), "{}", r.name());
            }
            assert_eq!(Reading::parse(&r.name()), Some(r));
        }
        let mut random_complete = 0;
        for _ in 0..200 {
            let t = tour(Rule::Random, &mut rng);
            assert!(is_knight_path(&t));
            random_complete += t.complete() as u32;
        }
        assert_eq!(random_complete, 0, "a random walk almost never completes");
    }

    #[test]
    fn a_path_that_repeats_or_jumps_is_refused() {
        assert!(!is_knight_path(&Tour { order: vec![0, 10, 0] }));
        assert!(!is_knight_path(&Tour { order: vec![0, 1] }));
        assert!(!is_knight_path(&Tour { order: vec![10, 0] }));
    }
}
