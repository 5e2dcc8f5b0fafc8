//! One byte per position and side to move, from the mover's point of view:
//! 0 draw, 1..=127 win (mate in that many moves), 128 + m loss (mated in m
//! moves, 128 = checkmated now). The longest five-piece mates (KPPvKP) are
//! a win in 127 moves (253 plies) with White to move and a loss in 127
//! (254 plies) with Black to move, so every code is used, 255 included.
//! Slots that hold no position (broken, or a symmetric duplicate) store 0
//! and are recognised by the index, which decodes them to no board or to a
//! broken one.

/// What a chess table's entries mean, as `nimrod info` prints it.
pub const ENTRY_DESCRIPTION: &str = "u8 for the side to move: 0 draw (and slots holding no position), 1..=127 mate in m moves, 128+m mated in m moves (128 checkmated, 255 mated in 127)";

/// The description every chess table built so far stores: its last clause
/// is wrong (255 is mated in 127; an empty slot holds 0). Kept byte for byte
/// because it is hashed into every table; `info` shows
/// [`ENTRY_DESCRIPTION`] in its place.
pub const STORED_ENTRY_DESCRIPTION: &str =
    "u8 for the side to move: 0 draw, 1..=127 mate in m moves, 128+m mated in m moves, 255 no position";

/// The byte of a draw (and of slots that hold no position).
pub const DRAW: u8 = 0;
/// The longest mate a byte holds, in moves.
pub const MAX_WIN: u32 = 127;
/// The longest loss a byte holds, in moves.
pub const MAX_LOSS: u32 = 127;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// A position's value for the side to move.
pub enum Value {
    /// The side to move mates in this many moves (2m − 1 plies).
    Win(u32),
    /// Neither side can force mate.
    Draw,
    /// The side to move is mated in this many moves (2m plies; 0 = mated).
    Loss(u32),
}

impl Value {
    /// The value a stored byte encodes.
    pub fn decode(b: u8) -> Value {
        match b {
            DRAW => Value::Draw,
            1..=127 => Value::Win(b as u32),
            _ => Value::Loss(b as u32 - 128),
        }
    }

    /// None when the distance does not fit the byte.
    pub fn encode(self) -> Option<u8> {
        match self {
            Value::Draw => Some(DRAW),
            Value::Win(m) if (1..=MAX_WIN).contains(&m) => Some(m as u8),
            Value::Loss(m) if m <= MAX_LOSS => Some(128 + m as u8),
            _ => None,
        }
    }

    /// Plies to mate under best play (None for draws).
    pub fn plies(self) -> Option<u32> {
        match self {
            Value::Win(m) => Some(2 * m - 1),
            Value::Loss(m) => Some(2 * m),
            _ => None,
        }
    }

    /// The value for the side that moved into a position of this value.
    pub fn before_move(self) -> Value {
        match self {
            Value::Win(m) => Value::Loss(m),
            Value::Loss(m) => Value::Win(m + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// Win/draw/loss as +1/0/−1.
    pub fn wdl(self) -> i32 {
        match self {
            Value::Win(_) => 1,
            Value::Loss(_) => -1,
            _ => 0,
        }
    }

    /// Ordering for the side to move choosing among replies' values (seen
    /// from its own side): faster wins first, then draws, then slower
    /// losses.
    pub fn preference(self) -> i64 {
        match self {
            Value::Win(m) => 1_000_000 - m as i64,
            Value::Draw => 0,
            Value::Loss(m) => -1_000_000 + m as i64,
        }
    }

    /// The value in words ("white mates in 3").
    pub fn describe(self) -> String {
        match self {
            Value::Win(m) => format!(
                "win, mate in {m} ({})",
                crate::search::plies(2 * m as i32 - 1)
            ),
            Value::Loss(0) => "loss, checkmated".into(),
            Value::Loss(m) => format!("loss, mated in {m} ({} plies)", 2 * m),
            Value::Draw => "draw".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips() {
        for b in 0..=255u8 {
            assert_eq!(Value::decode(b).encode(), Some(b));
        }
        assert_eq!(Value::Win(128).encode(), None);
        assert_eq!(Value::Loss(128).encode(), None);
        assert_eq!(Value::Win(0).encode(), None);
        assert_eq!(Value::Loss(0).before_move(), Value::Win(1));
        assert_eq!(Value::Win(3).before_move(), Value::Loss(3));
    }
}
