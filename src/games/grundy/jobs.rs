//! The Grundy jobs: the values table, the rare heaps and misère outcomes.

use super::coding::{encode_all, Encoder, GrundyValues};
use super::rare::is_rare_value;
use super::stats::GrundyStats;
use super::{driver, misere, Grundy, SOLVER_VERSION};
use crate::pipeline::checkpoint;
use crate::pipeline::config::game_params;
use crate::pipeline::{CpuSeconds, Job, JobContext, OnDisk, Planner, Resume};
use crate::table::writer::{write_hashed, write_ranked};
use crate::table::{EntryKind, Table, TableMeta, TableWriter};
use anyhow::{ensure, Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
/// The `[grundy]` config section.
pub struct GrundyParams {
    /// Largest heap whose value is computed.
    pub bound: u64,
    /// How the values are held while they are computed.
    #[serde(default)]
    pub mode: Mode,
    #[serde(default = "default_window")]
    /// Values held in memory per window in streaming mode.
    pub window: u64,
    /// Largest single heap solved in misère play.
    #[serde(default = "default_misere_bound")]
    pub misere_bound: u64,
    /// Bits a heap in the values table: 16 (the value) or 8 (the value's
    /// position among the values in order of first appearance, up to 256
    /// distinct values; see `coding`).
    #[serde(default = "default_width")]
    pub width: u8,
}

/// `mode` in `[grundy]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Every value in memory (2 bytes a heap).
    #[default]
    Full,
    /// Two windows of `window` values; values are written as they come.
    Streaming,
}
fn default_window() -> u64 {
    1 << 20
}
fn default_misere_bound() -> u64 {
    70
}
fn default_width() -> u8 {
    16
}
fn is_default_width(w: &u8) -> bool {
    *w == 16
}

