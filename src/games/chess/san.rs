//! Standard algebraic notation for a move of a `Board`.

use super::bitboard::*;
use super::board::*;
impl Board {
    /// Standard notation, with check (+) and mate (#) marks.
    pub fn san(&self, m: &Move) -> String {
        let mut s = String::new();
        if m.role == Role::Pawn {
            if m.capture.is_some() {
                s.push((b'a' + file_of(m.from)) as char);
                s.push('x');
            }
            s.push_str(&square_name(m.to));
            if let Some(p) = m.promotion {
                s.push('=');
                s.push(p.letter());
            }
        } else {
            s.push(m.role.letter());
            if m.role != Role::King {
                let mut all = Vec::new();
                self.legal_moves(&mut all);
                let rivals: Vec<&Move> = all
                    .iter()
                    .filter(|o| o.role == m.role && o.to == m.to && o.from != m.from)
                    .collect();
                if !rivals.is_empty() {
                    if rivals.iter().all(|o| file_of(o.from) != file_of(m.from)) {
                        s.push((b'a' + file_of(m.from)) as char);
                    } else if rivals.iter().all(|o| rank_of(o.from) != rank_of(m.from)) {
                        s.push((b'1' + rank_of(m.from)) as char);
                    } else {
                        s.push_str(&square_name(m.from));
                    }
                }
            }
            if m.capture.is_some() {
                s.push('x');
            }
            s.push_str(&square_name(m.to));
        }
        let after = self.play(m);
        if after.in_check(after.turn) {
            let mut replies = Vec::new();
            after.legal_moves(&mut replies);
            s.push(if replies.is_empty() { '#' } else { '+' });
        }
        s
    }
}
