//! The chess jobs: parameters, the closure of a material list under
//! captures and promotions, plan, and building one table.

use super::index::{self, Layout};
use super::material::Material;
use super::probe::{table_id, Tablebase};
use super::sweep::Sink as _;
use super::value::{Value, NARROW_DESCRIPTION, VALUE_FORMAT, WIDE_DESCRIPTION};
use super::{solve, sweep, Chess, MAX_PIECES, SOLVER_VERSION};
use crate::pipeline::checkpoint;
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::{Entry, PositionedWriter};
use crate::table::EntryKind;
use crate::table::TableMeta;
use anyhow::{ensure, Context, Result};
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
/// The `[chess]` config section.
pub struct ChessParams {
    /// Build every endgame with these piece counts (kings included).
    #[serde(default)]
    pub pieces: Vec<u32>,
    /// Extra endgames by name ("KRPvKR"); their dependencies come along.
    #[serde(default)]
    pub tables: Vec<String>,
}

/// The requested signatures plus everything their captures and promotions
/// lead to, smallest first.
pub fn closure(wanted: &[Material]) -> Vec<Material> {
    let mut all: Vec<Material> = Vec::new();
    let mut stack: Vec<Material> = wanted.iter().map(|m| m.canonical()).collect();
    while let Some(m) = stack.pop() {
        if !all.contains(&m) {
            stack.extend(m.successors());
            all.push(m);
        }
    }
    all.sort_by_key(|m| (m.pieces(), m.name()));
    all
}

/// The parameters of one `chess/MATERIAL` job (hashed into its table's
/// header, and recorded as the table's parameters).
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct TableJob {
    pub(super) material: String,
    pub(super) solver: u32,
    /// The value format (`value::VALUE_FORMAT`); tables written before it
    /// was recorded are format 1.
    #[serde(default = "format_one")]
    pub(super) values: u32,
    /// The index layout of a table with pawns (`index::PAWN_LAYOUT`):
    /// layout 1 ranked the king pair first, layout 2 the pawns. Not
    /// recorded for tables without pawns, whose layout never changed (so
    /// their parameters, and the tables built with them, stay as they were).
    #[serde(default = "format_one", skip_serializing_if = "is_format_one")]
    pub(super) layout: u32,
}

fn format_one() -> u32 {
    1
}

fn is_format_one(x: &u32) -> bool {
    *x == 1
}

/// One core's time per slot swept (`sweep::slots_swept`) of a whole
/// build by the sweep engine, in nanoseconds, by piece count: the 10th
/// percentile over tables, the slot-weighted mean (all the tables' CPU
/// seconds over all their swept slots) and the 90th percentile. Measured
/// on `vm` (2 cores, Intel Xeon, 24 GiB) by the whole 3-5 piece rebuild
/// (all 145 tables, 2026-11-30/12-01, nimrod `4101cfe`, two threads, CPU
/// = user + system, one table a process, `scripts/chess_set_build.sh`;
/// benches/results/chess/2026-12-01-rebuild-345.txt). The 5 three-piece
/// tables' times round to 0.00 s, so their spread is the four-piece one.
/// The spread is the tables' plies and what ran beside them. Six pieces:
/// one table, KQRvKRB, rebuilt by the same engine (2026-12-02, nimrod
/// `73cc13b`, two threads, an AMD EPYC `vm`: 3,248.5 CPU-s for 15.5 G
/// swept slots, 210 ns; its first build by the old engine took 533 ns), the
/// spread the five-piece one scaled to it (a model, not measured;
/// benches/results/chess/2026-12-02-KQRvKRB-sweep-engine.txt). KRNvKNN
/// (524 plies, 2026-12-02) took about 365 ns a slot with its like
/// pieces' share taken out (2026-12-02-s55-KRNvKNN.txt): the basis says so.
const NS_PER_SLOT: [(u32, [f64; 3], &str); 4] = [
    (3, [102.0, 185.0, 353.0], REBUILD),
    (4, [102.0, 239.0, 353.0], REBUILD),
    (5, [188.0, 254.0, 335.0], REBUILD),
    (
        6,
        [155.0, 210.0, 277.0],
        "one six-piece table (KQRvKRB, 143 plies, 2026-12-02), the spread modelled on the five-piece one; \
         a table's plies are not known beforehand, and cost more: KRNvKNN (524 plies) took 1.7x this",
    ),
];