impl Planner for Grundy {
    fn name(&self) -> &'static str {
        crate::games::game::Game::name(self)
    }
    /// The values job: one or two bytes a heap on disk (`width`); in
    /// memory every value (full mode) or three windows' worth (streaming).
    /// CPU time is one thread's, the cheapest per heap, measured on `vm`
    /// (2 cores, AMD EPYC), whose speed varies by about 1.5x from day to
    /// day: past heap 3.8e8, 1.68 core-µs a heap with everything else
    /// stopped (2026-12-01, `benches/grundy_stretch.sh`); the 2^35 run, one
    /// thread beside other work, 1.75-1.9 µs of wall a heap (the fastest
    /// quarter of its intervals) past 2^31 and 2.3-3.1 on average. Two
    /// threads take about 1.27x this CPU for 1.55x the speed.
    fn estimate(&self, job: &Job) -> Option<crate::pipeline::Estimate> {
        if job.id != "grundy/values" {
            return None;
        }
        let j: ValuesJob = serde_json::from_value(job.params.clone()).ok()?;
        let heaps = j.bound.checked_add(1)?;
        Some(crate::pipeline::Estimate {
            entries: heaps,
            output_bytes: heaps.saturating_mul(u64::from(j.width / 8)),
            memory_bytes: match j.mode {
                Mode::Full => heaps.saturating_mul(2),
                Mode::Streaming => j.window.saturating_mul(6),
            },
            work: heaps,
            work_unit: "heaps".into(),
            cpu_seconds: Some(cpu_seconds(0, heaps)),
        })
    }
    /// A streaming build goes on from its saved state, or extends the
    /// smaller finished table whose last state was kept; what it would do
    /// is read here as the build decides it, without moving anything.
    fn on_disk(&self, job: &Job, output: &std::path::Path) -> Option<OnDisk> {
        if job.id != "grundy/values" {
            return None;
        }
        let j: ValuesJob = serde_json::from_value(job.params.clone()).ok()?;
        if j.mode != Mode::Streaming {
            return None;
        }
        let checkpoint = saving_for(output, &j).ok()?;
        let started = |next: u64, from: String| {
            OnDisk::Started(Resume {
                work_done: next,
                from,
                cpu_seconds_left: Some(cpu_seconds(next, j.bound + 1)),
            })
        };
        match extension_of(output, &checkpoint, &j) {
            Extension::From {
                table_bound, next, ..
            } => {
                return Some(started(
                    next,
                    format!(
                        "the finished table of heaps 0..={table_bound} ({}), extended from its kept state at heap {next}",
                        output.display()
                    ),
                ))
            }
            Extension::NotUsed(why) => {
                return Some(OnDisk::NotStarted {
                    why: Some(format!("kept state not used: {why}")),
                })
            }
            Extension::None => {}
        }
        Some(
            match driver::would_resume_from(&checkpoint, j.window, j.bound) {
                Ok(Some(next)) => started(
                    next,
                    format!(
                        "its saved state at heap {next} ({})",
                        checkpoint.path.display()
                    ),
                ),
                Ok(None) => OnDisk::NotStarted { why: None },
                Err(e) => OnDisk::NotStarted {
                    why: Some(format!("saved state not used: {e:#}")),
                },
            },
        )
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: GrundyParams = game_params(source, "grundy", section)?;
        ensure!(
            p.bound >= 3 && p.bound < (1u64 << 40),
            "{source}: [grundy] bound = {} is out of range (3 ..= 2^40 - 1)",
            p.bound
        );
        ensure!(
            p.width == 8 || p.width == 16,
            "{source}: [grundy] width = {} must be 8 or 16 (bits a heap)",
            p.width
        );
        ensure!(
            p.misere_bound <= misere::MAX_HEAP,
            "{source}: [grundy] misere_bound = {} is out of range (0 ..= {})",
            p.misere_bound,
            misere::MAX_HEAP
        );
        let solver = SOLVER_VERSION;
        let job = ValuesJob {
            bound: p.bound,
            mode: p.mode,
            window: p.window,
            solver,
            width: p.width,
        };
        let table = ValuesTable {
            bound: p.bound,
            solver,
        };
        let values = Job {
            id: "grundy/values".into(),
            deps: vec![],
            params: serde_json::to_value(job)?,
            run: Box::new(move |ctx| build_values(ctx, &job)),
            parts: None,
        };
        let rare = Job {
            id: "grundy/rare".into(),
            deps: vec!["grundy/values".into()],
            params: serde_json::to_value(&table)?,
            run: Box::new(build_rare),
            parts: None,
        };
        let mb = p.misere_bound;
        let misere = Job {
            id: "grundy/misere".into(),
            deps: vec![],
            params: serde_json::to_value(MisereJob {
                misere_bound: mb,
                solver,
            })?,
            run: Box::new(move |ctx| build_misere(ctx, mb)),
            parts: None,
        };
        Ok(vec![values, rare, misere])
    }
}

/// One core's time for heaps `from .. to` of the values job, from measured
/// costs: the first 2^26 heaps are cheaper than those after.
fn cpu_seconds(from: u64, to: u64) -> CpuSeconds {
    const SMALL: u64 = 1 << 26;
    let small = to.min(SMALL).saturating_sub(from.min(SMALL)) as f64;
    let large = to.max(SMALL).saturating_sub(from.max(SMALL)) as f64;
    let at = |per_small: f64, per_large: f64| (small * per_small + large * per_large) * 1e-6;
    CpuSeconds {
        typical: at(1.6, 1.8),
        low: at(1.4, 1.6),
        high: at(2.4, 3.1),
        basis: "vm (2 cores, AMD EPYC), one thread: 1.68 core-µs a heap past heap 3.8e8 with nothing else running (2026-12-01); the 2^35 run 1.75-1.9 µs of wall a heap past 2^31 (fastest quarter), 2.3-3.1 on average beside other work; two threads cost about 1.27x this CPU".into(),
    }
}

/// The parameters of the `grundy/values` job (hashed into its table's header).
#[derive(Serialize, Deserialize, Clone, Copy)]
struct ValuesJob {
    bound: u64,
    mode: Mode,
    window: u64,
    solver: u32,
    /// Left out of the parameters at 16, so that tables built before the
    /// width existed keep their hash.
    #[serde(default = "default_width", skip_serializing_if = "is_default_width")]
    width: u8,
}

