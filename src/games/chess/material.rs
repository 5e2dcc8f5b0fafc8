//! Material signatures ("KQvKR"): parsing, naming with the stronger side
//! first as the public tablebases do, and the smaller signatures a capture or
//! promotion leads to (a table's dependencies).

use super::board::{Board, Color, Role};
use anyhow::Result;

/// Non-king pieces per colour, counted by role (pawn, knight, bishop, rook,
/// queen).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Pieces per side (White, Black) and role (pawn, knight, bishop, rook, queen), kings left out.
    pub counts: [[u8; 5]; 2],
}

const ORDER: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

impl Material {
    /// The material of a board.
    pub fn of(board: &Board) -> Material {
        let mut counts = [[0u8; 5]; 2];
        for c in [Color::White, Color::Black] {
            for (count, role) in counts[c.index()].iter_mut().zip(Role::ALL) {
                *count = board.pieces(c, role).count_ones() as u8;
            }
        }
        Material { counts }
    }

    /// Parses a material signature such as `KQvKR`.
    pub fn parse(name: &str) -> Result<Material, MaterialError> {
        let err = |kind| MaterialError {
            name: name.to_string(),
            kind,
        };
        let sides: Vec<&str> = name.split('v').collect();
        if sides.len() != 2 {
            return Err(err(MaterialErrorKind::Sides));
        }
        let mut counts = [[0u8; 5]; 2];
        for (i, side) in sides.iter().enumerate() {
            let mut chars = side.chars();
            if chars.next() != Some('K') {
                return Err(err(MaterialErrorKind::King));
            }
            for c in chars {
                match Role::from_letter(c) {
                    Some(r) if r != Role::King && c.is_ascii_uppercase() => {
                        counts[i][r as usize] += 1
                    }
                    _ => return Err(err(MaterialErrorKind::Piece(c))),
                }
            }
        }
        Ok(Material { counts })
    }

    /// Pieces on the board, kings included.
    pub fn pieces(&self) -> u32 {
        2 + self.counts.iter().flatten().map(|&c| c as u32).sum::<u32>()
    }

    /// Whether either side has a pawn.
    pub fn has_pawns(&self) -> bool {
        self.counts[0][0] + self.counts[1][0] > 0
    }

    fn side_name(side: &[u8; 5]) -> String {
        let mut s = String::from("K");
        for r in ORDER {
            for _ in 0..side[r as usize] {
                s.push(r.letter());
            }
        }
        s
    }

    /// Ordering key of one side: more pieces first, then stronger pieces.
    /// Comparing counts role by role, strongest role first, orders sides
    /// as comparing their pieces sorted by strength would.
    fn strength(side: &[u8; 5]) -> (u8, [u8; 5]) {
        let n = side.iter().sum();
        (n, ORDER.map(|r| side[r as usize]))
    }

    /// A number that identifies the signature (4 bits per count).
    pub fn key(&self) -> u64 {
        self.counts
            .iter()
            .flatten()
            .fold(0u64, |k, &c| (k << 4) | c as u64)
    }

    /// Whether white is the weaker side, so positions must be colour-flipped
    /// to find them in the table named with the stronger side first.
    pub fn white_is_weaker(&self) -> bool {
        Self::strength(&self.counts[0]) < Self::strength(&self.counts[1])
    }

    /// The material with the sides swapped (KRvKQ for KQvKR).
    pub fn flipped(&self) -> Material {
        Material {
            counts: [self.counts[1], self.counts[0]],
        }
    }

    /// The signature with the stronger side as white.
    pub fn canonical(&self) -> Material {
        if self.white_is_weaker() {
            self.flipped()
        } else {
            *self
        }
    }

    /// The name ("KQvKR"): the stronger side first as stored.
    pub fn name(&self) -> String {
        format!(
            "{}v{}",
            Self::side_name(&self.counts[0]),
            Self::side_name(&self.counts[1])
        )
    }

    /// Canonical signatures reachable in one capture or promotion (or
    /// both) that still hold a piece other than the kings.
    pub fn successors(&self) -> Vec<Material> {
        let mut out = Vec::new();
        let mut add = |m: Material| {
            if m.pieces() > 2 {
                let c = m.canonical();
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        };
        for mover in 0..2 {
            let victim = 1 - mover;
            let mut captures = vec![None];
            captures.extend((0..5).filter(|&r| self.counts[victim][r] > 0).map(Some));
            for cap in &captures {
                let mut after = *self;
                if let Some(r) = cap {
                    after.counts[victim][*r] -= 1;
                    add(after);
                }
                // Promotions (pawn becomes Q, R, B or N), with or without a
                // capture; a pawn cannot capture onto the back rank a pawn.
                if self.counts[mover][0] > 0 && *cap != Some(0) {
                    for p in 1..5 {
                        let mut pr = after;
                        pr.counts[mover][0] -= 1;
                        pr.counts[mover][p] += 1;
                        add(pr);
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// Every canonical signature with exactly `pieces` pieces, kings
    /// included, in a fixed order (fewer white pieces last).
    pub fn all_with(pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        let extra = pieces.saturating_sub(2);
        let sides = |n: u32| -> Vec<[u8; 5]> {
            let mut v = Vec::new();
            fn go(n: u32, start: usize, cur: &mut [u8; 5], v: &mut Vec<[u8; 5]>) {
                if n == 0 {
                    v.push(*cur);
                    return;
                }
                for r in start..5 {
                    cur[r] += 1;
                    go(n - 1, r, cur, v);
                    cur[r] -= 1;
                }
            }
            go(n, 0, &mut [0; 5], &mut v);
            v
        };
        for w in (0..=extra).rev() {
            for a in sides(w) {
                for b in sides(extra - w) {
                    let m = Material { counts: [a, b] };
                    if m.canonical() == m && !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out.sort_by_key(|m| std::cmp::Reverse(Material::strength(&m.counts[0])));
        out
    }
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_endgames() {
        assert_eq!(Material::all_with(3).len(), 5);
        assert_eq!(Material::all_with(4).len(), 30);
        assert_eq!(Material::all_with(5).len(), 110);
    }

    #[test]
    fn names_put_the_stronger_side_first() {
        assert_eq!(
            Material::parse("KRvKQ").unwrap().canonical().name(),
            "KQvKR"
        );
        assert_eq!(
            Material::parse("KPvKN").unwrap().canonical().name(),
            "KNvKP"
        );
        assert_eq!(
            Material::parse("KvKBN").unwrap().canonical().name(),
            "KBNvK"
        );
        assert!(Material::parse("KQvKx").is_err());
        assert!(Material::parse("QvK").is_err());
        let names: Vec<String> = Material::parse("KRPvKR")
            .unwrap()
            .successors()
            .iter()
            .map(|m| m.name())
            .collect();
        for n in ["KRvKR", "KRPvK", "KPvKR", "KQRvKR", "KRRvKR", "KRvKP"] {
            let c = Material::parse(n).unwrap().canonical().name();
            assert!(names.contains(&c), "{c} missing from {names:?}");
        }
    }
}

/// A material signature that does not parse, with what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("material \"{name}\": {kind}")]
pub struct MaterialError {
    /// The signature as given.
    pub name: String,
    /// What is wrong with it.
    pub kind: MaterialErrorKind,
}

/// What is wrong with a material signature (see [`MaterialError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MaterialErrorKind {
    #[error("expected two sides joined by 'v', like KQvKR")]
    /// No `v` between two sides.
    Sides,
    #[error("each side starts with its king K")]
    /// A side without its king.
    King,
    #[error("'{0}' is not one of Q R B N P")]
    /// A letter that is no piece.
    Piece(char),
}