const REBUILD: &str = "the whole 3-5 piece rebuild (145 tables) on a 2-core VM, 2026-12-01";

/// The expected time of a table of `pieces` pieces and `slots` slots.
/// The share of a swept slot's cost that stays when its like pieces'
/// other orders are skipped (the bytes are still scanned and the first
/// pass still looks at every run of 64): a model fitted to two measured
/// cuts, KRRRvK's 0.39 of its CPU (six orders) and KBBvKB's 0.62 (two),
/// which a share of 0.25 gives as 0.38 and 0.62
/// (benches/results/chess/2026-12-02-s53-like-pieces-old-vs-new.txt).
const KEPT_WITH_LIKE_PIECES: f64 = 0.25;

fn expected_cpu(pieces: u32, slots: u64, orders: u64) -> crate::pipeline::CpuSeconds {
    let (measured, [low, typical, high], source) = NS_PER_SLOT
        .iter()
        .copied()
        .find(|(p, ..)| *p == pieces)
        .unwrap_or(NS_PER_SLOT[NS_PER_SLOT.len() - 1]);
    let share = KEPT_WITH_LIKE_PIECES + (1.0 - KEPT_WITH_LIKE_PIECES) / orders.max(1) as f64;
    let s = |ns: f64| slots as f64 * ns * share / 1e9;
    crate::pipeline::CpuSeconds {
        typical: s(typical),
        low: s(low),
        high: s(high),
        basis: format!(
            "{typical} ns a swept slot (10-90%: {low}-{high}), {measured} pieces: {source}{}{}",
            if orders > 1 {
                format!(
                    "; like pieces in {orders} orders, one solved: {share:.2} of that (modelled)"
                )
            } else {
                String::new()
            },
            if measured == pieces {
                String::new()
            } else {
                format!(
                    " (not measured for {pieces} pieces: the {measured}-piece cost taken as is)"
                )
            }
        ),
    }
}

impl Planner for Chess {
    fn name(&self) -> &'static str {
        crate::games::game::Game::name(self)
    }
    /// One byte per slot, both sides to move, and a move count beside it;
    /// every slot is visited by the retrograde passes; the tables of its
    /// successors are mapped (or, packed, decompressed) beside it.
    fn estimate(&self, job: &Job) -> Option<crate::pipeline::Estimate> {
        let p: TableJob = serde_json::from_value(job.params.clone()).ok()?;
        let m = Material::parse(&p.material).ok()?;
        let layout = index::Layout::new(m);
        let slots = 2 * layout.positions;
        let inputs: u64 = m
            .successors()
            .iter()
            .map(|s| 2 * index::Layout::new(*s).positions)
            .sum();
        // The sweep engine's peak (see `sweep::memory_bytes`), the inputs
        // on top.
        let threads = rayon::current_num_threads();
        let working = sweep::memory_bytes(&layout, threads).unwrap_or(2 * slots + slots / 8);
        let swept = sweep::slots_swept(&layout).unwrap_or(slots);
        Some(crate::pipeline::Estimate {
            entries: slots,
            output_bytes: slots,
            memory_bytes: working.saturating_add(inputs),
            work: swept,
            work_unit: "slots swept (each slice's superset index, both sides to move)".into(),
            cpu_seconds: Some(expected_cpu(
                m.pieces(),
                swept,
                sweep::orders_of_like_pieces(&layout).unwrap_or(1),
            )),
        })
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: ChessParams = game_params(source, "chess", section)?;
        let mut wanted = Vec::new();
        for &n in &p.pieces {
            ensure!(
                (3..=MAX_PIECES).contains(&n),
                "{source}: [chess] pieces = {n} is out of range (3 ..= {MAX_PIECES}, kings included)"
            );
            wanted.extend(Material::all_with(n));
        }
        for name in &p.tables {
            let m = Material::parse(name).with_context(|| format!("{source}: [chess] tables"))?;
            ensure!(
                (3..=MAX_PIECES).contains(&m.pieces()),
                "{source}: [chess] table {name} has {} pieces (3 ..= {MAX_PIECES})",
                m.pieces()
            );
            wanted.push(m);
        }
        Ok(closure(&wanted)
            .into_iter()
            .map(|m| {
                let deps: Vec<String> = m.successors().iter().map(table_id).collect();
                Job {
                    id: table_id(&m),
                    deps,
                    params: serde_json::to_value(TableJob {
                        material: m.name(),
                        solver: SOLVER_VERSION,
                        values: VALUE_FORMAT,
                        layout: if m.has_pawns() { index::PAWN_LAYOUT } else { 1 },
                    })
                    .expect("plain struct"),
                    run: Box::new(move |ctx| build(ctx, m)),
                    parts: None,
                }
            })
            .collect())
    }
}

