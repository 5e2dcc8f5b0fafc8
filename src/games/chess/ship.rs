//! The shipping form of a chess table (`nimrod pack`): one side to move
//! stored, in LZMA blocks (or zstd with `--codec zstd`), with the values a probe restores left free.
//!
//! - The other side to move is not stored: its value is the best of its
//!   moves one ply down, which land in the stored side or, by a capture or
//!   promotion, in a smaller table.
//! - A stored position whose best move is a capture or a promotion stores
//!   any value no better than that move's (a probe answers the better of
//!   the stored value and its best conversion).
//! - A slot that holds no legal position is free.
//! - The free values are filled by one of two rules (`Fill`), and of both
//!   sides and both fills the writer keeps the stream that compresses
//!   smallest.
//!
//! Restoring the raw table (`nimrod unpack`) evaluates every position by
//! the same rules as a probe, and the result must match the raw table's
//! checksums, kept in the shipped file, before it is written.
//!
//! The WDL form (`nimrod pack --wdl`, [`Form::Wdl`]) keeps the same shape
//! with each value reduced to its class ([`wdl_class`]): win, draw or loss
//! for the side to move, no distance. It is the table crate's *reduced*
//! content: it answers win/draw/loss through a [`Tablebase`] opened to
//! accept it (`Tablebase::open_any`), and never restores the raw table.

use super::board::{Board, Color};
use super::index::Layout;
use super::jobs::TableJob;
use super::material::Material;
use super::probe::{after_move, better, one_ply, shipped_storage, Loaded, Storage, Tablebase};
use super::value::Value;
use crate::games::query::{open_table_unpacked, table_params};
use crate::table::shipped::{estimate_shipped_len, write_shipped, Codec, ShippedTable};
use crate::table::Table;
use anyhow::{anyhow, ensure, Context, Result};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Slots a worker handles at once when a side is encoded or restored.
const CHUNK: u64 = 1 << 18;

/// The data directory a table file lives in (`DIR/chess/X.nmt`), also
/// when the path is relative to the working directory.
pub fn data_dir_of(path: &Path) -> Result<PathBuf> {
    std::path::absolute(path)
        .ok()
        .and_then(|p| Some(p.parent()?.parent()?.to_path_buf()))
        .ok_or_else(|| anyhow!("cannot locate the data directory of {}", path.display()))
}

