//! Squares, bitboards and attack sets. Square 0 is a1, 7 is h1, 63 is h8.
//! Leapers and sliders come from tables built at compile time (sliders by
//! subtraction along files and diagonals and a small rank table; the ray
//! walks they replaced check them in the tests).

/// A set of squares, bit sq for square sq (a1 = 0, b1 = 1, …, h8 = 63).
pub type Bitboard = u64;

/// The file of a square, 0 (a) to 7 (h).
pub const fn file_of(sq: u8) -> u8 {
    sq & 7
}
/// The rank of a square, 0 (rank 1) to 7 (rank 8).
pub const fn rank_of(sq: u8) -> u8 {
    sq >> 3
}
/// The square of a file and rank.
pub const fn square(file: u8, rank: u8) -> u8 {
    rank * 8 + file
}
/// The set holding one square.
pub const fn bit(sq: u8) -> Bitboard {
    1u64 << sq
}

/// Iterates the squares of a bitboard, lowest first.
pub fn squares(mut b: Bitboard) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let s = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(s)
        }
    })
}

/// The square's name ("e4").
pub fn square_name(sq: u8) -> String {
    format!(
        "{}{}",
        (b'a' + file_of(sq)) as char,
        (b'1' + rank_of(sq)) as char
    )
}

/// The square a name gives ("e4"), or None.
pub fn parse_square(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(square(b[0] - b'a', b[1] - b'1'))
}

const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i8;
        let r = (sq / 8) as i8;
        let mut i = 0;
        while i < deltas.len() {
            let (df, dr) = deltas[i];
            let (nf, nr) = (f + df, r + dr);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// The squares a king attacks from each square.
pub static KING: [Bitboard; 64] = leaper_table(&[
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
]);
/// The squares a knight attacks from each square.
pub static KNIGHT: [Bitboard; 64] = leaper_table(&[
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
]);
/// Files a and b, and files g and h: a step of one or two files east
/// (west) cannot land on them.
const FILE_A: Bitboard = 0x0101_0101_0101_0101;
const FILE_AB: Bitboard = FILE_A | FILE_A << 1;
const FILE_H: Bitboard = FILE_A << 7;
const FILE_GH: Bitboard = FILE_H | FILE_H >> 1;

/// The squares one rook step (a rank or file neighbour) from a square of
/// `b`, by shifts: a whole board at once, where the tables give one square.
pub fn rook_steps(b: Bitboard) -> Bitboard {
    b << 8 | b >> 8 | (b & !FILE_H) << 1 | (b & !FILE_A) >> 1
}

/// The squares one bishop step (a diagonal neighbour) from a square of `b`.
pub fn bishop_steps(b: Bitboard) -> Bitboard {
    (b & !FILE_H) << 9 | (b & !FILE_A) << 7 | (b & !FILE_H) >> 7 | (b & !FILE_A) >> 9
}

/// The squares a knight's move from a square of `b`.
pub fn knight_steps(b: Bitboard) -> Bitboard {
    let (east, west) = (b & !FILE_H, b & !FILE_A);
    let (east2, west2) = (b & !FILE_GH, b & !FILE_AB);
    east << 17 | west << 15 | east2 << 10 | west2 << 6 | east >> 15 | west >> 17 | east2 >> 6 | west2 >> 10
}

/// Squares a pawn of each colour attacks from a square.
pub static PAWN_ATTACKS: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// Directions as (file step, rank step); the first four increase the square
/// index, the last four decrease it.
const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
];