fn build(ctx: &JobContext, m: Material) -> Result<()> {
    let layout = Layout::new(m);
    // The first pass probes the captures' and promotions' tables all over:
    // a packed one is decompressed whole once (its raw size, which the
    // estimate's memory counts), not a 256 KiB frame for nearly every probe
    // (KPvKP from packed 3- and 4-piece tables: 12.4 s, 23% of it in zstd).
    let probe = Tablebase::open_with(&m.successors(), |id| ctx.open_unpacked(id))?;
    let meta = |description: &str, stats: &solve::TableStats| -> Result<TableMeta> {
        Ok(TableMeta::new(
            "chess",
            &m.name(),
            ctx.params.clone(),
            &format!(
                "side * {} + index; side 0 = white to move; index = {}",
                layout.positions,
                layout.description()
            ),
            description,
            serde_json::to_value(stats)?,
        )
        .stamped(ctx.stamp()))
    };
    // Written into the file slice by slice (pawns), a run of king pairs
    // at a time (like pieces, or values past the first window), or at once
    // from the solve's own bytes: the table is never held twice.
    let mut sink = FileSink::create(&ctx.output, 2 * layout.positions)?;
    let stats = solve_by_sweeps(ctx, &layout, |on_step, options| {
        sweep::solve_into(&layout, &probe, on_step, options, &mut sink)
    })?;
    let description = if sink.is_wide() {
        WIDE_DESCRIPTION
    } else {
        NARROW_DESCRIPTION
    };
    sink.writer
        .finish(&meta(description, &stats)?, ctx.param_hash)?;
    // Only now is the sweeps' saved state no longer needed.
    if let Some(line) = checkpoint::remove_beside(&ctx.output) {
        ctx.progress.println(&format!("{}: {line}", ctx.id));
    }
    Ok(())
}

/// A table with pawns as the sweeps write it: straight into its file.
struct FileSink {
    path: std::path::PathBuf,
    writer: PositionedWriter,
    /// Whether any value has been stored yet.
    written: bool,
}

impl FileSink {
    fn create(path: &std::path::Path, slots: u64) -> Result<FileSink> {
        Ok(FileSink {
            path: path.to_path_buf(),
            writer: PositionedWriter::create(path, EntryKind::U8, slots)?,
            written: false,
        })
    }

