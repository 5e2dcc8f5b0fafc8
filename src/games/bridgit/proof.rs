//! Proofs that a White strategy always wins: searches over Black's play and
//! seeded random games.

use super::board::{Board, Player};
use super::pairing::Pairing;
use super::strategy::{Position, Strategy};
use crate::rng::SplitMix64;
use std::collections::HashSet;

/// Sites fit a u64 mask up to n = 6 (61 sites).
pub const MAX_SEQUENCE_SEARCH: usize = 6;

/// Result of an exhaustive search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchProof {
    /// Whether White won every game examined.
    pub white_always_wins: bool,
    /// Distinct positions (or pair choices) examined.
    pub positions: u64,
}

fn mask(v: &[bool]) -> u64 {
    v.iter()
        .enumerate()
        .fold(0, |m, (i, &x)| m | (x as u64) << i)
}

/// Every Black reply sequence against the strategy, positions memoised by
/// the two claimed sets (the strategies' replies depend on nothing else).
/// Boards up to n = MAX_SEQUENCE_SEARCH.
pub fn every_reply_sequence(b: &Board, s: &impl Strategy) -> SearchProof {
    assert!(b.sites() <= 64, "sequence search needs n <= 6");
    fn go(b: &Board, s: &impl Strategy, p: &Position, seen: &mut HashSet<(u64, u64)>) -> bool {
        if !seen.insert((mask(&p.white), mask(&p.black))) {
            return true;
        }
        for site in 0..b.sites() {
            if !p.is_free(site) {
                continue;
            }
            let mut q = p.clone();
            q.black_moves(b, s, site);
            match q.winner(b) {
                Some(Player::White) => continue,
                Some(Player::Black) => return false,
                // A full board always has a winner, so a free site remains.
                None => {
                    if !go(b, s, &q, seen) {
                        return false;
                    }
                }
            }
        }
        true
    }
    let mut seen = HashSet::new();
    let ok = go(b, s, &Position::start(b, s), &mut seen);
    SearchProof {
        white_always_wins: ok,
        positions: seen.len() as u64,
    }
}

/// Every choice Black can make against a pairing: which site of each pair
/// he holds. Against a pairing the position after any reply sequence
/// depends only on these choices for the pairs touched so far, and White's
/// connection and Black's crossing only grow as sites are added; so White
/// wins every game exactly when he is connected once every pair is taken,
/// whatever Black chose. The search fixes pairs in order and stops a branch
/// as soon as White is connected.
pub fn every_pair_choice(b: &Board, p: &Pairing) -> SearchProof {
    let pairs = p.pairs();
    let mut white = vec![false; b.sites()];
    white[p.opening] = true;
    let mut positions = 0u64;
    fn go(
        b: &Board,
        pairs: &[(usize, usize)],
        k: usize,
        white: &mut Vec<bool>,
        positions: &mut u64,
    ) -> bool {
        *positions += 1;
        if b.connects(white) {
            return true;
        }
        let Some(&(x, y)) = pairs.get(k) else {
            return false;
        };
        for w in [x, y] {
            white[w] = true;
            let ok = go(b, pairs, k + 1, white, positions);
            white[w] = false;
            if !ok {
                return false;
            }
        }
        true
    }
    let ok = go(b, &pairs, 0, &mut white, &mut positions);
    SearchProof {
        white_always_wins: ok,
        positions,
    }
}

/// Seeded games with uniformly random Black moves; returns White's wins.
pub fn random_games(b: &Board, s: &impl Strategy, games: u64, seed: u64) -> u64 {
    play_out(b, s, games, seed, |p| {
        (0..b.sites()).filter(|&i| p.is_free(i)).collect()
    })
}

/// Seeded games against a Black player who always takes a free site on a
/// shortest crossing (fewest free sites still to take, White's sites
/// blocked; ties broken at random). Returns White's wins.
pub fn shortest_crossing_games(b: &Board, s: &impl Strategy, games: u64, seed: u64) -> u64 {
    play_out(b, s, games, seed, |p| shortest_crossing_sites(b, p))
}

/// Plays `games` games in which Black picks uniformly among the sites
/// `candidates` offers; returns White's wins.
fn play_out(
    b: &Board,
    s: &impl Strategy,
    games: u64,
    seed: u64,
    candidates: impl Fn(&Position) -> Vec<usize>,
) -> u64 {
    let mut rng = SplitMix64::new(seed);
    let mut wins = 0;
    for _ in 0..games {
        let mut p = Position::start(b, s);
        loop {
            if let Some(w) = p.winner(b) {
                wins += (w == Player::White) as u64;
                break;
            }
            let choices = candidates(&p);
            if choices.is_empty() {
                break;
            }
            let site = choices[rng.below(choices.len() as u64) as usize];
            p.black_moves(b, s, site);
        }
    }
    wins
}