/// The best value a capture or promotion gives the side to move (None
/// when it has none).
pub fn best_conversion(tb: &Tablebase, b: &Board) -> Result<Option<Value>> {
    thread_local! {
        // Every probe of a stored side generates moves: a buffer per
        // thread (and per nesting level) instead of an allocation each.
        static BUFFERS: std::cell::RefCell<Vec<Vec<super::board::Move>>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let mut moves = BUFFERS.with(|c| c.borrow_mut().pop()).unwrap_or_default();
    moves.clear();
    b.legal_moves(&mut moves);
    let mut best: Option<Value> = None;
    let mut result = Ok(());
    for m in moves.iter().filter(|m| m.converts()) {
        match tb.value_after(b, m) {
            Ok(v) => {
                let v = v.before_move();
                best = Some(best.map_or(v, |b| better(b, v)));
            }
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    BUFFERS.with(|c| c.borrow_mut().push(moves));
    result.map(|_| best)
}

/// The value of a position of `t`'s stored side: its stored entry is
/// exact unless a capture or promotion (probed in `conversions`) is better.
pub fn stored_side_value(t: &Loaded, b: &Board, conversions: &Tablebase) -> Result<Value> {
    let stored = t.stored(b)?;
    Ok(best_conversion(conversions, b)?.map_or(stored, |c| better(stored, c)))
}

fn encode(v: Value, wide: bool, out: &mut Vec<u8>) -> Result<()> {
    if wide {
        out.extend_from_slice(
            &v.encode_wide()
                .ok_or_else(|| anyhow!("{v:?} does not fit"))?
                .to_le_bytes(),
        );
    } else {
        out.push(
            v.encode()
                .ok_or_else(|| anyhow!("{v:?} does not fit a byte"))?,
        );
    }
    Ok(())
}

fn decode(bytes: &[u8], wide: bool) -> Value {
    if wide {
        Value::decode_wide(u16::from_le_bytes([bytes[0], bytes[1]]))
    } else {
        Value::decode(bytes[0])
    }
}

/// How the writer fills the values a probe does not read (slots with no
/// position; positions a conversion decides, within what is allowed).
/// Neither changes an answer; which compresses better depends on the
/// table (on the 3-4 piece set `Up` saved 12% on KQvKR and cost 22% on
/// KBNvK), so `ship_table` tries both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// The value before it.
    Previous,
    /// The value one step back along the innermost piece's squares (the
    /// same placement of the others, that piece one square earlier), else
    /// the value before it.
    Up,
}

/// What a shipped file keeps of each value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The value itself (DTM): the raw table restores byte for byte.
    Dtm,
    /// Its class only: win, draw or loss for the side to move.
    Wdl,
}

/// The value that stands for `v`'s class in a WDL-form table: a win in
/// one move, a draw, or a loss in one move. Classes compare as the values
/// they stand for (every win beats the draw, which beats every loss), so
/// the best of moves reduced is the reduced best.
pub fn wdl_class(v: Value) -> Value {
    match v {
        Value::Win(_) => Value::Win(1),
        Value::Loss(_) => Value::Loss(1),
        Value::Draw => Value::Draw,
    }
}

/// The stored streams of one side, one per `Fill`: `values` are the raw
/// table's entries of that side (little-endian); `tb` holds the tables
/// its conversions reach.
fn side_streams(
    layout: &Layout,
    turn: Color,
    values: &[u8],
    wide: bool,
    tb: &Tablebase,
    form: Form,
) -> Result<[Vec<u8>; 2]> {
    let reduce = |v: Value| match form {
        Form::Dtm => v,
        Form::Wdl => wdl_class(v),
    };
    let width = if wide { 2 } else { 1 };
    let stride = layout.innermost() as usize;
    let chunks: Vec<[Vec<u8>; 2]> = (0..layout.positions.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| -> Result<[Vec<u8>; 2]> {
            let (from, to) = (c * CHUNK, ((c + 1) * CHUNK).min(layout.positions));
            let len = (to - from) as usize;
            let mut out = [
                Vec::with_capacity(len * width),
                Vec::with_capacity(len * width),
            ];
            let mut kept = [Vec::with_capacity(len), Vec::with_capacity(len)];
            let mut cursor = layout.cursor(from);
            for slot in from..to {
                let at = slot as usize * width;
                let stored = reduce(decode(&values[at..at + width], wide));
                let i = (slot - from) as usize;
                // None: free; Some((v, Some(c))): anything no better than c.
                let rule = match cursor.legal_board(turn) {
                    None => None,
                    Some(b) => Some(match best_conversion(tb, &b)?.map(reduce) {
                        Some(c) if c.preference() >= stored.preference() => (stored, Some(c)),
                        _ => (stored, None),
                    }),
                };
                for (f, fill) in [Fill::Previous, Fill::Up].into_iter().enumerate() {
                    let prev = kept[f].last().copied().unwrap_or(Value::Draw);
                    let up = (fill == Fill::Up && i >= stride).then(|| kept[f][i - stride]);
                    let keep = match rule {
                        None => up.unwrap_or(prev),
                        Some((v, None)) => v,
                        Some((_, Some(c))) => {
                            let allowed = |v: &Value| v.preference() <= c.preference();
                            up.filter(allowed)
                                .or(Some(prev).filter(allowed))
                                .unwrap_or(c)
                        }
                    };
                    kept[f].push(keep);
                    encode(keep, wide, &mut out[f])?;
                }
                if slot + 1 < to {
                    cursor.advance();
                }
            }
            Ok(out)
        })
        .collect::<Result<_>>()?;
    let mut streams = [Vec::new(), Vec::new()];
    for [p, u] in chunks {
        streams[0].extend_from_slice(&p);
        streams[1].extend_from_slice(&u);
    }
    Ok(streams)
}

/// What `ship_table` wrote.
pub struct Shipped {
    /// Bytes of the shipped file.
    pub bytes: u64,
    /// The side to move it stores.
    pub kept: Color,
    /// How the values no probe reads were filled.
    pub fill: Fill,
    /// What it keeps of each value.
    pub form: Form,
}

/// Writes the shipping form of the chess table `table` to `out`, in blocks
/// of `block` raw bytes compressed by `codec`, keeping each value whole or
/// (`Form::Wdl`) its
/// class. The tables its captures and promotions reach must be in its
/// data directory (raw, packed or shipped; for the WDL form, also WDL).
pub fn ship_table(
    table: &Table,
    out: &Path,
    block: usize,
    codec: Codec,
    form: Form,
) -> Result<Shipped> {
    let job: TableJob = table_params(table)?;
    let m = Material::parse(&job.material)?.canonical();
    let wide = super::probe::value_format(table)?;
    let layout = Layout::new(m);
    let data_dir = data_dir_of(table.path())?;
    // A DTM form's free values are chosen against the exact conversions:
    // WDL tables below it are refused (`open`); the WDL form needs classes.
    let tb = match form {
        Form::Dtm => Tablebase::open(&data_dir, &m.successors()),
        Form::Wdl => Tablebase::open_any(&data_dir, &m.successors()),
    }
    .with_context(|| format!("{}: the tables its captures reach", table.path().display()))?;
    let width = if wide { 2 } else { 1 };
    let n = layout.positions;
    let bytes: Vec<u8> = if wide {
        table
            .read_range::<u16>(0, 2 * n)?
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect()
    } else {
        table.read_range::<u8>(0, 2 * n)?
    };
    let half = (n * width) as usize;
    let mut candidates = Vec::new();
    for turn in [Color::White, Color::Black] {
        let part = if turn == Color::White {
            &bytes[..half]
        } else {
            &bytes[half..]
        };
        let [previous, up] = side_streams(&layout, turn, part, wide, &tb, form)?;
        candidates.push((turn, Fill::Previous, previous));
        candidates.push((turn, Fill::Up, up));
    }
    drop(bytes);
    // The smallest of the four by a faster LZMA on a sample of blocks (at
    // most 16 of them).
    let stride = (half.div_ceil(block)).div_ceil(16).max(1);
    let mut best: Option<(u64, usize)> = None;
    for (i, (_, _, stream)) in candidates.iter().enumerate() {
        let size = estimate_shipped_len(stream, block, stride)?;
        if best.is_none_or(|(s, _)| size < s) {
            best = Some((size, i));
        }
    }
    let (kept, fill, stream) = candidates.swap_remove(best.expect("four candidates").1);
    drop(candidates);
    let first = if kept == Color::White { 0 } else { n };
    let written = write_shipped(
        table,
        out,
        first..first + n,
        &stream,
        block,
        codec,
        form == Form::Wdl,
    )?;
    Ok(Shipped {
        bytes: written,
        kept,
        fill,
        form,
    })
}

/// The side a shipped table stores, checked against its layout.
pub fn kept_side(s: &ShippedTable, layout: &Layout) -> Result<Color> {
    let kept = s.kept();
    let n = layout.positions;
    if kept == (0..n) {
        Ok(Color::White)
    } else if kept == (n..2 * n) {
        Ok(Color::Black)
    } else {
        Err(anyhow!(
            "{}: stores entries {kept:?}, not one side to move of {} ({n} positions a side)",
            s.path().display(),
            layout.material
        ))
    }
}

/// Every entry of a shipped chess table, restored (little-endian bytes of
/// the raw payload), 0 for slots that hold no position. The tables its
/// captures and promotions reach are read whole (a shipped one is restored
/// in memory first); the stored side is completed by its best conversion,
/// then the other side is searched one ply into it. The same rules as a
/// probe (`Tablebase::value_in`), walked slot by slot.
pub fn restore_payload(s: &ShippedTable) -> Result<Vec<u8>> {
    ensure!(
        !s.is_reduced(),
        "{}: a WDL-form table (`nimrod pack --wdl`) keeps win/draw/loss only; the table with distances cannot be restored from it",
        s.path().display()
    );
    entries_by_probe_rules(s)
}

/// Every entry of a shipped chess table (of either form) by the probe
/// rules: [`restore_payload`]'s walk, which for the WDL form gives each
/// position's class ([`wdl_class`]); its tests compare those with the raw
/// table's.
pub fn entries_by_probe_rules(s: &ShippedTable) -> Result<Vec<u8>> {
    let data_dir = data_dir_of(s.path())?;
    let (m, storage) = shipped_storage(ShippedTable::open(s.path())?)?;
    let mut one = Tablebase::accepting_wdl();
    one.insert(m, storage)?;
    let t = one.get(&m).expect("inserted");
    let Storage::Shipped { kept, .. } = t.storage else {
        unreachable!("inserted as shipped")
    };
    let (layout, wide) = (&t.layout, t.wide);
    // The DTM form restores from full tables (shipped ones restored in
    // memory first); the WDL form's walk takes the tables below as they
    // are, WDL ones too, and keeps each value's class.
    let subs = if s.is_reduced() {
        Tablebase::open_any(&data_dir, &m.successors())?
    } else {
        Tablebase::open_with(&m.successors(), |id| {
            open_table_unpacked(&data_dir, id, &restore_payload)
        })?
    };
    let reduce = |v: Value| if s.is_reduced() { wdl_class(v) } else { v };
    let n = layout.positions;
    let width = if wide { 2 } else { 1 };
    // One side's entries, encoded as the raw table stores them (a side of
    // KRPvKR is 355 MB this way, 2.8 GB as `Value`s).
    let side =
        |f: &(dyn Fn(&Board, u64) -> Result<Value> + Sync), turn: Color| -> Result<Vec<u8>> {
            let parts: Vec<Vec<u8>> = (0..n.div_ceil(CHUNK))
                .into_par_iter()
                .map(|c| -> Result<Vec<u8>> {
                    let (from, to) = (c * CHUNK, ((c + 1) * CHUNK).min(n));
                    let mut out = Vec::with_capacity((to - from) as usize * width);
                    let mut cursor = layout.cursor(from);
                    for slot in from..to {
                        let v = match cursor.legal_board(turn) {
                            None => Value::Draw,
                            Some(b) => reduce(f(&b, slot)?),
                        };
                        encode(v, wide, &mut out)?;
                        if slot + 1 < to {
                            cursor.advance();
                        }
                    }
                    Ok(out)
                })
                .collect::<Result<_>>()?;
            Ok(parts.concat())
        };
    let stored_side = side(&|b, _| stored_side_value(t, b, &subs), kept)?;
    let other_side = side(
        &|b, slot| {
            one_ply(b, |mv| {
                if mv.converts() {
                    return subs.value_after(b, mv);
                }
                let child = b.play(mv);
                let at = layout.index_after_move(b, slot, mv) as usize * width;
                let stored = decode(&stored_side[at..at + width], wide);
                let mut err = None;
                let v = after_move(&child, mv, stored, &mut |c| {
                    subs.value(c).unwrap_or_else(|e| {
                        err = Some(e);
                        Value::Draw
                    })
                });
                err.map_or(Ok(v), Err)
            })
        },
        kept.other(),
    )?;
    let (mut white, black) = if kept == Color::White {
        (stored_side, other_side)
    } else {
        (other_side, stored_side)
    };
    white.extend_from_slice(&black);
    Ok(white)
}
