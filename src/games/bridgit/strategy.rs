//! A game under one of White's strategies: Black moves, the strategy
//! answers, and either player's connection ends the game.

use super::board::{Board, Player};

/// A first-player strategy: an opening and a reply to each Black move.
pub trait Strategy {
    /// White's first site.
    fn opening(&self) -> usize;
    /// White's answer once Black has taken `site` (already in `black`);
    /// None when no site is left.
    fn reply(&self, b: &Board, white: &[bool], black: &[bool], site: usize) -> Option<usize>;
}

#[derive(Clone, Debug)]
/// A game in progress: the sites each player holds.
pub struct Position {
    /// Sites White holds.
    pub white: Vec<bool>,
    /// Sites Black holds.
    pub black: Vec<bool>,
}

impl Position {
    /// White has made the strategy's opening.
    pub fn start(b: &Board, s: &impl Strategy) -> Position {
        let mut white = vec![false; b.sites()];
        white[s.opening()] = true;
        Position {
            white,
            black: vec![false; b.sites()],
        }
    }

    /// Whether neither player holds `site`.
    pub fn is_free(&self, site: usize) -> bool {
        !self.white[site] && !self.black[site]
    }

    /// Black takes `site` (which must be free) and White answers; returns
    /// White's move.
    pub fn black_moves(&mut self, b: &Board, s: &impl Strategy, site: usize) -> Option<usize> {
        debug_assert!(self.is_free(site));
        self.black[site] = true;
        let reply = s.reply(b, &self.white, &self.black, site)?;
        self.white[reply] = true;
        Some(reply)
    }

    /// The player who has connected their two sides, if either has.
    pub fn winner(&self, b: &Board) -> Option<Player> {
        b.winner(&self.white, &self.black)
    }
}
