//! Octal game codes: "0.77" (Kayles), "0.137" (Dawson's chess), "4.07" …
//! Digit d_i says what may remain after removing i tokens from one heap:
//! bit 1 = nothing (the heap had exactly i), bit 2 = one heap, bit 4 = two
//! non-empty heaps. d_0 may only be 0 or 4 (split without removing).

#[derive(Debug, Clone, PartialEq, Eq)]
/// An octal game's code (see the module).
pub struct OctalCode {
    /// `digits[i]` = d_i; digits.len() - 1 = t, the largest removal.
    pub digits: Vec<u8>,
}

impl OctalCode {
    /// Parses a code such as `0.77`, `.137` or `4.07`.
    pub fn parse(code: &str) -> Result<OctalCode, OctalCodeError> {
        let bad = |kind| OctalCodeError {
            code: code.to_string(),
            kind,
        };
        let (head, tail) = code
            .split_once('.')
            .ok_or_else(|| bad(OctalCodeErrorKind::Form))?;
        let d0 = match head {
            "" | "0" => 0,
            "4" => 4,
            _ => return Err(bad(OctalCodeErrorKind::FirstDigit)),
        };
        if tail.is_empty() || tail.len() > 32 {
            return Err(bad(OctalCodeErrorKind::Length));
        }
        let mut digits = vec![d0];
        for c in tail.chars() {
            match c.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => return Err(bad(OctalCodeErrorKind::Digit(c))),
            }
        }
        while digits.len() > 1 && *digits.last().unwrap() == 0 {
            digits.pop();
        }
        if digits.iter().all(|&d| d == 0) {
            return Err(bad(OctalCodeErrorKind::NoMove));
        }
        Ok(OctalCode { digits })
    }

    /// t: the largest number of tokens a move removes.
    pub fn max_removal(&self) -> usize {
        self.digits.len() - 1
    }

    /// Canonical spelling, also the table name ("0.137").
    pub fn canonical(&self) -> String {
        let tail: String = self.digits[1..]
            .iter()
            .map(|d| char::from(b'0' + d))
            .collect();
        format!(
            "{}.{}",
            self.digits[0],
            if tail.is_empty() { "0".into() } else { tail }
        )
    }
}

/// An octal code that does not parse, with what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("octal code {code:?}: {kind}")]
pub struct OctalCodeError {
    /// The code as given.
    pub code: String,
    /// What is wrong with it.
    pub kind: OctalCodeErrorKind,
}

/// What is wrong with an octal code (see [`OctalCodeError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OctalCodeErrorKind {
    #[error("expected the form d0.d1d2… such as 0.77")]
    /// The text has no point.
    Form,
    #[error("the digit before the point must be 0 or 4")]
    /// A first digit other than 0 or 4.
    FirstDigit,
    #[error("expected 1 to 32 digits after the point")]
    /// No digits after the point, or more than 32.
    Length,
    #[error("{0:?} is not an octal digit")]
    /// A character that is not an octal digit.
    Digit(char),
    #[error("allows no move at all")]
    /// Every digit 0: no move is allowed.
    NoMove,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(OctalCode::parse("0.77").unwrap().digits, vec![0, 7, 7]);
        assert_eq!(OctalCode::parse(".137").unwrap().canonical(), "0.137");
        assert_eq!(OctalCode::parse("4.070").unwrap().digits, vec![4, 0, 7]);
        for bad in ["077", "0.78", "1.7", "0.", "0.000", "x.7"] {
            assert!(OctalCode::parse(bad).is_err(), "{bad}");
        }
    }
}