    /// Copies every value into a writer of `kind`, through `convert`
    /// (None: a value that does not fit, and the copy is given up).
    fn copy_into<A: Entry, B: Entry>(
        &self,
        kind: EntryKind,
        convert: impl Fn(A) -> Option<B>,
    ) -> Result<Option<PositionedWriter>> {
        let slots = self.writer.entries();
        let to = PositionedWriter::create(&self.path, kind, slots)?;
        const RUN: u64 = 1 << 22;
        let mut from = vec![A::zeroed(); RUN as usize];
        for start in (0..slots).step_by(RUN as usize) {
            let n = (slots - start).min(RUN) as usize;
            self.writer.read_at(start, &mut from[..n])?;
            let converted: Option<Vec<B>> = from[..n].iter().map(|&x| convert(x)).collect();
            let Some(converted) = converted else {
                return Ok(None);
            };
            to.write_at(start, &converted)?;
        }
        Ok(Some(to))
    }
}

impl sweep::Sink for FileSink {
    fn put_narrow(&mut self, at: u64, values: &[u8]) -> Result<()> {
        self.written = true;
        Ok(self.writer.write_at(at, values)?)
    }

    fn put_wide(&mut self, at: u64, values: &[u16]) -> Result<()> {
        self.written = true;
        Ok(self.writer.write_at(at, values)?)
    }

    fn is_wide(&self) -> bool {
        self.writer.kind() == EntryKind::U16
    }

    fn widen(&mut self) -> Result<()> {
        if !self.is_wide() && !self.written {
            // Nothing stored yet (a pawnless table whose window moved
            // widens before its first run): a new two-byte file of zeros
            // is the copy, without reading and writing a whole table
            // (KRNvKNN: 7.6 GB beside 15.3 GB for a while).
            let slots = self.writer.entries();
            self.writer = PositionedWriter::create(&self.path, EntryKind::U16, slots)?;
        } else if !self.is_wide() {
            let wide = self.copy_into(EntryKind::U16, |b: u8| Value::decode(b).encode_wide())?;
            self.writer = wide.context("a byte's value widens")?;
        }
        Ok(())
    }

    fn narrow(&mut self) -> Result<bool> {
        if self.is_wide() {
            match self.copy_into(EntryKind::U8, |x: u16| Value::decode_wide(x).encode())? {
                Some(narrow) => self.writer = narrow,
                None => return Ok(false),
            }
        }
        Ok(true)
    }
}