/// The parameters recorded in the values table (and hashed for the rare
/// table): the mode and window change how the values are computed, not
/// which values they are.
#[derive(Serialize)]
struct ValuesTable {
    bound: u64,
    solver: u32,
}

/// The parameters of the `grundy/misere` job and its table.
#[derive(Serialize)]
struct MisereJob {
    misere_bound: u64,
    solver: u32,
}

fn build_values(ctx: &JobContext, job: &ValuesJob) -> Result<()> {
    let bound = job.bound;
    let params = serde_json::to_value(ValuesTable {
        bound,
        solver: job.solver,
    })?;
    let stage = ctx.progress.stage(ctx.id, "sparse-space values", bound + 1);
    let meta = |stats: &GrundyStats| {
        TableMeta::new(
            "grundy",
            "values",
            params.clone(),
            "heap-size",
            if job.width == 8 {
                "u8 code of G(n), the Sprague-Grundy value of a heap of n: G(n) = stats.first_heaps[code].value (the values in order of first appearance)"
            } else {
                "u16 Sprague-Grundy value G(n) of a heap of n"
            },
            json!(stats),
        )
        .stamped(ctx.stamp())
    };
    if job.mode == Mode::Streaming {
        // The state at a heap does not depend on the bound: a stopped
        // solve to 2^32 resumes as part of one to 2^35. The width is in
        // the key: the partial table's bytes are entries of that width.
        let checkpoint = saving_for(&ctx.output, job)?;
        let say = |line: String| ctx.progress.println(&format!("{}: {line}", ctx.id));
        if let Some(line) = extend_finished(&ctx.output, &checkpoint, job)? {
            say(line);
        }
        let (stats, sink) = driver::stream_resumable(
            bound,
            job.window,
            Some(&checkpoint),
            |from, before: &GrundyStats| {
                stage.inc(from);
                let kind = if job.width == 8 {
                    EntryKind::U8
                } else {
                    EntryKind::U16
                };
                let writer = if from == 0 {
                    TableWriter::create_resumable(&ctx.output, kind)?
                } else {
                    TableWriter::resume(&ctx.output, kind, from)?
                };
                let encoder = match job.width {
                    8 => Some(Encoder::resume(&before.first_heaps, from)?),
                    _ => None,
                };
                Ok(TableSink {
                    writer,
                    encoder,
                    codes: Vec::new(),
                    stage: &stage,
                })
            },
            &mut |step| say(step.line("heap")),
        )?;
        if let Some(e) = &sink.encoder {
            ensure!(
                e.codes() == stats.first_heaps.len(),
                "{} codes written for {} distinct values",
                e.codes(),
                stats.first_heaps.len()
            );
        }
        sink.writer.finish(&meta(&stats), ctx.param_hash)?;
        if let Some(line) = checkpoint::remove_beside(&ctx.output) {
            say(line);
        }
    } else {
        let (g, stats) = driver::values(bound, |k| stage.inc(k))?;
        if job.width == 8 {
            write_ranked(&ctx.output, &encode_all(&g)?, &meta(&stats), ctx.param_hash)?;
        } else {
            write_ranked(&ctx.output, &g, &meta(&stats), ctx.param_hash)?;
        }
    }
    stage.finish();
    Ok(())
}

/// Where and under which key a streaming build of `job` to `output` saves
/// its state, and where it keeps its last one.
fn saving_for(output: &std::path::Path, job: &ValuesJob) -> Result<checkpoint::Saving> {
    let mut saving = checkpoint::Saving::beside(
        output,
        crate::pipeline::param_hash(
            "grundy/values streaming state",
            &json!({"window": job.window, "solver": job.solver, "width": job.width}),
        ),
    )?;
    saving.last_state = Some(checkpoint::path_for_extending(output));
    Ok(saving)
}

/// What a streaming build finds of an earlier, smaller table at `output`.
enum Extension {
    /// Nothing to extend (no table, no kept state, or a build under way).
    None,
    /// A table and a kept state it will not use, and why.
    NotUsed(String),
    /// It extends the table of heaps 0..=`table_bound` from its kept
    /// state (`kept`) at heap `next`.
    From {
        table_bound: u64,
        next: u64,
        kept: std::path::PathBuf,
    },
}