/// Free sites on some cheapest T–B crossing of Black's graph.
fn shortest_crossing_sites(b: &Board, p: &Position) -> Vec<usize> {
    let dist_from = |start: usize| -> Vec<u32> {
        let mut adj: Vec<Vec<(usize, u32)>> = vec![Vec::new(); b.black_vertices];
        for (i, &(x, y)) in b.black_edges.iter().enumerate() {
            if !p.white[i] {
                let w = p.is_free(i) as u32;
                adj[x].push((y, w));
                adj[y].push((x, w));
            }
        }
        let mut dist = vec![u32::MAX; b.black_vertices];
        let mut deque = std::collections::VecDeque::from([start]);
        dist[start] = 0;
        while let Some(v) = deque.pop_front() {
            for &(w, c) in &adj[v] {
                if dist[v] + c < dist[w] {
                    dist[w] = dist[v] + c;
                    if c == 0 {
                        deque.push_front(w);
                    } else {
                        deque.push_back(w);
                    }
                }
            }
        }
        dist
    };
    let (top, bottom) = (dist_from(0), dist_from(1));
    let best = top[1];
    if best == u32::MAX {
        return Vec::new();
    }
    (0..b.sites())
        .filter(|&i| {
            let (x, y) = b.black_edges[i];
            p.is_free(i)
                && [(x, y), (y, x)].iter().any(|&(u, v)| {
                    top[u] != u32::MAX && bottom[v] != u32::MAX && top[u] + 1 + bottom[v] == best
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::trees::TreeStrategy;
    use super::*;

    #[test]
    fn both_strategies_survive_every_reply_sequence_on_small_boards() {
        for n in 2..=4 {
            let b = Board::new(n);
            let t = TreeStrategy::find(&b).unwrap();
            assert!(
                every_reply_sequence(&b, &t).white_always_wins,
                "trees, n = {n}"
            );
            let p = Pairing::staircase(&b);
            let seq = every_reply_sequence(&b, &p);
            let choice = every_pair_choice(&b, &p);
            assert!(
                seq.white_always_wins && choice.white_always_wins,
                "pairs, n = {n}"
            );
        }
    }

    #[test]
    fn the_searches_catch_a_broken_strategy() {
        // Everything in one "tree": White's replies fall back to the lowest
        // free site, which Black can beat.
        let b = Board::new(3);
        let mut s = TreeStrategy::find(&b).unwrap();
        for t in s.tree.iter_mut().flatten() {
            *t = 0;
        }
        assert!(!s.check(&b));
        assert!(!every_reply_sequence(&b, &s).white_always_wins);
    }

    /// The shortest-crossing player is a real threat: it beats a White who
    /// answers at the lowest free site in most games, more often than
    /// random Black does.
    #[test]
    fn the_shortest_crossing_player_beats_a_naive_white() {
        struct Lowest;
        impl Strategy for Lowest {
            fn opening(&self) -> usize {
                0
            }
            fn reply(&self, _: &Board, white: &[bool], black: &[bool], _: usize) -> Option<usize> {
                (0..white.len()).find(|&i| !white[i] && !black[i])
            }
        }
        for n in [4, 6, 8] {
            let b = Board::new(n);
            let against_shortest = shortest_crossing_games(&b, &Lowest, 100, 1);
            let against_random = random_games(&b, &Lowest, 100, 1);
            assert!(
                against_shortest < 50 && against_shortest < against_random,
                "n = {n}"
            );
            let p = Pairing::staircase(&b);
            assert_eq!(shortest_crossing_games(&b, &p, 20, 1), 20, "n = {n}");
            let t = TreeStrategy::find(&b).unwrap();
            assert_eq!(shortest_crossing_games(&b, &t, 20, 1), 20, "n = {n}");
        }
    }

    /// Every pairing of the 3×3 board into pairs of neighbouring sites
    /// (sharing a dot of either colour), after every opening: the search
    /// over pair choices, the search over reply sequences and a direct test
    /// of every end position agree, and the structural check never passes a
    /// losing pairing.
    #[test]
    fn on_every_neighbour_pairing_of_n3_the_proofs_agree() {
        let b = Board::new(3);
        let neighbours = |s: usize, t: usize| {
            let ((sx, sy), (tx, ty)) = (b.coords[s], b.coords[t]);
            let (dx, dy) = (sx.abs_diff(tx), sy.abs_diff(ty));
            (dx, dy) == (1, 1) || (dx + dy == 2 && (dx == 0 || dy == 0))
        };
        fn matchings(
            partner: &mut Vec<Option<usize>>,
            opening: usize,
            ok: &dyn Fn(usize, usize) -> bool,
            visit: &mut dyn FnMut(&[Option<usize>]),
        ) {
            let Some(s) = (0..partner.len()).find(|&s| s != opening && partner[s].is_none()) else {
                visit(partner);
                return;
            };
            for t in s + 1..partner.len() {
                if t != opening && partner[t].is_none() && ok(s, t) {
                    partner[s] = Some(t);
                    partner[t] = Some(s);
                    matchings(partner, opening, ok, visit);
                    partner[s] = None;
                    partner[t] = None;
                }
            }
        }
        let (mut tried, mut winning, mut structural_passes) = (0, 0, 0);
        for opening in 0..b.sites() {
            let mut partner = vec![None; b.sites()];
            matchings(&mut partner, opening, &neighbours, &mut |partner| {
                let p = Pairing {
                    opening,
                    partner: partner.to_vec(),
                };
                tried += 1;
                let choices = every_pair_choice(&b, &p).white_always_wins;
                let sequences = every_reply_sequence(&b, &p).white_always_wins;
                let pairs = p.pairs();
                let ends = (0..1u32 << pairs.len()).all(|c| {
                    let mut black = vec![false; b.sites()];
                    for (k, &(x, y)) in pairs.iter().enumerate() {
                        black[if c >> k & 1 == 1 { x } else { y }] = true;
                    }
                    !b.black_crosses(&black)
                });
                assert_eq!(choices, sequences, "{p:?}");
                assert_eq!(choices, ends, "{p:?}");
                if p.is_well_formed(&b) && p.structural_check(&b).blocked {
                    assert!(choices, "{p:?}");
                    structural_passes += 1;
                }
                winning += choices as u32;
            });
        }
        assert!(winning >= 1 && winning < tried, "{winning} of {tried}");
        assert!(structural_passes >= 1);
        eprintln!("{winning} of {tried} win, {structural_passes} pass the structural check");
    }
}