/// The sweep engine (`sweep`): a pawnless table is one slice, resumable
/// from its checkpoint; a table with pawns is solved slice by slice.
fn solve_by_sweeps<T>(
    ctx: &JobContext,
    layout: &Layout,
    solve: impl FnOnce(&dyn Fn(sweep::Step), sweep::Options) -> Result<T>,
) -> Result<T> {
    // One progress line per phase, each with its time. Steps are reported
    // from the solving thread only, so a RefCell holds the current stage.
    let stage = std::cell::RefCell::new(ctx.progress.stage(
        ctx.id,
        "retrograde sweeps",
        sweep::slice_count(layout) as u64,
    ));
    let next = |s: crate::pipeline::Stage| stage.replace(s).finish();
    let saved_at = checkpoint::path_beside(&ctx.output);
    let options = sweep::Options {
        // Beside the checkpoint, on the disk the table goes to.
        exact_file: Some(saved_at.with_extension("exact")),
        checkpoint: Some(sweep::Checkpoint {
            path: saved_at,
            key: ctx.param_hash,
            every: checkpoint::interval()?,
            stop_before: None,
        }),
        // No witness hints on request: the same bytes, for side-by-side
        // measurements of what they save.
        witness_codes: if std::env::var_os("NIMROD_NO_WITNESSES").is_some() {
            0
        } else {
            sweep::Options::default().witness_codes
        },
        ..sweep::Options::default()
    };
    let say = |line: String| ctx.progress.println(&format!("{}: {line}", ctx.id));
    // A ply's line a minute at most (as often as the saves, if more
    // often): a five-piece table's plies take a second or less each, a
    // six-piece one's up to a minute.
    let started = std::time::Instant::now();
    let last_ply_line = std::cell::Cell::new(started);
    let ply_lines_every = options
        .checkpoint
        .as_ref()
        .map_or(std::time::Duration::from_secs(60), |c| {
            c.every.min(std::time::Duration::from_secs(60))
        });
    let solved = solve(
        &|step| match step {
            sweep::Step::Slice => stage.borrow().inc(1),
            sweep::Step::Ply { ply, decided } => {
                if last_ply_line.get().elapsed() >= ply_lines_every {
                    last_ply_line.set(std::time::Instant::now());
                    say(format!(
                        "ply {ply} done, {decided} positions decided in it ({:.0} s in)",
                        started.elapsed().as_secs_f64()
                    ));
                }
            }
            sweep::Step::Slices => next(ctx.progress.stage(ctx.id, "statistics", 1)),
            sweep::Step::Saved {
                ply,
                bytes,
                seconds,
            } => say(format!(
                "state saved before ply {ply} ({:.1} GB in {seconds:.0} s)",
                bytes as f64 / 1e9
            )),
            sweep::Step::Resumed { ply } => {
                say(format!("resumed at ply {ply} from its checkpoint"))
            }
            sweep::Step::Refused { why } => {
                say(format!("checkpoint not used, starting over: {why}"))
            }
            sweep::Step::Skipped { ply, why } => say(format!(
                "state not saved before ply {ply}, the solve goes on \
                 (a kill now resumes from the last save): {why}"
            )),
        },
        options,
    )?;
    stage.into_inner().finish();
    Ok(solved)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Widening a sink: nothing stored yet gives a two-byte file of zeros
    /// and no one-byte file left beside it; values stored are carried
    /// over, two bytes wide.
    #[test]
    fn a_file_sink_widens_with_or_without_values_stored() {
        use sweep::Sink;
        let dir = tempfile::tempdir().unwrap();
        for stored in [false, true] {
            let path = dir.path().join(format!("t{stored}.nmt"));
            let mut sink = FileSink::create(&path, 1000).unwrap();
            let win = Value::Win(3).encode().unwrap();
            if stored {
                sink.put_narrow(10, &[win, 0, 130]).unwrap();
            }
            sink.widen().unwrap();
            assert!(sink.is_wide());
            let leftovers: Vec<_> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|n| n.starts_with(&format!("t{stored}.")) && n.contains("u8"))
                .collect();
            assert!(leftovers.is_empty(), "{leftovers:?}");
            let mut back = vec![7u16; 1000];
            sink.writer.read_at(0, &mut back).unwrap();
            let nonzero: Vec<(usize, Value)> = back
                .iter()
                .enumerate()
                .filter(|(_, &x)| x != 0)
                .map(|(i, &x)| (i, Value::decode_wide(x)))
                .collect();
            let want = if stored {
                vec![(10, Value::Win(3)), (12, Value::decode(130))]
            } else {
                vec![]
            };
            assert_eq!(nonzero, want, "stored {stored}");
        }
    }

    #[test]
    fn like_pieces_cut_the_expected_cpu_by_the_orders_skipped() {
        let cpu = |name: &str| {
            let layout = index::Layout::new(Material::parse(name).unwrap().canonical());
            let swept = sweep::slots_swept(&layout).unwrap();
            let orders = sweep::orders_of_like_pieces(&layout).unwrap();
            (swept, orders, expected_cpu(5, swept, orders))
        };
        let (alone, one, plain) = cpu("KRNvKB");
        let (pair, two, paired) = cpu("KRRvKB");
        let (triple, six, tripled) = cpu("KRRRvK");
        assert_eq!((alone, one), (pair, 1));
        assert_eq!((triple, two, six), (alone, 2, 6));
        assert_eq!(cpu("KRRvKNN").1, 4);
        let share = |x: &crate::pipeline::CpuSeconds| x.typical / plain.typical;
        assert!((share(&paired) - 0.625).abs() < 1e-9, "{}", share(&paired));
        assert!(
            (share(&tripled) - 0.375).abs() < 1e-9,
            "{}",
            share(&tripled)
        );
        assert!(tripled.basis.contains("6 orders") && !plain.basis.contains("orders"));
    }
}
