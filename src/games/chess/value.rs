//! A position's value for the side to move, and how tables store it.
//!
//! Value format 2 (tables written since the sweep engine learnt to count
//! past one byte) stores one entry per position and side, as narrow as the
//! table allows:
//! - `u8` when every distance fits: 0 draw, 1..=127 win (mate in that many
//!   moves), 128 + m loss (mated in m moves, 128 = checkmated now). The
//!   longest five-piece mates (KPPvKP) are a win in 127 moves (253 plies)
//!   with White to move and a loss in 127 (254 plies) with Black to move,
//!   so every code is used, 255 included.
//! - `u16` otherwise, the same shape: 0 draw, 1..=32767 win, 32768 + m
//!   loss (the longest known six-piece mate, KRNvKNN, is 262 moves).
//!
//! Slots that hold no position (broken, or a symmetric duplicate) store 0
//! and are recognised by the index, which decodes them to no board or to a
//! broken one. Value format 1 (every table before it) was the `u8` form
//! with a wrong description; it is refused, with how to rebuild.

use super::cells::Bytes;

/// The value format tables are written in (recorded in their parameters).
pub const VALUE_FORMAT: u32 = 2;

/// The entry description of a table of one-byte values.
pub const NARROW_DESCRIPTION: &str = "u8 for the side to move: 0 draw (and slots holding no position), 1..=127 mate in m moves, 128+m mated in m moves (128 checkmated, 255 mated in 127)";

/// The entry description of a table of two-byte values.
pub const WIDE_DESCRIPTION: &str = "u16 for the side to move: 0 draw (and slots holding no position), 1..=32767 mate in m moves, 32768+m mated in m moves (32768 checkmated)";

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

    /// The two-byte entry of the value (None beyond 32767 moves).
    pub fn encode_wide(self) -> Option<u16> {
        match self {
            Value::Draw => Some(0),
            Value::Win(m) if (1..=32767).contains(&m) => Some(m as u16),
            Value::Loss(m) if m <= 32767 => Some(32768 + m as u16),
            _ => None,
        }
    }

    /// The value a two-byte entry encodes.
    pub fn decode_wide(x: u16) -> Value {
        match x {
            0 => Value::Draw,
            1..=32767 => Value::Win(x as u32),
            _ => Value::Loss(x as u32 - 32768),
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

/// A finished table's values, white to move for every index then black to
/// move: one byte each when every distance fits, else two.
pub enum Values {
    /// One byte per slot (`Value::decode`).
    Narrow(Bytes),
    /// Two bytes per slot (`Value::decode_wide`).
    Wide(Vec<u16>),
}

impl Values {
    #[cfg(any(test, feature = "internals"))]
    /// Slots held.
    pub fn len(&self) -> usize {
        match self {
            Values::Narrow(b) => b.len(),
            Values::Wide(w) => w.len(),
        }
    }

    #[cfg(any(test, feature = "internals"))]
    /// Whether no slot is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of a slot.
    #[inline]
    pub fn get(&self, slot: usize) -> Value {
        match self {
            Values::Narrow(b) => Value::decode(b[slot]),
            Values::Wide(w) => Value::decode_wide(w[slot]),
        }
    }

    /// Two-byte values in the one-byte form when every one fits, else as
    /// they are; one-byte values as they are.
    pub fn narrowed(self) -> Values {
        match self {
            Values::Wide(w) => {
                let narrow: Option<Vec<u8>> = w
                    .iter()
                    .map(|&x| Value::decode_wide(x).encode())
                    .collect();
                match narrow {
                    Some(b) => Values::Narrow(b.into()),
                    None => Values::Wide(w),
                }
            }
            narrow => narrow,
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

    #[test]
    fn wide_entries_round_trip_and_agree_with_narrow_ones() {
        for x in [0u16, 1, 127, 128, 262, 32767, 32768, 32769, 32768 + 262, u16::MAX] {
            assert_eq!(Value::decode_wide(x).encode_wide(), Some(x));
        }
        for b in 0..=255u8 {
            let v = Value::decode(b);
            assert_eq!(Value::decode_wide(v.encode_wide().unwrap()), v);
        }
        assert_eq!(Value::Win(32768).encode_wide(), None);
        assert_eq!(Value::Loss(32768).encode_wide(), None);
        let long = Values::Wide(vec![0, 262, 32768 + 261]).narrowed();
        assert!(matches!(long, Values::Wide(_)));
        assert_eq!(long.get(1), Value::Win(262));
        assert_eq!(long.get(2), Value::Loss(261));
        let short = Values::Wide(vec![0, 127, 32768 + 127, 32768]).narrowed();
        let Values::Narrow(b) = &short else {
            panic!("fits a byte")
        };
        assert_eq!(&b[..], &[0, 127, 255, 128]);
    }
}