/// Whether a streaming build to a larger bound than the finished table at
/// `output` goes on from the last state that table's build kept
/// (`checkpoint.last_state`) instead of starting over. Only when no build
/// of this table is under way and a table and a kept state are there; then
/// it extends when the state is of these parameters, this bound can resume
/// from it, and the table is of this width, of a smaller bound and of the
/// state's run (their statistics agree). Reads, never moves, anything.
fn extension_of(
    output: &std::path::Path,
    checkpoint: &checkpoint::Saving,
    job: &ValuesJob,
) -> Extension {
    let Some(kept) = checkpoint.last_state.as_deref() else {
        return Extension::None;
    };
    let partial = crate::table::writer::partial_path(output);
    if checkpoint.path.exists() || partial.exists() || !kept.exists() || !output.exists() {
        return Extension::None;
    }
    let not_used = |why: String| Extension::NotUsed(format!("{}: {why}", kept.display()));
    let as_kept = checkpoint::Saving {
        path: kept.to_path_buf(),
        ..checkpoint.clone()
    };
    // Its key (window, solver, width) and format, then the state through
    // to its checksum.
    let saved = match driver::read_saving(&as_kept) {
        Ok(Some(saved)) => saved,
        Ok(None) => return Extension::None,
        Err(e) => return Extension::NotUsed(format!("{e:#}")),
    };
    let table = match Table::open(output) {
        Ok(t) => t,
        Err(e) => return not_used(e.to_string()),
    };
    let kind = if job.width == 8 {
        EntryKind::U8
    } else {
        EntryKind::U16
    };
    let meta = table.meta();
    let next = saved.next_heap;
    let Some(table_bound) = meta.params.get("bound").and_then(serde_json::Value::as_u64) else {
        return not_used(format!("{} names no bound", output.display()));
    };
    if table_bound >= job.bound {
        return not_used(format!(
            "{} holds heaps 0..={table_bound}, not fewer than this build's {}",
            output.display(),
            job.bound
        ));
    }
    let stats = serde_json::from_value::<GrundyStats>(meta.stats.clone()).ok();
    let same_run = stats.is_some_and(|stats| {
        stats.first_heaps.len() >= saved.stats.first_heaps.len()
            && stats.first_heaps[saved.stats.first_heaps.len()..]
                .iter()
                .all(|f| f.heap >= next)
            && stats
                .first_heaps
                .iter()
                .zip(&saved.stats.first_heaps)
                .all(|(a, b)| (a.heap, a.value) == (b.heap, b.value))
    });
    if (meta.game.as_str(), meta.table.as_str()) != ("grundy", "values")
        || table.header().entry_kind != kind
    {
        not_used(format!(
            "{} is not a grundy/values table of {}-bit entries",
            output.display(),
            job.width
        ))
    } else if table.len() != table_bound + 1 || next > table_bound {
        not_used(format!(
            "saved at heap {next}, past the {} heaps of {}",
            table.len(),
            output.display()
        ))
    } else if !driver::resumes_at(next, job.bound) {
        not_used(format!(
            "saved at heap {next}, too close to the bound {} to resume from",
            job.bound
        ))
    } else if !same_run {
        not_used(format!(
            "its statistics disagree with those of {}: not the state of that table's build",
            output.display()
        ))
    } else {
        Extension::From {
            table_bound,
            next,
            kept: kept.to_path_buf(),
        }
    }
}

