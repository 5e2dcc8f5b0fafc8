//! Rule sets: their text form (`3/unlimited`, `1/none`, `3/2/noworry`),
//! its errors, and the id a rule set's tables carry (`d3-unlimited`).

use super::state::{Redeal, Rules};

/// Parses a rule set such as `3/unlimited`, `1/none` or `3/2/noworry`.
pub fn parse_rules(s: &str) -> Result<Rules, RulesError> {
    let err = |kind| RulesError {
        rules: s.to_string(),
        kind,
    };
    let mut parts = s.split('/');
    let (Some(d), Some(r)) = (parts.next(), parts.next()) else {
        return Err(err(RulesErrorKind::Form));
    };
    let worry_back = match parts.next() {
        None => true,
        Some("noworry") => false,
        Some(other) => return Err(err(RulesErrorKind::Third(other.to_string()))),
    };
    if parts.next().is_some() {
        return Err(err(RulesErrorKind::Form));
    }
    let draw: u8 = match d {
        "1" => 1,
        "3" => 3,
        _ => return Err(err(RulesErrorKind::Draw)),
    };
    let redeal = match r {
        "none" => Redeal::None,
        "unlimited" => Redeal::Unlimited,
        n => match n.parse::<u32>() {
            Ok(p) if p >= 1 => Redeal::Passes(p),
            _ => return Err(err(RulesErrorKind::Redeal)),
        },
    };
    Ok(Rules {
        draw,
        redeal,
        worry_back,
    })
}

/// A rule set that does not parse, with what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rule set \"{rules}\": {kind}")]
pub struct RulesError {
    /// The rule set as given.
    pub rules: String,
    /// What is wrong with it.
    pub kind: RulesErrorKind,
}

/// What is wrong with a rule set (see [`RulesError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesErrorKind {
    #[error("expected DRAW/REDEAL[/noworry], like 3/unlimited")]
    /// Not DRAW/REDEAL[/noworry].
    Form,
    #[error("the third part may only be noworry (no worrying back), not \"{0}\"")]
    /// A third part other than noworry.
    Third(String),
    #[error("draw must be 1 or 3")]
    /// A draw other than 1 or 3.
    Draw,
    #[error("redeal must be none, unlimited or a number of passes >= 1")]
    /// A redeal other than none, unlimited or a count ≥ 1.
    Redeal,
}

/// "d3-unlimited", "d1-none", "d3-passes3", "d3-unlimited-noworry".
pub fn rules_id(r: &Rules) -> String {
    let redeal = match r.redeal {
        Redeal::None => "none".to_string(),
        Redeal::Unlimited => "unlimited".to_string(),
        Redeal::Passes(n) => format!("passes{n}"),
    };
    let worry = if r.worry_back { "" } else { "-noworry" };
    format!("d{}-{redeal}{worry}", r.draw)
}
