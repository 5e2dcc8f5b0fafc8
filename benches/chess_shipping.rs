//! What each idea of a chess shipping form would save, measured on built
//! tables (issue 56's ablation). Each stream is compressed by zstd level 9
//! in 256 KiB frames, as `nimrod pack` compressed every table before
//! chess got 4 KiB frames; the transforms change which bytes are stored,
//! never the values a probe would return.
//!
//! - `raw`: both sides, as the table stores them;
//! - `dontcare`: slots holding no legal position (broken, illegal,
//!   symmetric duplicates) repeat the byte before them;
//! - `+captures`: a position whose value a capture or promotion already
//!   gives stores any value no better than that capture's (a probe then
//!   returns the better of the stored value and the best capture): the
//!   byte before it when that is allowed, else the capture's value;
//! - `one side`: the smaller of the two sides under `+captures` (the other
//!   side is restored at probe time by a one-ply search);
//! - `ranked`: `one side` with the byte values renumbered by frequency.
//!
//! With DUMP=DIR each side's `+captures` stream is also written to
//! DIR/TABLE.w and DIR/TABLE.b, for trying other coders on them.
//!
//! Usage: NIMROD_DATA=DIR cargo bench --bench chess_shipping [-- TABLE...]
//! (default: every table of DIR/chess). Prints one row per table and the
//! totals, bits per legal position (both sides) for each column.

use nimrod::games::chess::board::{Board, Color};
use nimrod::games::chess::material::Material;
use nimrod::games::chess::probe::Tablebase;
use nimrod::games::chess::query::table_materials;
use nimrod::games::chess::value::Value;
use rayon::prelude::*;
use std::path::PathBuf;

const FRAME: usize = 256 << 10;
const CHUNK: u64 = 1 << 20;

fn zstd_size(bytes: &[u8]) -> u64 {
    bytes
        .par_chunks(FRAME)
        .map(|c| zstd::bulk::compress(c, 9).expect("zstd").len() as u64)
        .sum()
}

/// The value the best capture or promotion gives the side to move (None
/// when it has none).
fn best_conversion(tb: &Tablebase, b: &Board) -> Option<Value> {
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    moves
        .iter()
        .filter(|m| m.converts())
        .map(|m| tb.value_after(b, m).expect("probe").before_move())
        .max_by_key(|v| v.preference())
}

struct Streams {
    legal: u64,
    raw: Vec<u8>,
    dontcare: Vec<u8>,
    captures: [Vec<u8>; 2],
}

fn streams(tb: &Tablebase, m: &Material) -> Streams {
    let t = tb.get(m).expect("opened");
    let n = t.layout.positions;
    let raw = t
        .table()
        .expect("a raw table")
        .read_range::<u8>(0, 2 * n)
        .expect("read");
    let sides: Vec<(u64, Vec<u8>, Vec<u8>)> = [Color::White, Color::Black]
        .par_iter()
        .map(|&turn| {
            let base = if turn == Color::White { 0 } else { n };
            let chunks: Vec<(u64, Vec<u8>, Vec<u8>)> = (0..n.div_ceil(CHUNK))
                .into_par_iter()
                .map(|c| {
                    let (from, to) = (c * CHUNK, ((c + 1) * CHUNK).min(n));
                    let mut cursor = t.layout.cursor(from);
                    let (mut legal, mut dc, mut cap) = (0u64, Vec::new(), Vec::new());
                    let (mut prev_dc, mut prev_cap) = (0u8, 0u8);
                    for slot in from..to {
                        let stored = raw[(base + slot) as usize];
                        match cursor.legal_board(turn) {
                            None => {
                                dc.push(prev_dc);
                                cap.push(prev_cap);
                            }
                            Some(b) => {
                                legal += 1;
                                dc.push(stored);
                                prev_dc = stored;
                                let v = Value::decode(stored);
                                let keep = match best_conversion(tb, &b) {
                                    Some(c) if c.preference() >= v.preference() => {
                                        if Value::decode(prev_cap).preference() <= c.preference() {
                                            prev_cap
                                        } else {
                                            c.encode().expect("a byte value")
                                        }
                                    }
                                    _ => stored,
                                };
                                cap.push(keep);
                                prev_cap = keep;
                            }
                        }
                        if slot + 1 < to {
                            cursor.advance();
                        }
                    }
                    (legal, dc, cap)
                })
                .collect();
            let mut out = (0, Vec::new(), Vec::new());
            for (l, d, c) in chunks {
                out.0 += l;
                out.1.extend(d);
                out.2.extend(c);
            }
            out
        })
        .collect();
    let [(lw, dw, cw), (lb, db, cb)]: [(u64, Vec<u8>, Vec<u8>); 2] =
        sides.try_into().expect("two sides");
    let mut dontcare = dw;
    dontcare.extend(db);
    Streams {
        legal: lw + lb,
        raw,
        dontcare,
        captures: [cw, cb],
    }
}