/// Extends the finished table at `output` when [`extension_of`] says so:
/// the table becomes the partial file again (its values up to the kept
/// state are the solve's so far; the rest is cut off when the sink
/// resumes) and the kept state the checkpoint. Returns the line to log:
/// what it extends, or why the kept state is not used.
fn extend_finished(
    output: &std::path::Path,
    checkpoint: &checkpoint::Saving,
    job: &ValuesJob,
) -> Result<Option<String>> {
    let (table_bound, next, kept) = match extension_of(output, checkpoint, job) {
        Extension::None => return Ok(None),
        Extension::NotUsed(why) => {
            return Ok(Some(format!("kept state not used, starting over: {why}")))
        }
        Extension::From {
            table_bound,
            next,
            kept,
        } => (table_bound, next, kept),
    };
    let partial = crate::table::writer::partial_path(output);
    std::fs::rename(output, &partial).with_context(|| {
        format!(
            "cannot move {} to {} to extend it",
            output.display(),
            partial.display()
        )
    })?;
    if let Err(e) = std::fs::rename(&kept, &checkpoint.path) {
        // Put the table back: a partial file without its state would be
        // started over.
        let back = std::fs::rename(&partial, output);
        return Err(e).with_context(|| {
            format!(
                "cannot move {} to {} to extend {}{}",
                kept.display(),
                checkpoint.path.display(),
                output.display(),
                if back.is_ok() {
                    " (the table is left as it was)"
                } else {
                    ""
                }
            )
        });
    }
    Ok(Some(format!(
        "extending the finished table of heaps 0..={table_bound} to {} from its kept state at heap {next}",
        job.bound
    )))
}

/// The values table as the streaming solve's sink.
struct TableSink<'a> {
    writer: TableWriter,
    /// For one byte a heap.
    encoder: Option<Encoder>,
    codes: Vec<u8>,
    stage: &'a crate::pipeline::Stage,
}

impl driver::Sink for TableSink<'_> {
    fn write(&mut self, values: &[u16]) -> Result<()> {
        self.stage.inc(values.len() as u64);
        match &mut self.encoder {
            None => self.writer.write_entries(values)?,
            Some(e) => {
                self.codes.clear();
                e.encode(values, &mut self.codes)?;
                self.writer.write_entries(&self.codes)?;
            }
        }
        Ok(())
    }
    fn sync(&mut self) -> Result<()> {
        Ok(self.writer.sync()?)
    }
}

/// Visits the values table in chunks (raw or packed, either width).
pub(super) fn for_each_value(t: &Table, mut f: impl FnMut(u64, u16)) -> Result<()> {
    const CHUNK: u64 = 1 << 20;
    let values = GrundyValues::new(t)?;
    let mut start = 0;
    while start < t.len() {
        let n = CHUNK.min(t.len() - start);
        for (i, &v) in values.read(start, n)?.iter().enumerate() {
            f(start + i as u64, v);
        }
        start += n;
    }
    Ok(())
}

fn build_rare(ctx: &JobContext) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "rare heaps", 1);
    let values = ctx.open("grundy/values")?;
    let (mut keys, mut vals) = (Vec::new(), Vec::new());
    for_each_value(&values, |n, v| {
        if is_rare_value(v) {
            keys.push(n);
            vals.push(v);
        }
    })?;
    let stats =
        json!({"rare_count": keys.len(), "last_rare_heap": keys.last(), "bound": values.len() - 1});
    write_hashed(
        &ctx.output,
        &keys,
        &vals,
        &TableMeta::new(
            "grundy",
            "rare",
            values.meta().params.clone(),
            "perfect-hash",
            "u16 value of a heap whose value is rare (even parity of bits above the lowest); key = heap size",
            stats,
        ).stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    stage.inc(1);
    stage.finish();
    Ok(())
}

fn build_misere(ctx: &JobContext, bound: u64) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "misère search", bound + 1);
    let mut solver = misere::MisereSolver::new();
    let mut entries = Vec::new();
    let mut p_heaps = Vec::new();
    for n in 0..=bound {
        let (win, split) = solver.single_heap(n as u8);
        if !win {
            p_heaps.push(n);
        }
        entries.push(misere::encode(win, split));
        stage.inc(1);
    }
    let stats = json!({
        "bound": bound,
        "p_heaps": p_heaps,
        "multisets_solved": solver.positions_solved(),
    });
    write_ranked(
        &ctx.output,
        &entries,
        &TableMeta::new(
            "grundy",
            "misere",
            ctx.params.clone(),
            "heap-size",
            "u32: 0 = P-position; bit 31 = player to move wins, low bits = smaller part of a winning split (0: no move exists)",
            stats,
        ).stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    stage.finish();
    Ok(())
}
