//! The full-rules move generator (castling, en passant, promotion) against
//! the published perft counts of the standard test positions
//! (chessprogramming.org "Perft Results"), and move by move against an
//! independent generator (shakmaty) where they would disagree first.

use nimrod::games::chess::full::FullPosition;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

const POSITIONS: [(&str, &[u64]); 6] = [
    (FullPosition::START, &[20, 400, 8_902, 197_281, 4_865_609]),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2_039, 97_862, 4_085_603],
    ),
    (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2_812, 43_238, 674_624],
    ),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9_467, 422_333],
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1_486, 62_379, 2_103_487],
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890, 3_894_594],
    ),
];

/// Martin Sedlak's special cases (TalkChess): en passant that would expose
/// the king, en passant giving check, castling giving check; one count each.
const SPECIAL: [(&str, u32, u64); 6] = [
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1_134_888),
    ("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1_015_133),
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1_440_467),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661_072),
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803_711),
    ("1k6/1b6/8/8/7R/8/8/4K2R b K - 0 1", 5, 1_063_513),
];

#[test]
fn perft_matches_the_published_counts() {
    for (fen, depth, want) in SPECIAL {
        let g = FullPosition::from_fen(fen).unwrap();
        assert_eq!(g.perft(depth), want, "{fen} depth {depth}");
    }
    for (fen, counts) in POSITIONS {
        let g = FullPosition::from_fen(fen).unwrap();
        for (d, &want) in counts.iter().enumerate() {
            assert_eq!(g.perft(d as u32 + 1), want, "{fen} depth {}", d + 1);
        }
    }
}

/// Divide at depth 3: the count below every root move, against shakmaty's,
/// so a disagreement names the move.
#[test]
fn divide_matches_an_independent_generator() {
    for (fen, _) in POSITIONS {
        let g = FullPosition::from_fen(fen).unwrap();
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut ours: Vec<(String, u64)> = {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            moves
                .iter()
                .map(|m| (m.uci(), g.play(m).perft(2)))
                .collect()
        };
        let mut theirs: Vec<(String, u64)> = pos
            .legal_moves()
            .iter()
            .map(|m| {
                let mut p = pos.clone();
                p.play_unchecked(*m);
                (
                    m.to_uci(CastlingMode::Standard).to_string(),
                    shakmaty::perft(&p, 2),
                )
            })
            .collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{fen}");
    }
}

#[test]
fn bad_castling_rights_are_refused() {
    let e = FullPosition::from_fen("r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1").unwrap_err();
    assert!(e.to_string().contains("castling right 'K'"), "{e}");
    assert!(FullPosition::from_fen("8/8/8/8/8/8/8/K1k5 w X - 0 1").is_err());
}