fn ranked(bytes: &[u8]) -> Vec<u8> {
    let mut count = [0u64; 256];
    for &b in bytes {
        count[b as usize] += 1;
    }
    let mut order: Vec<usize> = (0..256).collect();
    order.sort_by_key(|&v| (std::cmp::Reverse(count[v]), v));
    let mut code = [0u8; 256];
    for (rank, &v) in order.iter().enumerate() {
        code[v] = rank as u8;
    }
    bytes.iter().map(|&b| code[b as usize]).collect()
}

fn main() {
    let data = PathBuf::from(std::env::var("NIMROD_DATA").unwrap_or_else(|_| "data".into()));
    let asked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.contains('v'))
        .collect();
    let materials: Vec<Material> = if asked.is_empty() {
        table_materials(&data)
    } else {
        asked
            .iter()
            .map(|a| {
                Material::parse(a)
                    .expect("a material like KQvKR")
                    .canonical()
            })
            .collect()
    };
    if materials.is_empty() {
        eprintln!(
            "SKIPPED: no chess tables in {} (set NIMROD_DATA)",
            data.display()
        );
        return;
    }
    println!(
        "{:<8} {:>12} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}",
        "table", "legal", "raw bytes", "raw z", "dontcare", "+captures", "one side", "ranked"
    );
    let mut total = [0u64; 7];
    for m in &materials {
        let tb = Tablebase::open_closure(&data, *m).expect("the table and its successors");
        if tb.get(m).expect("opened").wide {
            println!("{:<8} two-byte values: not measured", m.name());
            continue;
        }
        let s = streams(&tb, m);
        if let Some(dir) = std::env::var_os("DUMP") {
            // The kept side's stream, for trying other coders on it.
            for (side, bytes) in ["w", "b"].iter().zip(&s.captures) {
                let path = PathBuf::from(&dir).join(format!("{}.{side}", m.name()));
                std::fs::write(&path, bytes).expect("write the stream");
            }
        }
        let cap_both: u64 = s.captures.iter().map(|c| zstd_size(c)).sum();
        let sides = [zstd_size(&s.captures[0]), zstd_size(&s.captures[1])];
        let keep = if sides[0] <= sides[1] { 0 } else { 1 };
        let row = [
            s.legal,
            s.raw.len() as u64,
            zstd_size(&s.raw),
            zstd_size(&s.dontcare),
            cap_both,
            sides[keep],
            zstd_size(&ranked(&s.captures[keep])),
        ];
        println!(
            "{:<8} {:>12} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}  (kept: {})",
            m.name(),
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            row[6],
            if keep == 0 {
                "white to move"
            } else {
                "black to move"
            }
        );
        for (t, r) in total.iter_mut().zip(row) {
            *t += r;
        }
    }
    println!(
        "{:<8} {:>12} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}",
        "total", total[0], total[1], total[2], total[3], total[4], total[5], total[6]
    );
    let bits = |b: u64| 8.0 * b as f64 / total[0] as f64;
    println!(
        "bits per legal position: raw {:.3}, raw z {:.3}, dontcare {:.3}, +captures {:.3}, one side {:.3}, ranked {:.3}",
        bits(total[1]),
        bits(total[2]),
        bits(total[3]),
        bits(total[4]),
        bits(total[5]),
        bits(total[6])
    );
}