const fn ray_table() -> [[Bitboard; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRS[d];
        let mut sq = 0;
        while sq < 64 {
            let mut f = (sq % 8) as i8 + df;
            let mut r = (sq / 8) as i8 + dr;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[d][sq] |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

#[cfg(test)]
static RAYS: [[Bitboard; 64]; 8] = ray_table();

const fn union_of_rays(dirs: [usize; 4]) -> [Bitboard; 64] {
    let rays = ray_table();
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 4 {
            t[sq] |= rays[dirs[i]][sq];
            i += 1;
        }
        sq += 1;
    }
    t
}

const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let rays = ray_table();
    let mut line = [[0u64; 64]; 64];
    let mut between = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            // Direction d and its opposite (d + 4 mod 8) make the full line.
            let full = rays[d][a] | rays[(d + 4) % 8][a] | (1u64 << a);
            let mut b = 0;
            while b < 64 {
                if rays[d][a] & (1u64 << b) != 0 {
                    line[a][b] = full;
                    between[a][b] = rays[d][a] & !rays[d][b] & !(1u64 << b);
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    (line, between)
}

static LINES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();

/// The whole line through two aligned squares (0 when not aligned).
pub fn line(a: u8, b: u8) -> Bitboard {
    LINES.0[a as usize][b as usize]
}

/// The squares strictly between two aligned squares (0 when not aligned).
pub fn between(a: u8, b: u8) -> Bitboard {
    LINES.1[a as usize][b as usize]
}

/// Rook and bishop attacks on an empty board: a cheap test of whether a
/// slider can attack a square at all before walking its rays.
pub static ROOK_LINES: [Bitboard; 64] = union_of_rays([0, 1, 4, 5]);
/// Bishop attacks on an empty board, per square.
pub static BISHOP_LINES: [Bitboard; 64] = union_of_rays([2, 3, 6, 7]);

#[cfg(test)]
fn ray_attacks(dir: usize, sq: u8, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[dir][sq as usize];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    let nearest = if dir < 4 {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    ray ^ RAYS[dir][nearest as usize]
}

/// The squares a rook on `sq` attacks, given the occupied squares: its
/// file by subtraction (see [`line_attacks`]), its rank by a 512-byte
/// table. No branch and no table larger than a few KiB: the retrograde
/// sweeps compute attacks for every position they touch, among random
/// accesses to a table of hundreds of megabytes that evict anything big
/// (with a magic-bitboard table of 800 KiB, `perf` put nearly half the
/// attack time on its loads).
#[inline]
pub fn rook_attacks(sq: u8, occupied: Bitboard) -> Bitboard {
    let (f, r) = (file_of(sq) as u32, rank_of(sq) as u32);
    let inner = (occupied >> (8 * r + 1)) & 63;
    let rank = (RANK_ATTACKS[f as usize][inner as usize] as Bitboard) << (8 * r);
    rank | line_attacks(sq, occupied, LINE_MASKS[0][sq as usize & 63])
}

/// The squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: u8, occupied: Bitboard) -> Bitboard {
    line_attacks(sq, occupied, LINE_MASKS[1][sq as usize & 63])
        | line_attacks(sq, occupied, LINE_MASKS[2][sq as usize & 63])
}

/// Attacks along one line holding at most one square a rank (a file or a
/// diagonal; `mask` the line without `sq`): subtracting twice the piece
/// from the blockers borrows up to the nearest blocker above; the same
/// done on the board flipped rank for rank (a byte swap) finds the one
/// below.
#[inline]
fn line_attacks(sq: u8, occupied: Bitboard, mask: Bitboard) -> Bitboard {
    let o = occupied & mask;
    let r = bit(sq);
    let up = o.wrapping_sub(r.wrapping_mul(2));
    let down = o
        .swap_bytes()
        .wrapping_sub(r.swap_bytes().wrapping_mul(2))
        .swap_bytes();
    (up ^ down) & mask
}

/// Per square, without the square itself: its file, its diagonal (a1-h8
/// direction) and its anti-diagonal.
static LINE_MASKS: [[Bitboard; 64]; 3] = line_masks();

const fn line_masks() -> [[Bitboard; 64]; 3] {
    let mut t = [[0u64; 64]; 3];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (g, s) = ((other % 8) as i32, (other / 8) as i32);
            if other != sq {
                if g == f {
                    t[0][sq] |= 1u64 << other;
                }
                if g - s == f - r {
                    t[1][sq] |= 1u64 << other;
                }
                if g + s == f + r {
                    t[2][sq] |= 1u64 << other;
                }
            }
            other += 1;
        }
        sq += 1;
    }
    t
}

/// Attacks along a rank from file `f`, by the occupancy of files b to g
/// (the ends never block anything beyond them).
static RANK_ATTACKS: [[u8; 64]; 8] = rank_attacks_table();

const fn rank_attacks_table() -> [[u8; 64]; 8] {
    let mut t = [[0u8; 64]; 8];
    let mut f = 0;
    while f < 8 {
        let mut inner = 0;
        while inner < 64 {
            let occ = (inner << 1) as u32;
            let mut a = 0u32;
            let mut g = f as i32 + 1;
            while g < 8 {
                a |= 1 << g;
                if occ & (1 << g) != 0 {
                    break;
                }
                g += 1;
            }
            g = f as i32 - 1;
            while g >= 0 {
                a |= 1 << g;
                if occ & (1 << g) != 0 {
                    break;
                }
                g -= 1;
            }
            t[f][inner] = a as u8;
            inner += 1;
        }
        f += 1;
    }
    t
}

/// Rook attacks by walking the rays (the tests' check of the lookups).
#[cfg(test)]
fn rook_rays(sq: u8, occupied: Bitboard) -> Bitboard {
    ray_attacks(0, sq, occupied)
        | ray_attacks(1, sq, occupied)
        | ray_attacks(4, sq, occupied)
        | ray_attacks(5, sq, occupied)
}

/// Bishop attacks by walking the rays.
#[cfg(test)]
fn bishop_rays(sq: u8, occupied: Bitboard) -> Bitboard {
    ray_attacks(2, sq, occupied)
        | ray_attacks(3, sq, occupied)
        | ray_attacks(6, sq, occupied)
        | ray_attacks(7, sq, occupied)
}

/// The eight symmetries of the board: bit 0 mirrors files (a↔h), bit 1
/// mirrors ranks, bit 2 transposes (a1–h8 diagonal), applied in that order
/// after the transpose.
pub fn transform(sym: u8, sq: u8) -> u8 {
    TRANSFORMS[sym as usize & 7][sq as usize & 63]
}

const fn transform_slow(sym: u8, sq: u8) -> u8 {
    let (mut f, mut r) = (file_of(sq), rank_of(sq));
    if sym & 4 != 0 {
        let t = f;
        f = r;
        r = t;
    }
    if sym & 1 != 0 {
        f = 7 - f;
    }
    if sym & 2 != 0 {
        r = 7 - r;
    }
    square(f, r)
}

const fn transform_table() -> [[u8; 64]; 8] {
    let mut t = [[0u8; 64]; 8];
    let mut sym = 0;
    while sym < 8 {
        let mut sq = 0;
        while sq < 64 {
            t[sym][sq] = transform_slow(sym as u8, sq as u8);
            sq += 1;
        }
        sym += 1;
    }
    t
}

static TRANSFORMS: [[u8; 64]; 8] = transform_table();

/// `transform` applied to every square of a bitboard, by delta swaps
/// (a handful of shifts and masks instead of a loop over squares).
pub fn transform_bb(sym: u8, mut b: Bitboard) -> Bitboard {
    if sym & 4 != 0 {
        b = transpose(b);
    }
    if sym & 1 != 0 {
        b = mirror_files(b);
    }
    if sym & 2 != 0 {
        b = b.swap_bytes();
    }
    b
}

fn mirror_files(mut b: Bitboard) -> Bitboard {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    b = ((b >> 1) & K1) | ((b & K1) << 1);
    b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// Reflection in the a1–h8 diagonal: (file, rank) becomes (rank, file).
fn transpose(mut b: Bitboard) -> Bitboard {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    t = K2 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    t = K1 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_shifts_equal_the_tables_square_by_square() {
        for sq in 0..64u8 {
            let one = bit(sq);
            assert_eq!(knight_steps(one), KNIGHT[sq as usize], "knight from {sq}");
            assert_eq!(rook_steps(one), rook_attacks(sq, !0), "rook from {sq}");
            assert_eq!(bishop_steps(one), bishop_attacks(sq, !0), "bishop from {sq}");
            assert_eq!(rook_steps(one) | bishop_steps(one), KING[sq as usize], "king from {sq}");
        }
        // A union of squares steps to the union of their steps.
        let b = bit(0) | bit(27) | bit(63) | bit(15);
        let union = |f: fn(Bitboard) -> Bitboard| squares(b).fold(0, |acc, q| acc | f(bit(q)));
        assert_eq!(knight_steps(b), union(knight_steps));
        assert_eq!(rook_steps(b), union(rook_steps));
    }

    #[test]
    fn slider_lookups_equal_the_ray_walks() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for sq in 0..64u8 {
            for _ in 0..300 {
                x = x
                    .wrapping_mul(0x5851_f42d_4c95_7f2d)
                    .wrapping_add(1442695040888963407);
                // Sparse and dense occupancies alike.
                let occ = match x % 3 {
                    0 => x & (x >> 7) & (x >> 19),
                    1 => x & (x >> 11),
                    _ => x,
                };
                assert_eq!(rook_attacks(sq, occ), rook_rays(sq, occ), "rook {sq} {occ:x}");
                assert_eq!(bishop_attacks(sq, occ), bishop_rays(sq, occ), "bishop {sq} {occ:x}");
            }
            assert_eq!(rook_attacks(sq, 0), rook_rays(sq, 0));
            assert_eq!(bishop_attacks(sq, !0), bishop_rays(sq, !0));
        }
    }

    #[test]
    fn slider_attacks_stop_at_blockers() {
        let a1 = square(0, 0);
        let occ = bit(square(0, 3)) | bit(square(5, 0));
        let r = rook_attacks(a1, occ);
        assert_eq!(r.count_ones(), 3 + 5);
        assert!(r & bit(square(0, 3)) != 0 && r & bit(square(0, 4)) == 0);
        assert_eq!(bishop_attacks(square(3, 3), 0).count_ones(), 13);
        assert_eq!(KNIGHT[0].count_ones(), 2);
        assert_eq!(KING[27].count_ones(), 8);
    }

    #[test]
    fn bitboard_transforms_match_square_transforms() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            x = x
                .wrapping_mul(0x5851_f42d_4c95_7f2d)
                .wrapping_add(1442695040888963407);
            for sym in 0..8u8 {
                let mut slow = 0;
                for sq in squares(x) {
                    slow |= bit(transform(sym, sq));
                }
                assert_eq!(transform_bb(sym, x), slow, "sym {sym}");
            }
        }
    }

    #[test]
    fn lines_and_betweens() {
        let (a1, h8, d4) = (square(0, 0), square(7, 7), square(3, 3));
        assert_eq!(line(a1, d4).count_ones(), 8);
        assert_eq!(between(a1, h8).count_ones(), 6);
        assert_eq!(between(h8, a1), between(a1, h8));
        assert_eq!(line(a1, square(1, 2)), 0);
        assert_eq!(between(a1, square(0, 1)), 0);
    }

    #[test]
    fn transforms_are_a_group_of_eight() {
        for sym in 0..8u8 {
            let image: std::collections::BTreeSet<u8> =
                (0..64).map(|s| transform(sym, s)).collect();
            assert_eq!(image.len(), 64);
        }
        let imgs: std::collections::BTreeSet<u8> = (0..8).map(|s| transform(s, 1)).collect();
        assert_eq!(imgs.len(), 8);
    }
}
