//! Deep perft on the standard positions (chessprogramming.org "Perft
//! Results"), past the depths the tests run: counts checked against the
//! published ones, with the time and leaves per second (one thread).
//! Usage: cargo bench --bench perft

use nimrod::games::chess::full::FullPosition;
use std::time::Instant;

const DEEP: [(&str, &str, u32, u64); 6] = [
    ("start", FullPosition::START, 6, 119_060_324),
    (
        "Kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    ),
    (
        "position 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        6,
        11_030_083,
    ),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
        15_833_292,
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        5,
        89_941_194,
    ),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        5,
        164_075_551,
    ),
];

fn main() {
    println!("| position | depth | perft | published | time | leaves/s |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let mut wrong = 0;
    for (name, fen, depth, published) in DEEP {
        let g = FullPosition::from_fen(fen).expect("valid FEN");
        let t = Instant::now();
        let n = g.perft(depth);
        let secs = t.elapsed().as_secs_f64();
        if n != published {
            wrong += 1;
        }
        println!(
            "| {name} | {depth} | {n} | {published}{} | {secs:.1} s | {:.1}M |",
            if n == published { "" } else { " MISMATCH" },
            n as f64 / secs / 1e6
        );
    }
    assert_eq!(wrong, 0, "perft disagrees with the published counts");
}
